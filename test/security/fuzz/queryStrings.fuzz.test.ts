import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { authHeaders, describeRequest, expectSafeAnswer, fuzzRuns, fuzzUser, headerValue, idLike, queryValue } from './fuzzSupport.js';

const callStatusWords = ['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'COMPLETED', 'FAILED', 'PROCESSING'];

/** Values worth trying in any query parameter. */
const anyValue: fc.Arbitrary<string> = fc.oneof(
  idLike,
  headerValue(60),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('', ' ', '1e2', '0x10', '1.5', '-0', 'Infinity', 'NaN', 'true', '100', '101', '0', '1', '50 ', '+5', '٣'),
  fc.array(fc.constantFrom(...callStatusWords, 'completed', '', ' ', 'NOPE'), { maxLength: 6 }).map((words) => words.join(',')),
);

/** One `key=value` pair, encoded or raw. */
const pair = (keys: fc.Arbitrary<string>) =>
  fc.tuple(keys, anyValue, fc.boolean()).map(([key, value, encode]) => `${queryValue(key, true)}=${queryValue(value, encode)}`);

/** A query string: known keys (possibly repeated), unknown keys, bare keys and stray separators. */
const queryOf = (known: string[]) =>
  fc.array(
    fc.oneof(
      { weight: 6, arbitrary: pair(fc.constantFrom(...known)) },
      { weight: 1, arbitrary: pair(fc.string({ maxLength: 10 })) },
      { weight: 1, arbitrary: fc.constantFrom(...known, '', '&', '=', '==', '[]', 'limit[]=1', 'status[a]=b', '__proto__[x]=1', 'constructor[prototype][x]=1') },
    ),
    { maxLength: 5 },
  ).map((pairs) => pairs.join('&'));

/**
 * Property 2: arbitrary query strings on the list and status endpoints answer below 500 with
 * the envelope on every refusal.
 */
describe('fuzz: query strings', () => {
  let testApp: TestApp;
  let realCursor = '';
  const seededIds: string[] = [];

  beforeAll(async () => {
    testApp = await startTestApp();
    for (const status of ['COMPLETED', 'QUEUED', 'FAILED'] as const) seededIds.push(await seedCall(testApp.services, fuzzUser, { status }));
    const firstPage = await testApp.app.inject({ method: 'GET', url: '/api/calls?limit=1', headers: authHeaders });
    realCursor = (firstPage.json() as { nextCursor: string }).nextCursor;
    expect(realCursor).toBeTypeOf('string');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function check(path: string, query: string): Promise<void> {
    const url = query ? `${path}?${query}` : path;
    const response = await testApp.app.inject({ method: 'GET', url, headers: authHeaders });
    expectSafeAnswer(response, describeRequest('GET', url));
  }

  test('GET /api/calls?limit=…&cursor=…&status=…', async () => {
    await fc.assert(fc.asyncProperty(queryOf(['limit', 'cursor', 'status']), (query) => check('/api/calls', query)), fuzzRuns(0x2a1, 150));
  });

  test('GET /api/calls with a tampered real cursor', async () => {
    const tampered = fc.oneof(
      fc.nat({ max: realCursor.length - 1 }).map((cut) => realCursor.slice(0, cut)),
      fc.tuple(fc.nat({ max: realCursor.length - 1 }), fc.constantFrom(...'AZaz09-_+/=.%'.split(''))).map(([at, char]) => realCursor.slice(0, at) + char + realCursor.slice(at + 1)),
      fc.string({ maxLength: 20 }).map((tail) => realCursor + tail),
      fc.constant(realCursor.split('').reverse().join('')),
    );
    await fc.assert(
      fc.asyncProperty(tampered, fc.option(fc.constantFrom('COMPLETED', 'FAILED', 'QUEUED,FAILED'), { nil: undefined }), fc.option(fc.integer({ min: -5, max: 200 }), { nil: undefined }), async (cursor, status, limit) => {
        const query = [`cursor=${encodeURIComponent(cursor)}`, ...(status ? [`status=${status}`] : []), ...(limit !== undefined ? [`limit=${limit}`] : [])].join('&');
        await check('/api/calls', query);
      }),
      fuzzRuns(0x2a2, 100),
    );
  });

  test('GET /api/calls/status?ids=…', async () => {
    const idsValue = fc.oneof(
      anyValue,
      fc.array(fc.oneof(idLike, fc.constantFrom(...seededIds), fc.uuid()), { maxLength: 8 }).map((ids) => ids.join(',')),
      fc.integer({ min: 95, max: 140 }).chain((n) => fc.array(fc.uuid(), { minLength: n, maxLength: n })).map((ids) => ids.join(',')),
      fc.constantFrom(',', ',,,', ' , ', `${seededIds[0]},,${seededIds[1]}`),
    );
    const query = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(idsValue, fc.boolean()).map(([value, encode]) => `ids=${queryValue(value, encode)}`) },
      { weight: 1, arbitrary: queryOf(['ids']) },
    );
    await fc.assert(fc.asyncProperty(query, (q) => check('/api/calls/status', q)), fuzzRuns(0x2a3, 150));
  });

  test('GET /api/actions?status=…', async () => {
    await fc.assert(fc.asyncProperty(queryOf(['status']), (query) => check('/api/actions', query)), fuzzRuns(0x2a4, 100));
  });
});
