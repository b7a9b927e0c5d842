import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allCallRows } from '../../helpers/callInspection.js';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { authHeaders, describeRequest, expectSafeAnswer, fuzzRuns, fuzzUser, idLike, pathSegment, type InjectedResponse } from './fuzzSupport.js';

/** `routerOptions.maxParamLength` in src/app.ts: longer path parameters never reach a route. */
const maxParamLength = 200;

/** find-my-way refuses a parameter whose percent-escapes do not decode (e.g. `%ZZ`, `%c0%af`, a lone `%`). */
function decodesCleanly(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** What passes the router's own checks (length, escapes) and reaches a route handler. */
function reachesTheRouter(segment: string): boolean {
  return segment.length <= maxParamLength && decodesCleanly(segment);
}

/**
 * Property 1: whatever sits where an id belongs in a path, the answer is below 500 and every
 * refusal is the error envelope; a refused DELETE or PATCH removes nothing.
 */
describe('fuzz: path parameters', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
    await seedCall(testApp.services, fuzzUser);
    await seedCall(testApp.services, fuzzUser, { status: 'QUEUED' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const routes = [
    { method: 'GET', path: (id: string) => `/api/calls/${id}` },
    { method: 'GET', path: (id: string) => `/api/calls/${id}/transcript` },
    { method: 'GET', path: (id: string) => `/api/calls/${id}/analysis` },
    { method: 'PATCH', path: (id: string) => `/api/actions/${id}`, body: { status: 'COMPLETED' } },
    { method: 'DELETE', path: (id: string) => `/api/calls/${id}` },
  ] as const;
  type Route = (typeof routes)[number];

  async function actionItemsOfAlice(): Promise<string> {
    const alice = await seedUser(testApp.services, fuzzUser);
    return (await testApp.services.actionItems.listForUser(alice.id)).map((item) => `${item.id}:${item.status}:${item.updatedAt}`).join(',');
  }

  async function send(route: Route, segment: string): Promise<{ response: InjectedResponse; request: string }> {
    const url = route.path(segment);
    const response = await testApp.app.inject({
      method: route.method,
      url,
      headers: { ...authHeaders, ...('body' in route ? { 'content-type': 'application/json' } : {}) },
      ...('body' in route ? { payload: JSON.stringify(route.body) } : {}),
    });
    return { response, request: describeRequest(route.method, url) };
  }

  const segments = fc.tuple(idLike, fc.boolean()).map(([id, encode]) => pathSegment(id, encode));

  test('ids the router accepts: below 500, the envelope on every refusal, nothing deleted or changed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), segments.filter(reachesTheRouter), async (route, segment) => {
        const callsBefore = await allCallRows(testApp.services);
        const actionsBefore = await actionItemsOfAlice();
        const { response, request } = await send(route, segment);
        expectSafeAnswer(response, request);
        if (response.statusCode >= 400) {
          expect(await allCallRows(testApp.services), request).toBe(callsBefore);
          expect(await actionItemsOfAlice(), request).toBe(actionsBefore);
        }
      }),
      fuzzRuns(0x1d5, 150),
    );
  });

  test('any id at all, including over-long and badly escaped ones: the envelope on every refusal, nothing deleted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), segments, async (route, segment) => {
        const callsBefore = await allCallRows(testApp.services);
        const { response, request } = await send(route, segment);
        expectSafeAnswer(response, request);
        if (response.statusCode >= 400) expect(await allCallRows(testApp.services), request).toBe(callsBefore);
      }),
      fuzzRuns(0x1d6, 100),
    );
  });

  // Found by this file: Fastify's router answered these itself (414 FST_ERR_MAX_PARAM_LENGTH)
  // until buildApp set `frameworkErrors`. Counterexample: GET /api/calls/aaaa…a (201 × "a").
  test('an over-long path parameter is answered with the error envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.integer({ min: maxParamLength + 1, max: 5000 }), async (route, length) => {
        const { response, request } = await send(route, 'a'.repeat(length));
        expectSafeAnswer(response, request);
      }),
      fuzzRuns(0x1d7, 20),
    );
  });

  // Same cause, for percent-escapes that do not decode (400 FST_ERR_BAD_URL). Counterexample: GET /api/calls/%ZZ.
  test('a badly percent-escaped path parameter is answered with the error envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom('%', '%ZZ', '%c0%af', '%E0%A4%A', 'abc%'), async (route, segment) => {
        const { response, request } = await send(route, segment);
        expectSafeAnswer(response, request);
      }),
      fuzzRuns(0x1d8, 20),
    );
  });
});
