import { afterAll, beforeAll, expect, test } from 'vitest';
import { requestFingerprint } from '../../src/http/idempotency.js';
import { errorOf } from '../helpers/callInspection.js';
import { seedCall, seedUser } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp({ IDEMPOTENCY_WAIT_MS: '300' }); });
afterAll(async () => { await testApp.close(); });

/** Marks a key as held by a request still running, as a concurrent first request would. */
async function pendingPatch(user: string, key: string): Promise<{ itemId: string; userId: string }> {
  const callId = await seedCall(testApp.services, user);
  const itemId = (await testApp.services.actionItems.listForCall(callId))[0]!.id;
  const userId = (await seedUser(testApp.services, user)).id;
  const fingerprint = requestFingerprint(['PATCH', '/api/actions/:id', { id: itemId }, {}, { status: 'COMPLETED' }]);
  expect((await testApp.services.idempotency.claim(userId, key, fingerprint, Date.now())).claimed).toBe(true);
  return { itemId, userId };
}

const patch = (user: string, itemId: string, key: string) => testApp.as(user)(`/api/actions/${itemId}`, {
  method: 'PATCH', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ status: 'COMPLETED' }),
});

test('a repeat of a request still running waits, then answers 409 idempotency_key_in_progress', async () => {
  const { itemId } = await pendingPatch('waiter', 'key-still-running-1');
  const response = await patch('waiter', itemId, 'key-still-running-1');
  expect(response.status).toBe(409);
  expect((await errorOf(response)).code).toBe('idempotency_key_in_progress');
  // The repeat changed nothing: the first request owns the change.
  const waiter = await testApp.services.users.findOrCreate({ externalUserId: 'local:waiter' }, Date.now());
  expect((await testApp.services.actionItems.listForUser(waiter.id)).find((item) => item.id === itemId)?.status).toBe('PENDING');
});

test('a repeat that arrives while the first request runs gets the first one\'s answer once it finishes', async () => {
  const { itemId, userId } = await pendingPatch('replayer', 'key-finishing-soon');
  const repeat = patch('replayer', itemId, 'key-finishing-soon');
  // The first request finishes 100 ms later; awaited below so that a failure to complete it fails the test.
  const firstFinishes = new Promise((resolve) => { setTimeout(resolve, 100); })
    .then(() => testApp.services.idempotency.complete(userId, 'key-finishing-soon', { statusCode: 200, body: '{"first":true}' }));
  const [response] = await Promise.all([repeat, firstFinishes]);
  expect(response.status).toBe(200);
  expect(response.headers.get('idempotent-replayed')).toBe('true');
  expect(await response.json()).toEqual({ first: true });
});
