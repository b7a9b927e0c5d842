import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deleteJson, errorOf, recordProcessingEvent, rowsOfCall, type CallTable } from '../../helpers/callInspection.js';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

interface BulkResult {
  deleted: number;
  missing: number;
  failed: { callId: string; code: string; message: string }[];
}

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

const alice = () => testApp.as('alice');
const callTables: CallTable[] = ['calls', 'call_artifacts', 'action_items', 'processing_events'];

function callFolderExists(callId: string): boolean {
  return existsSync(join(testApp.dataDir, 'objects', 'calls', callId));
}

async function rowsLeft(callId: string): Promise<Record<CallTable, number>> {
  const counts = await Promise.all(callTables.map(async (table) => [table, await rowsOfCall(testApp.services, table, callId)] as const));
  return Object.fromEntries(counts) as Record<CallTable, number>;
}

/** A completed call of alice with audio, transcript, analysis, two action items and a processing event. */
async function completedCall(user = 'alice'): Promise<string> {
  const callId = await seedCall(testApp.services, user);
  await recordProcessingEvent(testApp.services, callId);
  return callId;
}

async function expectCallIntact(callId: string): Promise<void> {
  expect(callFolderExists(callId)).toBe(true);
  expect(await rowsOfCall(testApp.services, 'calls', callId)).toBe(1);
}

describe('DELETE /api/calls/{id}', () => {
  test('answers 204 and removes the call\'s folder and every row of the call, its artifacts, action items and events', async () => {
    const callId = await completedCall();
    expect(await rowsLeft(callId)).toEqual({ calls: 1, call_artifacts: 2, action_items: 2, processing_events: 1 });

    const response = await alice()(`/api/calls/${callId}`, { method: 'DELETE' });

    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(callFolderExists(callId)).toBe(false);
    expect(await rowsLeft(callId)).toEqual({ calls: 0, call_artifacts: 0, action_items: 0, processing_events: 0 });
    expect((await alice()(`/api/calls/${callId}`)).status).toBe(404);
    expect((await (await alice()('/api/actions')).json()) as unknown[]).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ callRecordId: callId })]),
    );
  });

  test('deletes a failed call', async () => {
    const callId = await seedCall(testApp.services, 'alice', { status: 'FAILED' });
    expect((await alice()(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(204);
    expect(callFolderExists(callId)).toBe(false);
    expect(await rowsOfCall(testApp.services, 'calls', callId)).toBe(0);
  });

  test.each(['QUEUED', 'TRANSCRIBING', 'ANALYZING'] as const)('refuses a call still %s with 409 call_in_progress and deletes nothing', async (status) => {
    const callId = await seedCall(testApp.services, 'alice', { status });
    await recordProcessingEvent(testApp.services, callId);

    const response = await alice()(`/api/calls/${callId}`, { method: 'DELETE' });

    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('call_in_progress');
    await expectCallIntact(callId);
    expect(await rowsOfCall(testApp.services, 'processing_events', callId)).toBe(1);
    expect(((await (await alice()(`/api/calls/${callId}`)).json()) as { status: string }).status).toBe(status);
  });

  test('answers 404 call_not_found for an unknown id', async () => {
    const response = await alice()(`/api/calls/${randomUUID()}`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('call_not_found');
  });

  test('answers 404 call_not_found for another user\'s call and leaves it alone', async () => {
    const bobCall = await completedCall('bob');
    const response = await alice()(`/api/calls/${bobCall}`, { method: 'DELETE' });

    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('call_not_found');
    await expectCallIntact(bobCall);
    expect(await rowsLeft(bobCall)).toEqual({ calls: 1, call_artifacts: 2, action_items: 2, processing_events: 1 });
  });

  test('refuses a non-UUID id with 400 validation_failed', async () => {
    const response = await alice()('/api/calls/not-a-uuid', { method: 'DELETE' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('without an Idempotency-Key a second delete answers 404', async () => {
    const callId = await completedCall();
    expect((await alice()(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await alice()(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(404);
  });

  test('with an Idempotency-Key a repeated delete replays 204', async () => {
    const callId = await completedCall();
    const headers = { 'idempotency-key': randomUUID() };

    const first = await alice()(`/api/calls/${callId}`, { method: 'DELETE', headers });
    const repeat = await alice()(`/api/calls/${callId}`, { method: 'DELETE', headers });

    expect(first.status).toBe(204);
    expect(repeat.status).toBe(204);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await rowsOfCall(testApp.services, 'calls', callId)).toBe(0);
  });

  test('the same Idempotency-Key on the delete of another call is refused with 409 idempotency_key_conflict', async () => {
    const [firstCall, secondCall] = [await completedCall(), await completedCall()];
    const headers = { 'idempotency-key': randomUUID() };
    expect((await alice()(`/api/calls/${firstCall}`, { method: 'DELETE', headers })).status).toBe(204);

    const response = await alice()(`/api/calls/${secondCall}`, { method: 'DELETE', headers });

    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('idempotency_key_conflict');
    await expectCallIntact(secondCall);
  });
});

describe('DELETE /api/calls (bulk)', () => {
  test('handles each id on its own: deleted, missing, or failed with a code', async () => {
    const [ownCompleted, ownFailed] = [await completedCall(), await seedCall(testApp.services, 'alice', { status: 'FAILED' })];
    const inFlight = await seedCall(testApp.services, 'alice', { status: 'TRANSCRIBING' });
    const foreign = await completedCall('bob');
    const unknown = randomUUID();

    const response = await deleteJson(alice(), '/api/calls', { callIds: [ownCompleted, unknown, inFlight, foreign, 'not-a-uuid', ownFailed] });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      deleted: 2,
      missing: 2,
      failed: [
        { callId: inFlight, code: 'call_in_progress', message: expect.any(String) },
        { callId: 'not-a-uuid', code: 'validation_failed', message: expect.any(String) },
      ],
    } satisfies BulkResult);
    for (const deleted of [ownCompleted, ownFailed]) {
      expect(callFolderExists(deleted)).toBe(false);
      expect(await rowsLeft(deleted)).toEqual({ calls: 0, call_artifacts: 0, action_items: 0, processing_events: 0 });
    }
    await expectCallIntact(inFlight);
    await expectCallIntact(foreign);
  });

  test('with an Idempotency-Key a repeat replays the first result instead of counting the ids as missing', async () => {
    const callId = await completedCall();
    const headers = { 'idempotency-key': randomUUID() };

    const first = await deleteJson(alice(), '/api/calls', { callIds: [callId] }, headers);
    const repeat = await deleteJson(alice(), '/api/calls', { callIds: [callId] }, headers);

    expect(await first.json()).toEqual({ deleted: 1, missing: 0, failed: [] });
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await repeat.json()).toEqual({ deleted: 1, missing: 0, failed: [] });
  });

  test('counts a repeated id once', async () => {
    const callId = await completedCall();
    const response = await deleteJson(alice(), '/api/calls', { callIds: [callId, callId] });
    expect(await response.json()).toEqual({ deleted: 1, missing: 0, failed: [] });
  });

  test('accepts 100 ids', async () => {
    const callId = await completedCall();
    const response = await deleteJson(alice(), '/api/calls', { callIds: [callId, ...Array.from({ length: 99 }, () => randomUUID())] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 1, missing: 99, failed: [] });
  });

  test('refuses more than 100 ids with 400 validation_failed and deletes none of them', async () => {
    const callId = await completedCall();
    const response = await deleteJson(alice(), '/api/calls', { callIds: [callId, ...Array.from({ length: 100 }, () => randomUUID())] });

    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
    await expectCallIntact(callId);
  });

  test.each([
    ['an empty id list', { callIds: [] }],
    ['a body without callIds', {}],
    ['callIds that is an object', { callIds: { id: 'abc' } }],
    ['callIds that is a single string, not a list', { callIds: 'abc' }],
    ['ids that are numbers', { callIds: [123] }],
    ['unknown fields', { callIds: [randomUUID()], everything: true }],
  ])('refuses %s with 400 validation_failed', async (_case, body) => {
    const response = await deleteJson(alice(), '/api/calls', body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('refuses a request without a body with 400 validation_failed', async () => {
    const response = await alice()('/api/calls', { method: 'DELETE' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('refuses an empty JSON body with 400 validation_failed', async () => {
    const response = await alice()('/api/calls', { method: 'DELETE', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });
});
