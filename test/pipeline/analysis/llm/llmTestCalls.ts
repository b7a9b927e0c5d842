import { resolve } from 'node:path';
import type { Transcript } from '../../../../src/domain/transcripts/transcriptSchema.js';
import type { AnalysisInput } from '../../../../src/pipeline/analysis/Analyser.js';
import { transcriptFromSegments } from '../../../../src/pipeline/normalization/transcriptFromSegments.js';

/** The structure-only Llama-2 GGUF (random weights, 1.7 MB): proves load, generation and grammar; its text is random. */
export const tinyRandomLlm = resolve(import.meta.dirname, '../../../../../shared/models/llama-2-tiny-random.gguf');

const call = { callId: '6f1d2c3b-4a59-4e68-9d7c-8b6a5f4e3d2c', createdAt: Date.UTC(2026, 2, 13, 9, 30) };

/** Speaker `A` is the user (Dana Whitfield), `B` the contact (Marco Ruiz), as speaker resolution would leave them. */
function resolved(transcript: Transcript): Transcript {
  const people: Record<string, { displayName: string; role: 'USER' | 'CONTACT' }> = {
    A: { displayName: 'Dana Whitfield', role: 'USER' },
    B: { displayName: 'Marco Ruiz', role: 'CONTACT' },
  };
  return {
    ...transcript,
    speakers: transcript.speakers.map((speaker) => ({ ...speaker, ...people[speaker.sourceSpeakerId] })),
    segments: transcript.segments.map((segment) => ({
      ...segment,
      speakerDisplayName: people[segment.sourceSpeakerId]?.displayName ?? segment.speakerDisplayName,
      role: people[segment.sourceSpeakerId]?.role ?? segment.role,
    })),
  };
}

const shortCallLines: Array<[speaker: string, text: string]> = [
  ['A', 'Hi Marco, Dana here. Do you have a minute about the warehouse order?'],
  ['B', 'Sure Dana. We can ship the 40 pallets on Thursday if you confirm today.'],
  ['A', 'Great. I will email you the signed purchase order this afternoon.'],
  ['B', 'Perfect, and let us meet next Tuesday at 3 to review the delivery schedule.'],
  ['A', 'Works for me. Talk soon.'],
];

/** A two-speaker call of `lines` (default: five lines about a warehouse order), 4 s per line. */
export function callInput(lines: ReadonlyArray<[speaker: string, text: string]> = shortCallLines): AnalysisInput {
  const transcript = transcriptFromSegments({
    language: 'en',
    segments: lines.map(([sourceSpeakerId, text], index) => ({ sourceSpeakerId, startSeconds: index * 4, endSeconds: index * 4 + 3.5, text })),
  }, call);
  return { transcript: resolved(transcript), metadata: { contactName: 'Marco Ruiz', direction: 'OUTGOING' }, recordedAt: call.createdAt, timeZone: 'Europe/Berlin' };
}

/** A long call: the short call's lines repeated `times` times. */
export function longCallInput(times: number): AnalysisInput {
  return callInput(Array.from({ length: times }, () => shortCallLines).flat());
}

/**
 * What a good model answers for {@link callInput}'s call (recorded Friday 2026-03-13), in the
 * generation schema's shape: no speaker names (the analyser fills them), absent intent metadata
 * fields as null.
 */
export const sampleAnswer = {
  callType: 'scheduling',
  suggestedTitle: 'Warehouse order: Thursday shipment and review meeting',
  oneLineSummary: 'Marco can ship 40 pallets on Thursday once Dana confirms; they meet Tuesday to review delivery.',
  conversationOutcome: 'agreement',
  executiveSummary: 'Dana called Marco about the warehouse order. Marco can ship the 40 pallets on Thursday if Dana confirms today. '
    + 'Dana will email the signed purchase order this afternoon, and they meet next Tuesday at 3 to review the delivery schedule.',
  executiveSummaryBullets: [
    { text: 'Shipment of 40 pallets possible on Thursday, pending confirmation today', category: 'outcome', importance: 'high', sourceSegmentIds: ['seg_0002'] },
    { text: 'Signed purchase order to be sent this afternoon', category: 'next_steps', importance: 'high', sourceSegmentIds: ['seg_0003'] },
    { text: 'Delivery schedule review set for next Tuesday at 3', category: 'agreement', importance: 'medium', sourceSegmentIds: ['seg_0004', 'seg_0005'] },
  ],
  sections: [
    { title: 'Warehouse order', content: 'Shipping the 40 pallets on Thursday depends on a confirmation today.', sourceSegmentIds: ['seg_0001', 'seg_0002', 'seg_0003'] },
  ],
  keyDiscussionPoints: [
    { text: 'Dana raises the warehouse order', topic: 'warehouse order', phase: 'opening', speakerId: 'spk_0', sourceSegmentIds: ['seg_0001'] },
    { text: 'Marco offers to ship 40 pallets on Thursday if confirmed today', topic: 'shipping', phase: 'middle', speakerId: 'spk_1', sourceSegmentIds: ['seg_0002'] },
    { text: 'They agree to meet next Tuesday at 3', topic: 'delivery schedule', phase: 'closing', speakerId: null, sourceSegmentIds: ['seg_0004', 'seg_0005'] },
  ],
  actionItems: [
    {
      title: 'Email the signed purchase order to Marco', description: 'Confirms the Thursday shipment', dueDate: '2026-03-13', priority: 'high',
      ownerSpeakerId: 'spk_0', sourceSegmentIds: ['seg_0003'], intent: 'email',
      intentMetadata: { toEmail: null, toName: 'Marco Ruiz', subject: 'Signed purchase order', bodyPreview: null },
    },
    {
      title: 'Review the delivery schedule', description: null, dueDate: '2026-03-17', priority: 'medium',
      ownerSpeakerId: 'spk_1', sourceSegmentIds: ['seg_0004'], intent: 'meeting',
      intentMetadata: {
        providerHint: null, attendees: [{ name: 'Dana Whitfield', email: null }, { name: 'Marco Ruiz', email: null }],
        proposedAt: '2026-03-17T15:00:00+01:00', durationMinutes: null, title: 'Delivery schedule review', location: null,
      },
    },
  ],
  followUps: [{ text: 'Confirm the order today so it ships on Thursday', ownerSpeakerId: 'spk_0', dueDate: '2026-03-13', sourceSegmentIds: ['seg_0002'] }],
  importantDates: [
    { text: 'Thursday', date: '2026-03-19', time: null, description: 'Shipping day for the 40 pallets', sourceSegmentIds: ['seg_0002'] },
    { text: 'next Tuesday at 3', date: '2026-03-17', time: '15:00', description: 'Delivery schedule review', sourceSegmentIds: ['seg_0004'] },
  ],
  decisions: [{ text: 'Meet next Tuesday at 3 to review the delivery schedule', madeBySpeakerId: 'spk_1', sourceSegmentIds: ['seg_0004', 'seg_0005'] }],
  commitments: [{ text: 'Dana emails the signed purchase order this afternoon', speakerId: 'spk_0', dueDate: '2026-03-13', sourceSegmentIds: ['seg_0003'] }],
  openQuestions: [],
  risks: [{ text: 'The shipment slips if the order is not confirmed today', severity: 'low', sourceSegmentIds: ['seg_0002'] }],
  opportunities: [],
  peopleMentioned: [
    { name: 'Marco', relation: 'participant', role: null, speakerId: 'spk_1', sourceSegmentIds: ['seg_0001'] },
    { name: 'Dana', relation: 'participant', role: null, speakerId: 'spk_0', sourceSegmentIds: ['seg_0001', 'seg_0002'] },
  ],
  numbersAndAmounts: [
    { text: '40 pallets', kind: 'quantity', value: 40, unit: 'pallets', currency: null, context: 'Size of the shipment', sourceSegmentIds: ['seg_0002'] },
  ],
  sentiment: {
    overall: 'positive', score: 0.5, reason: 'Both parties are cooperative and agree quickly.',
    userSentiment: { overall: 'positive', score: 0.5, notes: 'Pleased with the offer' },
    contactSentiment: { overall: 'positive', score: 0.4, notes: 'Accommodating' },
    progression: [
      { phase: 'opening', overall: 'neutral', note: 'Businesslike start', sourceSegmentIds: ['seg_0001'] },
      { phase: 'closing', overall: 'positive', note: 'Friendly agreement', sourceSegmentIds: ['seg_0004', 'seg_0005'] },
    ],
    emotionalSignals: ['cooperative'],
  },
  tone: {
    overall: 'professional', descriptors: ['efficient', 'friendly'], formality: 'semi-formal', energy: 'medium', pace: 'fast',
    notes: 'A short, businesslike exchange.',
    byParty: {
      userTone: { overall: 'friendly', descriptors: ['brisk'], notes: 'Direct' },
      contactTone: { overall: 'professional', descriptors: ['accommodating'], notes: 'Helpful' },
    },
  },
  tags: ['warehouse', 'shipping', 'purchase order'],
};
