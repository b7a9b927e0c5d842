import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/createServices.js';
import type { CallStatus } from '../../src/domain/calls/callTypes.js';
import { storeCallResults, type VersionedDocument } from '../../src/domain/calls/storeCallResults.js';
import { callObjectKeys } from '../../src/infrastructure/storage/ObjectStore.js';
import { wavFile } from './audioFixtures.js';

export interface SeedOptions {
  status?: CallStatus;
  title?: string;
  contactName?: string;
  phoneNumber?: string;
  createdAt?: number;
  durationSeconds?: number;
  /** Analysis document version to store for a COMPLETED call. Defaults to 2. */
  analysisVersion?: 1 | 2;
  /** Action items to create for a COMPLETED call. Defaults to two (one with a due date). */
  actionItems?: { title: string; dueDate?: string | null; status?: 'PENDING' | 'COMPLETED'; createdAt?: number }[];
  errorReason?: string;
}

/** The user row of a local test user, created as the API would on first request. */
export function seedUser(services: Services, localUserId: string) {
  return services.users.findOrCreate({ externalUserId: `local:${localUserId}` }, services.clock());
}

/**
 * Creates a call through the repository layer, with its audio file; a COMPLETED call also gets a
 * v2 transcript, an analysis (v2 or v1) and action items, stored as the pipeline stores them.
 */
export async function seedCall(services: Services, localUserId: string, options: SeedOptions = {}): Promise<string> {
  const user = await seedUser(services, localUserId);
  const callId = randomUUID();
  const now = options.createdAt ?? services.clock();
  const audio = wavFile(0.1);
  const audioKey = callObjectKeys.audio(callId, 'wav');
  const tempPath = services.store.newTempPath();
  await import('node:fs/promises').then((fs) => fs.writeFile(tempPath, audio));
  await services.store.adoptTempFile(tempPath, audioKey);
  const status = options.status ?? 'COMPLETED';
  await services.calls.insert({
    id: callId, userId: user.id, title: options.title ?? 'Seeded call', fileName: 'seeded.wav',
    contactName: options.contactName ?? 'Sheila', phoneNumber: options.phoneNumber ?? '+15551234567',
    direction: 'OUTGOING', status: status === 'COMPLETED' ? 'ANALYZING' : status,
    durationSeconds: options.durationSeconds ?? 30, recordedAt: now - 60_000,
    errorReason: options.errorReason ?? (status === 'FAILED' ? 'The audio could not be decoded' : null),
    audioFormat: 'wav', audioSizeBytes: audio.length, audioObjectKey: audioKey, createdAt: now, updatedAt: now,
  });
  if (status !== 'COMPLETED') return callId;

  const items = options.actionItems ?? [
    { title: 'Send the contract', dueDate: '2026-12-01' },
    { title: 'Call back about pricing', dueDate: null },
  ];
  await storeCallResults({ ...services, database: services.database.sql }, user.id, {
    callId,
    transcript: transcriptFixture(callId, now),
    analysis: options.analysisVersion === 1 ? analysisV1Fixture() : analysisV2Fixture(),
    durationSeconds: options.durationSeconds ?? 30,
    actionItems: items.map((item, index) => ({
      id: randomUUID(), title: item.title, description: null, dueDate: item.dueDate ?? null, status: item.status ?? 'PENDING',
      sourceText: 'priority=medium; segments=seg_0001; excerpt="I will send it"', ownerSpeakerId: 'spk_0', ownerSpeakerLabel: 'Diane',
      ownerDisplayName: 'Diane', ownerRole: 'USER', sourceSegmentIds: JSON.stringify(['seg_0001']),
      intent: index === 0 ? 'email' : 'call', intentMetadata: index === 0 ? JSON.stringify({ toName: 'Sheila' }) : null,
      createdAt: item.createdAt ?? now + index, updatedAt: item.createdAt ?? now + index,
    })),
  });
  await services.calls.update(callId, { updatedAt: now });
  return callId;
}

export function transcriptFixture(callId: string, createdAt: number): VersionedDocument {
  const speaker = (index: number, name: string, role: 'USER' | 'CONTACT') => ({
    speakerId: `spk_${index}`, sourceSpeakerId: `SPEAKER_0${index}`, label: name, displayName: name, role,
    confidence: 'HIGH', labelSource: 'GREETING_MATCH', voiceMatchScore: null, voiceProfileMatched: null,
  });
  const segment = (index: number, speakerIndex: number, name: string, role: 'USER' | 'CONTACT', start: number, end: number, text: string) => ({
    id: `seg_${String(index).padStart(4, '0')}`, speaker: name, speakerLabel: name, speakerDisplayName: name,
    speakerId: `spk_${speakerIndex}`, sourceSpeakerId: `SPEAKER_0${speakerIndex}`, role, startSeconds: start, endSeconds: end,
    text, alignmentConfidence: 'HIGH',
  });
  return {
    schemaVersion: 2, callId, language: 'en', durationSeconds: 30,
    cleanText: '[00:00-00:04] Diane: Hi, this is Diane.\n[00:04-00:08] Sheila: Hello Diane, Sheila here.',
    speakers: [speaker(0, 'Diane', 'USER'), speaker(1, 'Sheila', 'CONTACT')],
    segments: [
      segment(1, 0, 'Diane', 'USER', 0, 4, 'Hi, this is Diane.'),
      segment(2, 1, 'Sheila', 'CONTACT', 4, 8, 'Hello Diane, Sheila here.'),
    ],
    speakerResolution: {
      strategyVersion: 2, usedUserDisplayName: true, usedContactName: true, usedDirection: false, usedPhoneFallback: false,
      voiceEmbeddingEnabled: false, voiceProfileUsed: false, voiceMatchStatus: 'DISABLED', totalSpeakerCount: 2, resolvedSpeakerCount: 2, warnings: [],
    },
    pipeline: {
      transcriptionProvider: 'whisper.cpp', transcriptionModel: 'test', diarizationProvider: 'onnx', diarizationModel: 'test',
      alignmentVersion: '1', normalizationVersion: 3, status: 'COMPLETED',
    },
    createdAt: new Date(createdAt).toISOString(),
  };
}

export function analysisV2Fixture(): VersionedDocument {
  return {
    schemaVersion: 2, callType: 'sales', suggestedTitle: 'Contract follow-up', oneLineSummary: 'Diane agrees to send Sheila the contract.',
    conversationOutcome: 'agreement', executiveSummary: 'Diane and Sheila discussed the contract.',
    executiveSummaryBullets: [{ text: 'Contract discussed', category: 'context', importance: 'medium', sourceSegmentIds: ['seg_0001'] }],
    sections: [], keyDiscussionPoints: [], actionItems: [], followUps: [], importantDates: [], decisions: [], commitments: [],
    openQuestions: [], risks: [], opportunities: [], peopleMentioned: [], numbersAndAmounts: [],
    sentiment: { overall: 'positive', score: 0.4, reason: 'friendly', userSentiment: null, contactSentiment: null, progression: [], emotionalSignals: [] },
    tone: null, tags: ['contract'], qualityWarnings: [],
  };
}

/** The v1 shape: prose summary, sections, flat sentiment of overall and reason, no tone. */
export function analysisV1Fixture(): VersionedDocument {
  return {
    schemaVersion: 1, summary: 'Diane and Sheila discussed the contract.',
    sections: [{ title: 'Contract', content: 'They agreed on next steps.' }],
    sentiment: { overall: 'positive', reason: 'friendly' },
  };
}
