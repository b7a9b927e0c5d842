import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Services } from '../../src/createServices.js';
import { seedCall } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';

/**
 * Every resource belongs to one user: for each endpoint, a user never sees or changes another
 * user's data, and foreign ids answer 404 (never 403), exactly as absent ones do.
 */

interface Portfolio {
  completedCallIds: string[];
  failedCallId: string;
  allCallIds: string[];
  actionItemIds: string[];
  stats: { totalCalls: number; openActionItems: number; completedActionItems: number };
}

interface ActionItem {
  id: string;
  status: string;
  callRecordId: string;
}

/** Alice has more of everything than Bob, so counts that leaked across users would show. */
const completedCallsOf = { alice: 3, bob: 1 } as const;

async function seedPortfolio(services: Services, user: 'alice' | 'bob'): Promise<Portfolio> {
  const completedCallIds: string[] = [];
  for (let index = 0; index < completedCallsOf[user]; index += 1) {
    completedCallIds.push(await seedCall(services, user, {
      title: `${user} call ${index}`,
      actionItems: [
        { title: `${user} open item ${index}` },
        { title: `${user} done item ${index}`, status: 'COMPLETED' },
      ],
    }));
  }
  const failedCallId = await seedCall(services, user, { status: 'FAILED', title: `${user} failed call` });
  const itemsOfCalls = await Promise.all(completedCallIds.map((callId) => services.actionItems.listForCall(callId)));
  const actionItemIds = itemsOfCalls.flat().map((item) => item.id);
  return {
    completedCallIds,
    failedCallId,
    allCallIds: [...completedCallIds, failedCallId],
    actionItemIds,
    stats: { totalCalls: completedCallIds.length + 1, openActionItems: completedCallIds.length, completedActionItems: completedCallIds.length },
  };
}

describe.each([
  { owner: 'alice', intruder: 'bob' },
  { owner: 'bob', intruder: 'alice' },
] as const)('$intruder cannot reach $owner\'s data', ({ owner, intruder }) => {
  let testApp: TestApp;
  let owned: Portfolio;
  let own: Portfolio;
  const as = (user: string) => testApp.as(user);

  beforeAll(async () => {
    testApp = await startTestApp();
    owned = await seedPortfolio(testApp.services, owner);
    own = await seedPortfolio(testApp.services, intruder);
  });
  afterAll(async () => { await testApp.close(); });

  async function expectNotFound(response: Response, code: string): Promise<void> {
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
  }

  /** The owner still sees every call and item exactly as seeded. */
  async function expectOwnerDataIntact(): Promise<void> {
    const list = (await (await as(owner)('/api/calls')).json()) as { items: { callId: string }[] };
    expect(list.items.map((item) => item.callId).sort()).toEqual([...owned.allCallIds].sort());
    for (const callId of owned.completedCallIds) expect((await as(owner)(`/api/calls/${callId}/transcript`)).status).toBe(200);
    const items = (await (await as(owner)('/api/actions')).json()) as ActionItem[];
    expect(items.map((item) => item.id).sort()).toEqual([...owned.actionItemIds].sort());
    expect(items.filter((item) => item.status === 'COMPLETED')).toHaveLength(owned.stats.completedActionItems);
  }

  test('GET /api/calls lists only the caller\'s calls', async () => {
    const response = await as(intruder)('/api/calls');
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { callId: string }[] };
    expect(items.map((item) => item.callId).sort()).toEqual([...own.allCallIds].sort());

    const failedOnly = (await (await as(intruder)('/api/calls?status=FAILED')).json()) as { items: { callId: string }[] };
    expect(failedOnly.items.map((item) => item.callId)).toEqual([own.failedCallId]);
  });

  test('a page cursor of another user is refused, never continuing their list', async () => {
    const firstPage = (await (await as(owner)('/api/calls?limit=1')).json()) as { items: unknown[]; nextCursor?: string };
    expect(firstPage.nextCursor).toBeDefined();
    const response = await as(intruder)(`/api/calls?limit=1&cursor=${encodeURIComponent(firstPage.nextCursor!)}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_cursor');
  });

  test('GET /api/calls/status omits foreign ids', async () => {
    const ids = [...owned.allCallIds, ...own.allCallIds].join(',');
    const response = await as(intruder)(`/api/calls/status?ids=${ids}`);
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { callId: string }[] };
    expect(items.map((item) => item.callId)).toEqual(own.allCallIds);

    const foreignOnly = (await (await as(intruder)(`/api/calls/status?ids=${owned.allCallIds.join(',')}`)).json()) as { items: unknown[] };
    expect(foreignOnly.items).toEqual([]);
  });

  test('GET /api/calls/{id}, /transcript and /analysis answer 404 call_not_found for foreign calls, completed or failed', async () => {
    for (const callId of owned.allCallIds) {
      for (const suffix of ['', '/transcript', '/analysis']) {
        await expectNotFound(await as(intruder)(`/api/calls/${callId}${suffix}`), 'call_not_found');
        // Upper-case spelling of the same id is no way around it.
        await expectNotFound(await as(intruder)(`/api/calls/${callId.toUpperCase()}${suffix}`), 'call_not_found');
      }
    }
    // The caller's own failed call is found, and only its artifacts are refused.
    expect((await as(intruder)(`/api/calls/${own.failedCallId}`)).status).toBe(200);
    expect((await as(intruder)(`/api/calls/${own.failedCallId}/transcript`)).status).toBe(422);
  });

  test('GET /api/actions lists only the caller\'s items', async () => {
    const items = (await (await as(intruder)('/api/actions')).json()) as ActionItem[];
    expect(items.map((item) => item.id).sort()).toEqual([...own.actionItemIds].sort());
    for (const item of items) expect(own.completedCallIds).toContain(item.callRecordId);
  });

  test('PATCH /api/actions/{id} answers 404 action_item_not_found for foreign items and changes nothing', async () => {
    for (const itemId of owned.actionItemIds) {
      for (const status of ['COMPLETED', 'PENDING']) {
        await expectNotFound(await as(intruder)(`/api/actions/${itemId}`, {
          method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status }),
        }), 'action_item_not_found');
      }
    }
    await expectOwnerDataIntact();
  });

  test('GET and PATCH /api/users/me touch only the caller\'s own profile', async () => {
    const ownerBefore = (await (await as(owner)('/api/users/me')).json()) as { id: string; externalUserId: string };
    const intruderProfile = (await (await as(intruder)('/api/users/me')).json()) as { id: string; externalUserId: string };
    expect(intruderProfile.id).not.toBe(ownerBefore.id);
    expect(intruderProfile.externalUserId).toBe(`local:${intruder}`);

    const patched = await as(intruder)('/api/users/me', {
      method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: `Renamed by ${intruder}` }),
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { id: string }).id).toBe(intruderProfile.id);
    const ownerAfter = (await (await as(owner)('/api/users/me')).json()) as { displayName?: string };
    expect(ownerAfter).toEqual(ownerBefore);
  });

  test('GET /api/users/me/stats counts only the caller\'s calls and items', async () => {
    const stats = (await (await as(intruder)('/api/users/me/stats')).json()) as Record<string, number>;
    expect(stats).toMatchObject(own.stats);
    expect(stats.callsThisWeek).toBe(own.stats.totalCalls);
  });

  test('DELETE /api/calls/{id} answers 404 call_not_found for foreign calls and deletes nothing', async () => {
    for (const callId of owned.allCallIds) {
      await expectNotFound(await as(intruder)(`/api/calls/${callId}`, { method: 'DELETE' }), 'call_not_found');
    }
    await expectOwnerDataIntact();
  });

  test('DELETE /api/calls counts foreign ids as missing and deletes only the caller\'s own', async () => {
    const response = await as(intruder)('/api/calls', {
      method: 'DELETE', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callIds: [...owned.allCallIds, own.failedCallId] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 1, missing: owned.allCallIds.length, failed: [] });
    expect((await as(intruder)(`/api/calls/${own.failedCallId}`)).status).toBe(404);
    await expectOwnerDataIntact();
  });
});
