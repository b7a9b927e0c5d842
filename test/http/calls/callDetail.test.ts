import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallStatus } from '../../../src/domain/calls/callTypes.js';
import { errorOf } from '../../helpers/callInspection.js';
import { analysisV1Fixture, analysisV2Fixture, seedCall, transcriptFixture } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');
const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const createdAt = Date.parse('2025-05-06T07:08:09.000Z');

async function jsonOf(path: string): Promise<Record<string, unknown>> {
  const response = await alice()(path);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('GET /api/calls/{id}', () => {
  test('answers the detail of a completed call, with phone number, recording time and a null errorReason', async () => {
    const callId = await seedCall(testApp.services, 'alice', { title: 'Renewal', contactName: 'Sheila', phoneNumber: '+15551234567', createdAt });

    expect(await jsonOf(`/api/calls/${callId}`)).toEqual({
      callId, title: 'Renewal', contactName: 'Sheila', phoneNumber: '+15551234567', direction: 'OUTGOING', status: 'COMPLETED',
      durationSeconds: 30, recordedAt: '2025-05-06T07:07:09.000Z', createdAt: '2025-05-06T07:08:09.000Z', errorReason: null,
    });
  });

  test.each(['QUEUED', 'TRANSCRIBING', 'ANALYZING'] as const)('has a null errorReason while %s', async (status) => {
    const callId = await seedCall(testApp.services, 'alice', { status });
    expect(await jsonOf(`/api/calls/${callId}`)).toMatchObject({ status, errorReason: null });
  });

  test('of a failed call carries the failure reason as a string', async () => {
    const callId = await seedCall(testApp.services, 'alice', { status: 'FAILED', errorReason: 'The audio could not be decoded' });
    const detail = await jsonOf(`/api/calls/${callId}`);
    expect(detail).toMatchObject({ status: 'FAILED', errorReason: 'The audio could not be decoded' });
    expect(detail.createdAt).toMatch(isoUtc);
    expect(detail.recordedAt).toMatch(isoUtc);
  });

  test('of a failed call without a recorded reason still carries a string errorReason', async () => {
    const callId = await seedCall(testApp.services, 'alice', { status: 'FAILED' });
    await testApp.services.calls.update(callId, { errorReason: null });
    const detail = await jsonOf(`/api/calls/${callId}`);
    expect(detail.errorReason).toEqual(expect.any(String));
    expect(detail.errorReason).not.toBe('');
  });

  test('finds a call by its id written in upper case', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    expect((await jsonOf(`/api/calls/${callId.toUpperCase()}`)).callId).toBe(callId);
  });

  test.each(['not-a-uuid', '12345', 'b3f1c2d4-0000-0000-0000', 'urn:uuid:b3f1c2d4-0000-4000-8000-000000000000'])('refuses the non-UUID id %s with 400 validation_failed', async (id) => {
    const response = await alice()(`/api/calls/${id}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('answers 404 call_not_found for an unknown id', async () => {
    const response = await alice()(`/api/calls/${randomUUID()}`);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('call_not_found');
  });

  test('answers 404 call_not_found for another user\'s call', async () => {
    const bobCall = await seedCall(testApp.services, 'bob');
    const response = await alice()(`/api/calls/${bobCall}`);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('call_not_found');
  });
});

describe.each(['transcript', 'analysis'] as const)('GET /api/calls/{id}/%s', (artifact) => {
  test.each(['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'FAILED'] as const)('answers 422 call_not_completed while the call is %s', async (status: CallStatus) => {
    const callId = await seedCall(testApp.services, 'alice', { status });
    const response = await alice()(`/api/calls/${callId}/${artifact}`);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).code).toBe('call_not_completed');
  });

  test('answers 404 call_not_found for an unknown id and for another user\'s completed call', async () => {
    const bobCall = await seedCall(testApp.services, 'bob');
    for (const id of [randomUUID(), bobCall]) {
      const response = await alice()(`/api/calls/${id}/${artifact}`);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('call_not_found');
    }
  });

  test('refuses a non-UUID id with 400 validation_failed', async () => {
    const response = await alice()(`/api/calls/not-a-uuid/${artifact}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });
});

describe('the transcript of a completed call', () => {
  test('is served in the v2 shape with speakers, seg_NNNN segments, speaker resolution and pipeline provenance', async () => {
    const callId = await seedCall(testApp.services, 'alice', { createdAt });
    const transcript = await jsonOf(`/api/calls/${callId}/transcript`);

    expect(transcript).toEqual(transcriptFixture(callId, createdAt));
    expect(transcript).toMatchObject({
      schemaVersion: 2, callId, pipeline: { normalizationVersion: 3 }, speakerResolution: { strategyVersion: 2 },
    });
    const segments = transcript.segments as { id: string; speakerId: string }[];
    const speakerIds = (transcript.speakers as { speakerId: string }[]).map((speaker) => speaker.speakerId);
    for (const segment of segments) {
      expect(segment.id).toMatch(/^seg_\d{4}$/);
      expect(speakerIds).toContain(segment.speakerId);
    }
  });
});

describe('the analysis of a completed call', () => {
  test('stored as v1 is served exactly in its v1 shape: summary, sections, flat sentiment, no tone', async () => {
    const callId = await seedCall(testApp.services, 'alice', { analysisVersion: 1 });
    const analysis = await jsonOf(`/api/calls/${callId}/analysis`);

    expect(analysis).toEqual(analysisV1Fixture());
    expect(analysis).not.toHaveProperty('tone');
    expect(analysis).not.toHaveProperty('executiveSummary');
  });

  test('stored as v2 is served with its v2 fields', async () => {
    const callId = await seedCall(testApp.services, 'alice', { analysisVersion: 2 });
    const analysis = await jsonOf(`/api/calls/${callId}/analysis`);

    expect(analysis).toEqual(analysisV2Fixture());
    expect(analysis).toMatchObject({ schemaVersion: 2, executiveSummaryBullets: [expect.objectContaining({ category: 'context' })] });
  });
});
