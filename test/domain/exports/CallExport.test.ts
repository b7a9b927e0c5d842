import { describe, expect, test } from 'vitest';
import type { ActionItemRecord } from '../../../src/domain/actions/ActionItemRepository.js';
import type { CallRecord } from '../../../src/domain/calls/callTypes.js';
import { oneLine, toCallExport } from '../../../src/domain/exports/CallExport.js';
import type { Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';
import { analysisV1Fixture, analysisV2Fixture, transcriptFixture } from '../../helpers/seedCalls.js';

const callId = '5b0c8a5e-2f7e-4c1a-9a53-3f6f2d0b9c11';
const recordedAt = Date.parse('2026-11-20T23:30:00.000Z');

function callRecord(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    seq: 1, id: callId, userId: 'user-1', title: 'Dentist appointment', fileName: 'call.m4a', contactName: 'Sheila', contactId: null,
    phoneNumber: '+15551234567', organization: null, direction: 'INCOMING', status: 'COMPLETED', durationSeconds: 31, recordedAt,
    errorReason: null, audioFormat: 'm4a', audioSizeBytes: 1000, audioObjectKey: null, deletingSince: null, queuedAt: null, stage: null,
    progress: 1, lastProgressAt: null, workerLease: null, processingAttempts: 1, awaitingCallbackSince: null, heartbeatAt: null,
    createdAt: recordedAt + 60_000, updatedAt: recordedAt + 60_000,
    ...overrides,
  };
}

function actionItem(overrides: Partial<ActionItemRecord> = {}): ActionItemRecord {
  return {
    seq: 1, id: 'item-1', callId, userId: 'user-1', title: 'Send the contract', description: null, dueDate: '2026-12-01', status: 'PENDING',
    sourceText: null, ownerSpeakerId: 'spk_0', ownerSpeakerLabel: 'Speaker 1', ownerDisplayName: 'Diane', ownerRole: 'USER',
    sourceSegmentIds: '["seg_0001"]', intent: 'email', intentMetadata: null, createdAt: recordedAt, updatedAt: recordedAt,
    ...overrides,
  };
}

const transcript = () => transcriptFixture(callId, recordedAt) as unknown as Transcript;

describe('toCallExport', () => {
  test('takes the title, the recording time in the given zone, the speakers and the segments as stored', () => {
    const display = toCallExport({ call: callRecord(), transcript: transcript(), analysis: analysisV2Fixture(), actionItems: [actionItem()], timeZone: 'Europe/Berlin' });
    expect(display).toEqual({
      title: 'Dentist appointment',
      recorded: { date: '2026-11-21', time: '00:30', timeZone: 'Europe/Berlin' },
      direction: 'INCOMING',
      contactName: 'Sheila',
      durationSeconds: 31,
      participants: ['Diane', 'Sheila'],
      summary: { bullets: ['Contract discussed'], paragraphs: ['Diane and Sheila discussed the contract.'] },
      actionItems: [{ title: 'Send the contract', owner: 'Diane', dueDate: '2026-12-01', status: 'PENDING' }],
      segments: [
        { id: 'seg_0001', startSeconds: 0, endSeconds: 4, speaker: 'Diane', text: 'Hi, this is Diane.' },
        { id: 'seg_0002', startSeconds: 4, endSeconds: 8, speaker: 'Sheila', text: 'Hello Diane, Sheila here.' },
      ],
    });
  });

  test('reads the prose summary of a v1 analysis', () => {
    const display = toCallExport({ call: callRecord(), transcript: transcript(), analysis: analysisV1Fixture(), actionItems: [], timeZone: 'UTC' });
    expect(display.summary).toEqual({ bullets: [], paragraphs: ['Diane and Sheila discussed the contract.'] });
  });

  test('falls back to the one-line summary, and to nothing, when a v2 analysis has no prose or bullets', () => {
    const base = analysisV2Fixture();
    const withoutProse = { ...base, executiveSummary: null, executiveSummaryBullets: null };
    expect(toCallExport({ call: callRecord(), transcript: transcript(), analysis: withoutProse, actionItems: [], timeZone: 'UTC' }).summary)
      .toEqual({ bullets: [], paragraphs: ['Diane agrees to send Sheila the contract.'] });
    const empty = { ...withoutProse, oneLineSummary: null };
    expect(toCallExport({ call: callRecord(), transcript: transcript(), analysis: empty, actionItems: [], timeZone: 'UTC' }).summary)
      .toEqual({ bullets: [], paragraphs: [] });
  });

  test('uses the upload time when the recording time is unknown, and the transcript\'s duration when the call has none', () => {
    const display = toCallExport({ call: callRecord({ recordedAt: null, durationSeconds: null }), transcript: transcript(), analysis: analysisV2Fixture(), actionItems: [], timeZone: 'UTC' });
    expect(display.recorded).toEqual({ date: '2026-11-20', time: '23:31', timeZone: 'UTC' });
    expect(display.durationSeconds).toBe(30);
  });

  test('names the contact as the participant when the transcript names no speaker', () => {
    const withoutSpeakers = { ...transcript(), speakers: [] };
    expect(toCallExport({ call: callRecord(), transcript: withoutSpeakers, analysis: analysisV2Fixture(), actionItems: [], timeZone: 'UTC' }).participants).toEqual(['Sheila']);
  });

  test('puts every text on one line, drops empty segments and keeps end times from going before start times', () => {
    const stored = transcript();
    const [first, second] = stored.segments;
    const segments = [
      { ...first!, text: 'Line one\r\nline\u0000two\u2028three  ', speakerDisplayName: '' },
      { ...second!, text: ' \n ' },
      { ...second!, id: 'seg_0003', startSeconds: 9, endSeconds: 8.5 },
    ];
    const display = toCallExport({
      call: callRecord({ title: 'Two\nlines' }), transcript: { ...stored, segments }, analysis: analysisV2Fixture(),
      actionItems: [actionItem({ ownerDisplayName: null, ownerSpeakerLabel: null, status: 'COMPLETED' })], timeZone: 'UTC',
    });
    expect(display.title).toBe('Two lines');
    expect(display.segments).toEqual([
      { id: 'seg_0001', startSeconds: 0, endSeconds: 4, speaker: 'Diane', text: 'Line one line two three' },
      { id: 'seg_0003', startSeconds: 9, endSeconds: 9, speaker: 'Sheila', text: 'Hello Diane, Sheila here.' },
    ]);
    expect(display.actionItems).toEqual([{ title: 'Send the contract', owner: null, dueDate: '2026-12-01', status: 'COMPLETED' }]);
  });
});

describe('oneLine', () => {
  test.each([['a\nb', 'a b'], ['  a\t\tb  ', 'a b'], ['a\u0007b', 'a b'], ['', '']])('%j becomes %j', (input, expected) => {
    expect(oneLine(input)).toBe(expected);
  });
});
