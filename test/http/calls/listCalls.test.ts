import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallStatus } from '../../../src/domain/calls/callTypes.js';
import { wavFile } from '../../helpers/audioFixtures.js';
import { errorOf, postUpload, type UserClient } from '../../helpers/callInspection.js';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { uploadForm } from '../../helpers/uploads.js';

interface ListItem {
  callId: string;
  title: string;
  contactName?: string;
  direction: string;
  status: CallStatus;
  durationSeconds?: number;
  createdAt: string;
}

interface CallList {
  items: ListItem[];
  nextCursor?: string;
}

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

/** An hour ago, so seeded calls are older than anything uploaded during a test. */
const seedEpoch = () => testApp.services.clock() - 3_600_000;

/** Seeds `count` calls for `user`, oldest first, one second apart; returns their ids oldest first. */
async function seedCalls(user: string, count: number, status: CallStatus = 'QUEUED'): Promise<string[]> {
  const start = seedEpoch();
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    ids.push(await seedCall(testApp.services, user, { status, title: `Call ${index}`, createdAt: start + index * 1000 }));
  }
  return ids;
}

async function list(client: UserClient, query = ''): Promise<CallList> {
  const response = await client(`/api/calls${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as CallList;
}

function withCursor(query: string, cursor: string): string {
  return `${query}${query ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}

describe('GET /api/calls', () => {
  test('answers 50 items by default, newest first, with a cursor to the remaining ones', async () => {
    const seeded = await seedCalls('many', 60);
    const client = testApp.as('many');

    const first = await list(client);
    expect(first.items.map((item) => item.callId)).toEqual(seeded.toReversed().slice(0, 50));
    expect(first.nextCursor).toEqual(expect.any(String));

    const second = await list(client, withCursor('', first.nextCursor!));
    expect(second.items.map((item) => item.callId)).toEqual(seeded.toReversed().slice(50));
    expect(second).not.toHaveProperty('nextCursor');
  });

  test('has no nextCursor when the page holds the last call', async () => {
    await seedCalls('few', 3);
    const page = await list(testApp.as('few'), '?limit=3');
    expect(page.items).toHaveLength(3);
    expect(page).not.toHaveProperty('nextCursor');
  });

  test('answers an empty list to a user without calls', async () => {
    expect(await list(testApp.as('newcomer'))).toEqual({ items: [] });
  });

  test('shows only the caller\'s own calls', async () => {
    const carolCall = await seedCall(testApp.services, 'carol');
    await seedCall(testApp.services, 'dave');
    const page = await list(testApp.as('carol'));
    expect(page.items.map((item) => item.callId)).toEqual([carolCall]);
  });

  test('list items carry only the list fields: no phone number, recording time or failure reason', async () => {
    await seedCall(testApp.services, 'erin', { status: 'FAILED', phoneNumber: '+15550001111', errorReason: 'Audio could not be decoded' });
    const [item] = (await list(testApp.as('erin'))).items;

    expect(Object.keys(item!).sort()).toEqual(['callId', 'contactName', 'createdAt', 'direction', 'durationSeconds', 'status', 'title']);
    expect(item).toMatchObject({ status: 'FAILED', contactName: 'Sheila', direction: 'OUTGOING', durationSeconds: 30 });
    expect(item!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test('omits contactName and durationSeconds when an upload did not give them', async () => {
    const client = testApp.as('frank');
    expect((await postUpload(client, uploadForm(wavFile(0.1), 'memo.wav'))).status).toBe(202);
    const [item] = (await list(client)).items;
    expect(Object.keys(item!).sort()).toEqual(['callId', 'createdAt', 'direction', 'status', 'title']);
    expect(item).toMatchObject({ title: 'memo', direction: 'UNKNOWN', status: 'QUEUED' });
  });

  test.each(['101', '0', '-1', 'abc', '2.5'])('refuses limit=%s with 400 validation_failed', async (limit) => {
    const response = await testApp.as('alice')(`/api/calls?limit=${limit}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('accepts limit=100, the maximum', async () => {
    await seedCalls('hundred', 101);
    const page = await list(testApp.as('hundred'), '?limit=100');
    expect(page.items).toHaveLength(100);
    expect(page.nextCursor).toEqual(expect.any(String));
  });
});

describe('filtering by status', () => {
  const user = 'filter';
  const ids = {} as Record<'queued' | 'transcribing' | 'analyzing' | 'completed' | 'failedOld' | 'failedNew', string>;
  beforeAll(async () => {
    const start = seedEpoch();
    const seed = (status: CallStatus, offset: number) => seedCall(testApp.services, user, { status, createdAt: start + offset });
    ids.failedOld = await seed('FAILED', 0);
    ids.queued = await seed('QUEUED', 1000);
    ids.transcribing = await seed('TRANSCRIBING', 2000);
    ids.completed = await seed('COMPLETED', 3000);
    ids.analyzing = await seed('ANALYZING', 4000);
    ids.failedNew = await seed('FAILED', 5000);
  });

  test('a single status lists only calls in it', async () => {
    const page = await list(testApp.as(user), '?status=FAILED');
    expect(page.items.map((item) => item.callId)).toEqual([ids.failedNew, ids.failedOld]);
  });

  test('a comma-separated list of statuses lists calls in any of them, newest first', async () => {
    const page = await list(testApp.as(user), '?status=QUEUED,TRANSCRIBING,ANALYZING');
    expect(page.items.map((item) => item.callId)).toEqual([ids.analyzing, ids.transcribing, ids.queued]);
  });

  test.each(['DONE', 'failed', 'FAILED,', 'FAILED,,QUEUED', ''])('refuses status=%s with 400 validation_failed', async (status) => {
    const response = await testApp.as(user)(`/api/calls?status=${status}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('validation_failed');
  });

  test('a filtered page\'s cursor continues the filtered list', async () => {
    const client = testApp.as(user);
    const first = await list(client, '?status=FAILED&limit=1');
    expect(first.items.map((item) => item.callId)).toEqual([ids.failedNew]);

    const second = await list(client, withCursor('?status=FAILED&limit=1', first.nextCursor!));
    expect(second.items.map((item) => item.callId)).toEqual([ids.failedOld]);
    expect(second).not.toHaveProperty('nextCursor');
  });

  test('a cursor stays valid when the same statuses are listed in another order or repeated', async () => {
    const client = testApp.as(user);
    const first = await list(client, '?status=FAILED,COMPLETED&limit=1');
    expect(first.items.map((item) => item.callId)).toEqual([ids.failedNew]);
    const second = await list(client, withCursor('?status=COMPLETED,FAILED,FAILED&limit=5', first.nextCursor!));
    expect(second.items.map((item) => item.callId)).toEqual([ids.completed, ids.failedOld]);
  });

  test.each([
    ['another status filter', '?status=QUEUED&limit=1'],
    ['no status filter', '?limit=1'],
  ])('a filtered page\'s cursor used with %s is refused with 400 invalid_cursor', async (_case, query) => {
    const client = testApp.as(user);
    const { nextCursor } = await list(client, '?status=FAILED&limit=1');
    const response = await client(`/api/calls${withCursor(query, nextCursor!)}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_cursor');
  });

  test('an unfiltered page\'s cursor used with a filter is refused with 400 invalid_cursor', async () => {
    const client = testApp.as(user);
    const { nextCursor } = await list(client, '?limit=1');
    const response = await client(`/api/calls${withCursor('?status=FAILED', nextCursor!)}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_cursor');
  });
});

describe('cursors', () => {
  let cursorOfGrace: string;
  beforeAll(async () => {
    await seedCalls('grace', 5);
    cursorOfGrace = (await list(testApp.as('grace'), '?limit=2')).nextCursor!;
  });

  async function expectInvalidCursor(user: string, cursor: string): Promise<void> {
    const response = await testApp.as(user)(`/api/calls${withCursor('?limit=2', cursor)}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_cursor');
  }

  test('a cursor whose position was rewritten is refused with 400 invalid_cursor', async () => {
    const [payload, mac] = cursorOfGrace.split('.');
    const position = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { s: number };
    const forged = Buffer.from(JSON.stringify({ ...position, s: position.s + 1000 })).toString('base64url');
    await expectInvalidCursor('grace', `${forged}.${mac}`);
  });

  test('a cursor with one character changed is refused with 400 invalid_cursor', async () => {
    const middle = Math.floor(cursorOfGrace.length / 2);
    const changed = cursorOfGrace[middle] === 'A' ? 'B' : 'A';
    await expectInvalidCursor('grace', `${cursorOfGrace.slice(0, middle)}${changed}${cursorOfGrace.slice(middle + 1)}`);
  });

  test.each(['not-a-cursor', 'abc.def', 'a.b.c', '.', 'eyJzIjoxfQ'])('a made-up cursor (%s) is refused with 400 invalid_cursor', async (cursor) => {
    await expectInvalidCursor('grace', cursor);
  });

  test('another user\'s cursor is refused with 400 invalid_cursor', async () => {
    await seedCalls('heidi', 5);
    await expectInvalidCursor('heidi', cursorOfGrace);
  });

  test('a cursor stays valid for its owner', async () => {
    const page = await list(testApp.as('grace'), withCursor('?limit=2', cursorOfGrace));
    expect(page.items.map((item) => item.title)).toEqual(['Call 2', 'Call 1']);
  });
});

describe('paging while calls keep arriving', () => {
  test('each of 250 calls appears exactly once, newest first, though calls are added between and during page requests', async () => {
    const user = 'pager';
    const client = testApp.as(user);
    const original = await seedCalls(user, 250);

    const listed: ListItem[] = [];
    let cursor: string | undefined;
    let pageNumber = 0;
    do {
      // An upload races each page request; a repository insert follows it.
      const [pageResponse, uploadResponse] = await Promise.all([
        client(`/api/calls${cursor === undefined ? '?limit=100' : withCursor('?limit=100', cursor)}`),
        postUpload(client, uploadForm(wavFile(0.05), `during-page-${pageNumber}.wav`)),
      ]);
      expect(pageResponse.status).toBe(200);
      expect(uploadResponse.status).toBe(202);
      await seedCall(testApp.services, user, { title: `after page ${pageNumber}`, status: 'QUEUED' });

      const page = (await pageResponse.json()) as CallList;
      expect(page.items.length).toBeLessThanOrEqual(100);
      listed.push(...page.items);
      cursor = page.nextCursor;
      pageNumber += 1;
    } while (cursor !== undefined && pageNumber < 10);

    expect(pageNumber).toBeGreaterThanOrEqual(3);
    const listedIds = listed.map((item) => item.callId);
    expect(new Set(listedIds).size).toBe(listedIds.length);
    const originalSet = new Set(original);
    expect(listedIds.filter((id) => originalSet.has(id))).toEqual(original.toReversed());
    const times = listed.map((item) => Date.parse(item.createdAt));
    for (let index = 1; index < times.length; index += 1) expect(times[index]).toBeLessThanOrEqual(times[index - 1]!);
    const originalTimes = listed.filter((item) => originalSet.has(item.callId)).map((item) => Date.parse(item.createdAt));
    for (let index = 1; index < originalTimes.length; index += 1) expect(originalTimes[index]).toBeLessThan(originalTimes[index - 1]!);
  });
});
