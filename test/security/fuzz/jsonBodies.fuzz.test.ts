import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allCallRows } from '../../helpers/callInspection.js';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { authHeaders, contentTypes, describeRequest, expectSafeAnswer, fuzzRuns, fuzzUser, idLike } from './fuzzSupport.js';

/** JSON text that tries to poison prototypes or otherwise trip a parser. */
const hostileJson = fc.constantFrom(
  '{"__proto__":{"displayName":"x"}}',
  '{"displayName":"x","__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"status":"COMPLETED","__proto__":{"status":"PENDING"}}',
  '{"callIds":["a"],"constructor":{"prototype":{"x":1}}}',
  '{"displayName":"a","displayName":"b"}',
  '{"displayName":"\\ud800"}',
  '{"displayName":"\\u0000"}',
  `{"displayName":${JSON.stringify('x'.repeat(101))}}`,
  `{"callIds":${JSON.stringify(Array.from({ length: 101 }, (_, i) => `id${i}`))}}`,
  '[]', '[{}]', 'null', 'true', '0', '""', '{', '}', '{"a":', '\uFEFF{}', ' ', '', '{"a":1}garbage', '1e999', '-', '{"status":NaN}',
  '['.repeat(2000) + ']'.repeat(2000),
  `{"a":${'{"a":'.repeat(500)}1${'}'.repeat(500)}}`,
);

/** A body of any shape for `field`: its right type, a wrong type, or a whole wrong document. */
function bodyFor(field: string, plausible: fc.Arbitrary<unknown>): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ [field]: fc.oneof(plausible, fc.anything()) }, { requiredKeys: [] }).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.tuple(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 }), plausible).map(([extra, value]) => JSON.stringify({ ...extra, [field]: value })) },
    { weight: 2, arbitrary: fc.json() },
    { weight: 2, arbitrary: fc.anything().map((value) => JSON.stringify(value) ?? '') },
    { weight: 2, arbitrary: hostileJson },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
}

/** Mostly JSON content types (so bodies reach validation), often something else. */
const bodyContentType = fc.oneof(
  { weight: 3, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: contentTypes },
);

/**
 * Property 3: arbitrary JSON (and non-JSON) bodies with arbitrary content types: below 500, the
 * envelope on every refusal, and a refused request changes nothing that is stored.
 */
describe('fuzz: JSON bodies', () => {
  let testApp: TestApp;
  let userId = '';
  let callId = '';
  let actionItemId = '';

  beforeAll(async () => {
    testApp = await startTestApp();
    userId = (await seedUser(testApp.services, fuzzUser)).id;
    await testApp.services.users.updateDisplayName(userId, 'Alice Original', testApp.services.clock());
    callId = await seedCall(testApp.services, fuzzUser);
    await seedCall(testApp.services, fuzzUser, { status: 'TRANSCRIBING' });
    actionItemId = (await testApp.services.actionItems.listForCall(callId))[0]!.id;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** Everything a refused body request could have changed. */
  async function storedState() {
    return {
      displayName: (await testApp.services.users.findById(userId))?.displayName,
      actionStatus: (await testApp.services.actionItems.findOwned(userId, actionItemId))?.status,
      calls: await allCallRows(testApp.services),
      actionItems: (await testApp.services.actionItems.listForUser(userId)).map((item) => `${item.id}:${item.status}:${item.updatedAt}`).join(','),
    };
  }

  /** Statuses seen by the current test: the generators must reach acceptance as well as refusal. */
  let seen = new Set<number>();
  function expectBothOutcomes(): void {
    expect([...seen].some((status) => status >= 200 && status < 300), `statuses seen: ${[...seen].join(',')}`).toBe(true);
    expect([...seen].some((status) => status >= 400), `statuses seen: ${[...seen].join(',')}`).toBe(true);
    seen = new Set();
  }

  async function sendBody(method: 'PATCH' | 'DELETE', url: string, payload: string | Buffer, contentType: string | undefined): Promise<void> {
    const before = await storedState();
    const response = await testApp.app.inject({
      method,
      url,
      headers: { ...authHeaders, ...(contentType !== undefined ? { 'content-type': contentType } : {}) },
      payload,
    });
    const request = describeRequest(method, url, { contentType, payload: Buffer.isBuffer(payload) ? `<${payload.length} bytes>` : payload });
    seen.add(response.statusCode);
    expectSafeAnswer(response, request);
    if (response.statusCode >= 400) expect(await storedState(), request).toEqual(before);
  }

  test('PATCH /api/users/me', async () => {
    const displayName = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('', ' ', '\t\n', 'x'.repeat(100), 'x'.repeat(101)));
    await fc.assert(
      fc.asyncProperty(bodyFor('displayName', displayName), bodyContentType, (body, type) => sendBody('PATCH', '/api/users/me', body, type)),
      fuzzRuns(0x3b1, 150),
    );
    expectBothOutcomes();
  });

  test('PATCH /api/actions/{seeded id}', async () => {
    const status = fc.oneof(fc.constantFrom('PENDING', 'COMPLETED', 'pending', 'DONE', '', null, 1, true, ['COMPLETED'], { status: 'COMPLETED' }), fc.string());
    await fc.assert(
      fc.asyncProperty(bodyFor('status', status), bodyContentType, (body, type) => sendBody('PATCH', `/api/actions/${actionItemId}`, body, type)),
      fuzzRuns(0x3b2, 150),
    );
    expectBothOutcomes();
  });

  test('DELETE /api/calls (bulk)', async () => {
    const callIds = fc.oneof(
      fc.array(fc.oneof(idLike, fc.uuid(), fc.anything()), { maxLength: 8 }),
      fc.array(fc.uuid(), { minLength: 99, maxLength: 110 }),
      fc.constantFrom([], null, '', 'abc', {}, [[]], [null], [1]),
    );
    await fc.assert(
      fc.asyncProperty(bodyFor('callIds', callIds), bodyContentType, (body, type) => sendBody('DELETE', '/api/calls', body, type)),
      fuzzRuns(0x3b3, 150),
    );
    expectBothOutcomes();
  });
});
