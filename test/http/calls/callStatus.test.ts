import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CallStatus } from '../../../src/domain/calls/callTypes.js';
import { errorOf } from '../../helpers/callInspection.js';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';

interface StatusList {
  items: { callId: string; status: CallStatus }[];
  nextPollMs?: number;
}

let testApp: TestApp;
const own = {} as Record<CallStatus, string>;
let foreignQueued: string;

beforeAll(async () => {
  testApp = await startTestApp();
  for (const status of ['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'COMPLETED', 'FAILED'] as const) {
    own[status] = await seedCall(testApp.services, 'alice', { status });
  }
  foreignQueued = await seedCall(testApp.services, 'bob', { status: 'QUEUED' });
});
afterAll(async () => { await testApp.close(); });

async function statusesOf(ids: readonly string[]): Promise<StatusList> {
  const response = await testApp.as('alice')(`/api/calls/status?ids=${ids.join(',')}`);
  expect(response.status).toBe(200);
  return (await response.json()) as StatusList;
}

async function expectRefused(query: string): Promise<void> {
  const response = await testApp.as('alice')(`/api/calls/status${query}`);
  expect(response.status).toBe(400);
  expect((await errorOf(response)).code).toBe('validation_failed');
}

describe('GET /api/calls/status', () => {
  test('answers the status of each owned call, in the order asked', async () => {
    const asked = [own.FAILED, own.QUEUED, own.COMPLETED, own.ANALYZING, own.TRANSCRIBING];
    const { items } = await statusesOf(asked);
    expect(items).toEqual([
      { callId: own.FAILED, status: 'FAILED' },
      { callId: own.QUEUED, status: 'QUEUED' },
      { callId: own.COMPLETED, status: 'COMPLETED' },
      { callId: own.ANALYZING, status: 'ANALYZING' },
      { callId: own.TRANSCRIBING, status: 'TRANSCRIBING' },
    ]);
  });

  test('leaves out unknown ids and other users\' calls', async () => {
    const { items } = await statusesOf([randomUUID(), own.COMPLETED, foreignQueued]);
    expect(items).toEqual([{ callId: own.COMPLETED, status: 'COMPLETED' }]);
  });

  test('lists a repeated id once, also when repeated in upper case', async () => {
    const { items } = await statusesOf([own.COMPLETED, own.FAILED, own.COMPLETED, own.COMPLETED.toUpperCase()]);
    expect(items).toEqual([
      { callId: own.COMPLETED, status: 'COMPLETED' },
      { callId: own.FAILED, status: 'FAILED' },
    ]);
  });

  test('tolerates spaces around the ids', async () => {
    const { items } = await statusesOf([own.COMPLETED, encodeURIComponent(` ${own.FAILED} `)]);
    expect(items.map((item) => item.callId)).toEqual([own.COMPLETED, own.FAILED]);
  });

  test('accepts 100 ids', async () => {
    const ids = [own.QUEUED, ...Array.from({ length: 99 }, () => randomUUID())];
    expect((await statusesOf(ids)).items).toEqual([{ callId: own.QUEUED, status: 'QUEUED' }]);
  });

  test('refuses more than 100 ids with 400 validation_failed', async () => {
    await expectRefused(`?ids=${Array.from({ length: 101 }, () => randomUUID()).join(',')}`);
  });

  test.each([
    ['a non-UUID id', () => `?ids=${own.COMPLETED},not-a-uuid`],
    ['a missing ids parameter', () => ''],
    ['an empty ids parameter', () => '?ids='],
    ['only commas', () => '?ids=,,,'],
  ])('refuses %s with 400 validation_failed', async (_case, query) => {
    await expectRefused(query());
  });
});

describe('the nextPollMs hint', () => {
  test.each(['QUEUED', 'TRANSCRIBING', 'ANALYZING'] as const)('is an integer from 1000 to 60000 while a polled call is %s', async (status) => {
    const { nextPollMs } = await statusesOf([own.COMPLETED, own[status]]);
    expect(Number.isInteger(nextPollMs)).toBe(true);
    expect(nextPollMs).toBeGreaterThanOrEqual(1000);
    expect(nextPollMs).toBeLessThanOrEqual(60_000);
  });

  test('is absent when every polled call is COMPLETED or FAILED', async () => {
    const answer = await statusesOf([own.COMPLETED, own.FAILED]);
    expect(answer).not.toHaveProperty('nextPollMs');
  });

  test('is absent when the only unfinished call asked for is another user\'s', async () => {
    const answer = await statusesOf([own.COMPLETED, foreignQueued]);
    expect(answer).toEqual({ items: [{ callId: own.COMPLETED, status: 'COMPLETED' }] });
  });

  test('is absent when no polled call is known', async () => {
    expect(await statusesOf([randomUUID()])).toEqual({ items: [] });
  });
});
