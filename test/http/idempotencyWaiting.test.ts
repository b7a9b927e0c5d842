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
  const itemId = testApp.services.actionItems.listForCall(callId)[0]!.id;
  const userId = seedUser(testApp.services, user).id;
  const fingerprint = requestFingerprint(['PATCH', '/api/actions/:id', { id: itemId }, {}, { status: 'COMPLETED' }]);
  expect(testApp.services.idempotency.claim(userId, key, fingerprint, Date.now()).claimed).toBe(true);
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
  expect(testApp.services.actionItems.listForUser(testApp.services.users.findOrCreate({ externalUserId: 'local:waiter' }, Date.now()).id)
    .find((item) => item.id === itemId)?.status).toBe('PENDING');
});

test('a repeat that arrives while the first request runs gets the first one\'s answer once it finishes', async () => {
  const { itemId, userId } = await pendingPatch('replayer', 'key-finishing-soon');
  const repeat = patch('replayer', itemId, 'key-finishing-soon');
  setTimeout(() => testApp.services.idempotency.complete(userId, 'key-finishing-soon', { statusCode: 200, body: '{"first":true}' }), 100);
  const response = await repeat;
  expect(response.status).toBe(200);
  expect(response.headers.get('idempotent-replayed')).toBe('true');
  expect(await response.json()).toEqual({ first: true });
});
