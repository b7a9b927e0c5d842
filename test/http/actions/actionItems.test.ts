import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

interface ActionItem {
  id: string;
  callRecordId: string;
  title: string;
  description: string | null;
  dueDate: string | null;
  status: 'PENDING' | 'COMPLETED';
  sourceText: string | null;
  createdAt: string;
  updatedAt: string;
  ownerSpeakerId: string | null;
  ownerSpeakerLabel: string | null;
  ownerDisplayName: string | null;
  ownerRole: string | null;
  sourceSegmentIds: string[];
  intent: string | null;
  intentMetadata?: Record<string, unknown>;
}

interface Envelope {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A fixed point well in the past, so "updatedAt moved" needs no waiting. */
const tenDaysAgo = Date.now() - 10 * 24 * 3600 * 1000;

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

async function listActions(user: string, query = ''): Promise<ActionItem[]> {
  const response = await testApp.as(user)(`/api/actions${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ActionItem[];
}

function patchAction(user: string, id: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return testApp.as(user)(`/api/actions/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function expectError(response: Response, status: number, code: string): Promise<Envelope> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Envelope;
  expect(body.error.code).toBe(code);
  return body;
}

describe('GET /api/actions', () => {
  let olderCallId: string;
  let newerCallId: string;

  beforeAll(async () => {
    olderCallId = await seedCall(testApp.services, 'alice', {
      createdAt: tenDaysAgo,
      actionItems: [
        { title: 'Oldest pending', dueDate: '2026-12-01', createdAt: tenDaysAgo + 1_000 },
        { title: 'Early completed', status: 'COMPLETED', createdAt: tenDaysAgo + 2_000 },
      ],
    });
    newerCallId = await seedCall(testApp.services, 'alice', {
      createdAt: tenDaysAgo + 3_600_000,
      actionItems: [
        { title: 'Newest pending', createdAt: tenDaysAgo + 5_000 },
        { title: 'Late completed', status: 'COMPLETED', createdAt: tenDaysAgo + 6_000 },
        { title: 'Middle pending', createdAt: tenDaysAgo + 3_000 },
      ],
    });
  });

  test('answers a bare array: PENDING before COMPLETED, newest first within each group', async () => {
    const items = await listActions('alice');
    expect(Array.isArray(items)).toBe(true);
    expect(items.map((item) => item.title)).toEqual([
      'Newest pending', 'Middle pending', 'Oldest pending', 'Late completed', 'Early completed',
    ]);
    expect(items.map((item) => item.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'COMPLETED', 'COMPLETED']);
  });

  test('filters by ?status, keeping the order', async () => {
    expect((await listActions('alice', '?status=COMPLETED')).map((item) => item.title)).toEqual(['Late completed', 'Early completed']);
    expect((await listActions('alice', '?status=PENDING')).map((item) => item.title)).toEqual(['Newest pending', 'Middle pending', 'Oldest pending']);
  });

  test('refuses an unknown ?status value with 400 validation_failed', async () => {
    for (const status of ['DONE', 'pending', '']) {
      await expectError(await testApp.as('alice')(`/api/actions?status=${status}`), 400, 'validation_failed');
    }
  });

  test('a user without action items gets an empty array', async () => {
    expect(await listActions('nobody-yet')).toEqual([]);
  });

  test('each item carries the contract fields with their formats', async () => {
    const items = await listActions('alice');
    for (const item of items) {
      expect(item.id).toMatch(uuidV4);
      expect([olderCallId, newerCallId]).toContain(item.callRecordId);
      expect(typeof item.title).toBe('string');
      expect(item.description === null || typeof item.description === 'string').toBe(true);
      expect(item.dueDate === null || /^\d{4}-\d{2}-\d{2}$/.test(item.dueDate)).toBe(true);
      expect(['PENDING', 'COMPLETED']).toContain(item.status);
      expect(typeof item.sourceText).toBe('string');
      expect(item.createdAt).toMatch(isoTimestamp);
      expect(item.updatedAt).toMatch(isoTimestamp);
      expect(Array.isArray(item.sourceSegmentIds)).toBe(true);
      for (const key of ['ownerSpeakerId', 'ownerSpeakerLabel', 'ownerDisplayName', 'ownerRole', 'intent'] as const) {
        expect(item).toHaveProperty(key);
      }
      if ('intentMetadata' in item) expect(typeof item.intentMetadata).toBe('object');
    }

    const withDueDate = items.find((item) => item.title === 'Oldest pending');
    expect(withDueDate).toMatchObject({
      callRecordId: olderCallId,
      dueDate: '2026-12-01',
      status: 'PENDING',
      createdAt: new Date(tenDaysAgo + 1_000).toISOString(),
      ownerSpeakerId: 'spk_0',
      ownerSpeakerLabel: 'Diane',
      ownerDisplayName: 'Diane',
      ownerRole: 'USER',
      sourceSegmentIds: ['seg_0001'],
      intent: 'email',
      intentMetadata: { toName: 'Sheila' },
    });

    const withoutMetadata = items.find((item) => item.title === 'Early completed');
    expect(withoutMetadata?.dueDate).toBeNull();
    expect(withoutMetadata?.intent).toBe('call');
    expect(withoutMetadata).not.toHaveProperty('intentMetadata');
  });
});

describe('PATCH /api/actions/{id}', () => {
  let itemId: string;
  let originalUpdatedAt: string;

  beforeAll(async () => {
    await seedCall(testApp.services, 'dana', {
      createdAt: tenDaysAgo,
      actionItems: [{ title: 'Send the quote', createdAt: tenDaysAgo }, { title: 'Book the venue', createdAt: tenDaysAgo + 1 }],
    });
    const items = await listActions('dana');
    const item = items.find((candidate) => candidate.title === 'Send the quote');
    if (!item) throw new Error('seeded item missing');
    itemId = item.id;
    originalUpdatedAt = item.updatedAt;
  });

  test('marks an item COMPLETED and back to PENDING, answering the updated item each time', async () => {
    const completed = await patchAction('dana', itemId, { status: 'COMPLETED' });
    expect(completed.status).toBe(200);
    const completedItem = (await completed.json()) as ActionItem;
    expect(completedItem).toMatchObject({ id: itemId, title: 'Send the quote', status: 'COMPLETED' });
    expect(completedItem.createdAt).toBe(new Date(tenDaysAgo).toISOString());
    expect(Date.parse(completedItem.updatedAt)).toBeGreaterThan(Date.parse(originalUpdatedAt));
    expect((await listActions('dana')).find((item) => item.id === itemId)?.status).toBe('COMPLETED');

    const pending = await patchAction('dana', itemId, { status: 'PENDING' });
    expect(pending.status).toBe(200);
    const pendingItem = (await pending.json()) as ActionItem;
    expect(pendingItem).toMatchObject({ id: itemId, status: 'PENDING' });
    expect(Date.parse(pendingItem.updatedAt)).toBeGreaterThanOrEqual(Date.parse(completedItem.updatedAt));
    expect((await listActions('dana')).find((item) => item.id === itemId)?.status).toBe('PENDING');
  });

  test('status is the only settable field: any other field is refused and nothing changes', async () => {
    for (const body of [{ status: 'COMPLETED', title: 'x' }, { status: 'COMPLETED', dueDate: '2030-01-01' }]) {
      await expectError(await patchAction('dana', itemId, body), 400, 'validation_failed');
    }
    const item = (await listActions('dana')).find((candidate) => candidate.id === itemId);
    expect(item).toMatchObject({ title: 'Send the quote', status: 'PENDING' });
  });

  test('a missing or invalid status is refused with 400 validation_failed', async () => {
    for (const body of [{}, { status: 'DONE' }, { status: 'completed' }, { status: null }]) {
      const envelope = await expectError(await patchAction('dana', itemId, body), 400, 'validation_failed');
      expect(envelope.error.details?.fields).toBeDefined();
    }
  });

  test('an unknown id answers 404 action_item_not_found', async () => {
    await expectError(await patchAction('dana', randomUUID(), { status: 'COMPLETED' }), 404, 'action_item_not_found');
  });

  test('another user\'s item answers 404, not 403, and stays unchanged', async () => {
    await expectError(await patchAction('mallory', itemId, { status: 'COMPLETED' }), 404, 'action_item_not_found');
    expect((await listActions('dana')).find((item) => item.id === itemId)?.status).toBe('PENDING');
  });

  test('a malformed id answers 400 validation_failed', async () => {
    await expectError(await patchAction('dana', 'not-a-uuid', { status: 'COMPLETED' }), 400, 'validation_failed');
  });

  describe('with an Idempotency-Key', () => {
    let otherItemId: string;
    beforeAll(async () => {
      const other = (await listActions('dana')).find((item) => item.title === 'Book the venue');
      if (!other) throw new Error('seeded item missing');
      otherItemId = other.id;
    });

    test('a repeat replays the first response, marked idempotent-replayed, without running again', async () => {
      const key = randomUUID();
      const first = await patchAction('dana', otherItemId, { status: 'COMPLETED' }, { 'idempotency-key': key });
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const firstBody = await first.text();

      // Changed in between without the key: a replay still answers the stored response.
      expect((await patchAction('dana', otherItemId, { status: 'PENDING' })).status).toBe(200);

      const repeat = await patchAction('dana', otherItemId, { status: 'COMPLETED' }, { 'idempotency-key': key });
      expect(repeat.status).toBe(200);
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      expect(JSON.parse(await repeat.text())).toEqual(JSON.parse(firstBody));
      expect((await listActions('dana')).find((item) => item.id === otherItemId)?.status).toBe('PENDING');
    });

    test('the same key with a different body or item answers 409 idempotency_key_conflict', async () => {
      const key = randomUUID();
      expect((await patchAction('dana', otherItemId, { status: 'COMPLETED' }, { 'idempotency-key': key })).status).toBe(200);
      await expectError(await patchAction('dana', otherItemId, { status: 'PENDING' }, { 'idempotency-key': key }), 409, 'idempotency_key_conflict');
      await expectError(await patchAction('dana', itemId, { status: 'COMPLETED' }, { 'idempotency-key': key }), 409, 'idempotency_key_conflict');
      expect((await listActions('dana')).find((item) => item.id === itemId)?.status).toBe('PENDING');
    });

    test('keys belong to one user: another user\'s key does not replay their response', async () => {
      const key = randomUUID();
      expect((await patchAction('dana', otherItemId, { status: 'COMPLETED' }, { 'idempotency-key': key })).status).toBe(200);
      const foreign = await patchAction('mallory', otherItemId, { status: 'COMPLETED' }, { 'idempotency-key': key });
      await expectError(foreign, 404, 'action_item_not_found');
      expect(foreign.headers.get('idempotent-replayed')).toBeNull();
    });
  });
});
