import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allCallRows } from '../../helpers/callInspection.js';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { contentTypes, describeRequest, expectSafeAnswer, fuzzRuns, fuzzUser, headerValue } from './fuzzSupport.js';

/** Idempotency keys: valid ones (so replays and conflicts happen), near misses and junk. */
const idempotencyKey = fc.oneof(
  fc.constantFrom('fuzz-key-0001', 'fuzz-key-0002'),
  fc.string({ unit: fc.constantFrom(...'Aa09._:-'.split('')), minLength: 8, maxLength: 128 }),
  fc.string({ unit: fc.constantFrom(...'Aa09._:-'.split('')), minLength: 0, maxLength: 7 }),
  fc.integer({ min: 129, max: 4000 }).map((n) => 'k'.repeat(n)),
  headerValue(150),
);

/** Local user ids: the real one, other valid ones, wrong characters and lengths. */
const localUserId = fc.oneof(
  fc.constant(fuzzUser),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019._@-'.split('')), minLength: 1, maxLength: 128 }),
  fc.integer({ min: 129, max: 5000 }).map((n) => 'u'.repeat(n)),
  fc.constantFrom('', ' ', 'alice ', ' alice', 'alice:bob', 'alice/..', 'local:alice', 'a,b', 'a;b', 'ali ce', '../../etc/passwd'),
  headerValue(150),
);

/** Authorization values: junk, near-Bearer shapes, fake JWTs. */
const authorization = fc.oneof(
  headerValue(300),
  fc.constantFrom('', 'Bearer', 'Bearer ', 'bearer x', 'Basic YWxpY2U6cGFzcw==', 'Bearer a b', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.', 'Bearer ' + 'x'.repeat(8000)),
  fc.tuple(fc.base64String({ maxLength: 60 }), fc.base64String({ maxLength: 200 }), fc.base64String({ maxLength: 60 })).map(([a, b, c]) => `Bearer ${a}.${b}.${c}`),
);

interface Target {
  method: 'GET' | 'PATCH' | 'DELETE';
  url: string;
  body?: string;
}

/**
 * Property 4: arbitrary `Idempotency-Key`, `X-Local-User-Id`, `Authorization` and
 * `Content-Type` headers (each present or absent) answer below 500 with the envelope on every
 * refusal, and a refused request leaves alice's stored state alone.
 */
describe('fuzz: headers', () => {
  let testApp: TestApp;
  let userId = '';
  let actionItemId = '';
  const targets: Target[] = [];

  beforeAll(async () => {
    testApp = await startTestApp();
    userId = (await seedUser(testApp.services, fuzzUser)).id;
    await testApp.services.users.updateDisplayName(userId, 'Alice Original', testApp.services.clock());
    const callId = await seedCall(testApp.services, fuzzUser);
    actionItemId = (await testApp.services.actionItems.listForCall(callId))[0]!.id;
    targets.push(
      { method: 'GET', url: '/api/calls' },
      { method: 'GET', url: '/api/users/me' },
      { method: 'GET', url: `/api/calls/${callId}` },
      { method: 'GET', url: '/api/actions?status=PENDING' },
      { method: 'PATCH', url: '/api/users/me', body: JSON.stringify({ displayName: 'Fuzzed Name' }) },
      { method: 'PATCH', url: `/api/actions/${actionItemId}`, body: JSON.stringify({ status: 'COMPLETED' }) },
      { method: 'PATCH', url: `/api/actions/${actionItemId}`, body: JSON.stringify({ status: 'PENDING' }) },
      { method: 'DELETE', url: '/api/calls', body: JSON.stringify({ callIds: ['00000000-0000-4000-8000-000000000000'] }) },
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function aliceState() {
    return {
      displayName: (await testApp.services.users.findById(userId))?.displayName,
      actionStatus: (await testApp.services.actionItems.findOwned(userId, actionItemId))?.status,
      calls: await allCallRows(testApp.services),
    };
  }

  test('Idempotency-Key, X-Local-User-Id, Authorization and Content-Type junk', async () => {
    const headers = fc.record({
      'idempotency-key': idempotencyKey,
      'x-local-user-id': localUserId,
      authorization,
      'content-type': contentTypes.filter((value): value is string => value !== undefined),
    }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 7 }), headers, fc.boolean(), async (targetIndex, fuzzed, keepJsonType) => {
        const target = targets[targetIndex]!;
        const sent: Record<string, string> = { ...(target.body && keepJsonType ? { 'content-type': 'application/json' } : {}) };
        for (const [name, value] of Object.entries(fuzzed)) if (value !== undefined) sent[name] = value;
        const before = await aliceState();
        const response = await testApp.app.inject({ method: target.method, url: target.url, headers: sent, ...(target.body ? { payload: target.body } : {}) });
        const request = describeRequest(target.method, target.url, { headers: sent, body: target.body });
        expectSafeAnswer(response, request);
        if (response.statusCode >= 400) expect(await aliceState(), request).toEqual(before);
      }),
      fuzzRuns(0x4c1, 200),
    );
  });

  test('X-Local-User-Id that breaks the pattern is always 401 auth_invalid', async () => {
    const malformed = fc.oneof(localUserId, headerValue(60)).filter((value) => !/^[A-Za-z0-9._@-]{1,128}$/.test(value));
    await fc.assert(
      fc.asyncProperty(malformed, async (value) => {
        const response = await testApp.app.inject({ method: 'GET', url: '/api/users/me', headers: { 'x-local-user-id': value } });
        const error = expectSafeAnswer(response, describeRequest('GET', '/api/users/me', { 'x-local-user-id': value }));
        expect(error?.code).toBe('auth_invalid');
      }),
      fuzzRuns(0x4c2, 100),
    );
  });
});
