import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Services } from '../../src/createServices.js';
import type { UserRepository } from '../../src/domain/users/UserRepository.js';
import { errorEnvelope, type ErrorCode } from '../../src/http/errors.js';
import { wavFile } from '../helpers/audioFixtures.js';
import { createCredentialAudit, type CredentialAudit } from '../helpers/credentialAudit.js';
import { startOidcProvider, type OidcProvider } from '../helpers/oidcProvider.js';
import { seedCall, type SeedOptions } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';

/**
 * Authorisation matrix ("Proof under stress"): every endpoint of the interface specification,
 * plus the operational and admin probes, against five credential cases. One app: `API_KEY` set,
 * OIDC through a real loopback identity provider (signed ID tokens), local-user mode off.
 *
 * Cells run in three phases so that no cell disturbs another: reads and harmless updates first,
 * then deletions (whose successful case works on data seeded for that cell alone), then uploads
 * (which leave QUEUED calls behind that would block an account deletion).
 */

type CredentialCase = 'none' | 'badToken' | 'wrongKey' | 'otherUser' | 'owner';

const caseLabels: Record<CredentialCase, string> = {
  none: '(1) no credentials',
  badToken: '(2) tampered token + right key',
  wrongKey: '(3) owner token + wrong key',
  otherUser: '(4) other user token + right key',
  owner: '(5) owner token + right key',
};
const credentialCases = Object.keys(caseLabels) as CredentialCase[];

interface Context {
  testApp: TestApp;
  provider: OidcProvider;
  audit: CredentialAudit;
  apiKey: string;
  wrongApiKey: string;
  ownerSub: string;
  intruderSub: string;
  ownerToken: string;
  intruderToken: string;
  badToken: string;
  /** The owner's COMPLETED call (transcript, analysis, two action items). */
  ownerCallId: string;
  /** The owner's call still QUEUED (no transcript yet). */
  ownerQueuedCallId: string;
  ownerActionItemIds: string[];
}

/** What a cell sends. `ownerToken` replaces the owner's token (a cell that needs its own owner). */
interface Prepared {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  json?: unknown;
  form?: FormData;
  ownerToken?: string;
  /** Send through `app.inject` from this non-loopback address instead of over the loopback socket. */
  remoteAddress?: string;
  /** The call a cell seeded for its own use, for the check to look at. */
  seeded?: { callId: string };
}

interface Answer { status: number; body: unknown }

interface Expectation {
  status: number;
  /** For error answers: the envelope's code. */
  code?: ErrorCode;
  check?: (body: unknown, context: Context, prepared: Prepared) => void | Promise<void>;
}

interface Endpoint {
  name: string;
  /** 0: reads and harmless updates; 1: deletions; 2: uploads. */
  phase: 0 | 1 | 2;
  prepare(context: Context, credential: CredentialCase): Promise<Prepared> | Prepared;
  expected: Record<CredentialCase, Expectation>;
}

const authInvalid: Expectation = { status: 401, code: 'auth_invalid' };

/** The `/api` guard: cases 1 to 3 always get the same 401 `auth_invalid`. */
function guarded(otherUser: Expectation, owner: Expectation): Record<CredentialCase, Expectation> {
  return { none: authInvalid, badToken: authInvalid, wrongKey: authInvalid, otherUser, owner };
}

function everyCase(expectation: Expectation): Record<CredentialCase, Expectation> {
  return { none: expectation, badToken: expectation, wrongKey: expectation, otherUser: expectation, owner: expectation };
}

const featureOff: Expectation = { status: 404, code: 'feature_not_available' };
const callNotFound: Expectation = { status: 404, code: 'call_not_found' };

interface CallList { items: { callId: string }[] }
interface UserBody { id: string; externalUserId: string; displayName?: string }

/** A services view whose test seeding creates rows for the identity-provider subject `subject`. */
function servicesActingFor(services: Services, subject: string): Services {
  const users = Object.create(services.users) as UserRepository;
  users.findOrCreate = (_identity, now) => services.users.findOrCreate({ externalUserId: subject }, now);
  return { ...services, users };
}

function seedCallOf(context: Context, subject: string, options: SeedOptions = {}): Promise<string> {
  return seedCall(servicesActingFor(context.testApp.services, subject), 'unused', options);
}

/** A valid token whose signature has one character changed. */
function tamperSignature(token: string): string {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) throw new Error('not a compact JWS');
  const index = Math.floor(signature.length / 2);
  const replacement = signature[index] === 'A' ? 'B' : 'A';
  return `${header}.${payload}.${signature.slice(0, index)}${replacement}${signature.slice(index + 1)}`;
}

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/health',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/api/health' }),
    expected: everyCase({ status: 200, check: (body) => expect(typeof (body as { status: unknown }).status).toBe('string') }),
  },
  {
    name: 'GET /api/calls',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/api/calls' }),
    expected: guarded(
      { status: 200, check: (body) => expect((body as CallList).items).toEqual([]) },
      { status: 200, check: (body, context) => expect((body as CallList).items.map((item) => item.callId).sort()).toEqual([context.ownerCallId, context.ownerQueuedCallId].sort()) },
    ),
  },
  {
    name: 'GET /api/calls/status?ids=…',
    phase: 0,
    prepare: (context) => ({ method: 'GET', path: `/api/calls/status?ids=${context.ownerCallId},${context.ownerQueuedCallId}` }),
    expected: guarded(
      { status: 200, check: (body) => expect((body as CallList).items).toEqual([]) },
      { status: 200, check: (body, context) => expect((body as CallList).items.map((item) => item.callId).sort()).toEqual([context.ownerCallId, context.ownerQueuedCallId].sort()) },
    ),
  },
  {
    name: 'GET /api/calls/{id}',
    phase: 0,
    prepare: (context) => ({ method: 'GET', path: `/api/calls/${context.ownerCallId}` }),
    expected: guarded(callNotFound, { status: 200, check: (body, context) => expect(body).toMatchObject({ callId: context.ownerCallId, status: 'COMPLETED' }) }),
  },
  {
    name: 'GET /api/calls/{id}/transcript',
    phase: 0,
    prepare: (context) => ({ method: 'GET', path: `/api/calls/${context.ownerCallId}/transcript` }),
    expected: guarded(callNotFound, { status: 200, check: (body, context) => expect(body).toMatchObject({ callId: context.ownerCallId, schemaVersion: 2 }) }),
  },
  {
    name: 'GET /api/calls/{id}/transcript (call still QUEUED)',
    phase: 0,
    prepare: (context) => ({ method: 'GET', path: `/api/calls/${context.ownerQueuedCallId}/transcript` }),
    expected: guarded(callNotFound, { status: 422, code: 'call_not_completed' }),
  },
  {
    name: 'GET /api/calls/{id}/analysis',
    phase: 0,
    prepare: (context) => ({ method: 'GET', path: `/api/calls/${context.ownerCallId}/analysis` }),
    expected: guarded(callNotFound, { status: 200, check: (body) => expect(body).toMatchObject({ schemaVersion: 2, suggestedTitle: 'Contract follow-up' }) }),
  },
  {
    name: 'GET /api/actions',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/api/actions' }),
    expected: guarded(
      { status: 200, check: (body) => expect(body).toEqual([]) },
      { status: 200, check: (body, context) => expect((body as { id: string }[]).map((item) => item.id).sort()).toEqual([...context.ownerActionItemIds].sort()) },
    ),
  },
  {
    name: 'PATCH /api/actions/{id}',
    phase: 0,
    prepare: (context) => ({ method: 'PATCH', path: `/api/actions/${context.ownerActionItemIds[0]}`, json: { status: 'COMPLETED' } }),
    expected: guarded(
      { status: 404, code: 'action_item_not_found' },
      { status: 200, check: (body, context) => expect(body).toMatchObject({ id: context.ownerActionItemIds[0], status: 'COMPLETED' }) },
    ),
  },
  {
    name: 'GET /api/users/me',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/api/users/me' }),
    expected: guarded(
      { status: 200, check: (body, context) => expect((body as UserBody).externalUserId).toBe(context.intruderSub) },
      { status: 200, check: (body, context) => expect((body as UserBody).externalUserId).toBe(context.ownerSub) },
    ),
  },
  {
    name: 'PATCH /api/users/me',
    phase: 0,
    prepare: (_context, credential) => ({ method: 'PATCH', path: '/api/users/me', json: { displayName: `Renamed by ${credential}` } }),
    expected: guarded(
      { status: 200, check: (body, context) => expect(body).toMatchObject({ externalUserId: context.intruderSub, displayName: 'Renamed by otherUser' }) },
      { status: 200, check: (body, context) => expect(body).toMatchObject({ externalUserId: context.ownerSub, displayName: 'Renamed by owner' }) },
    ),
  },
  {
    name: 'GET /api/users/me/stats',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/api/users/me/stats' }),
    expected: guarded(
      { status: 200, check: (body) => expect(body).toMatchObject({ totalCalls: 0 }) },
      { status: 200, check: (body) => expect(body).toMatchObject({ totalCalls: 2 }) },
    ),
  },
  {
    name: 'POST /api/users/me/voice-profile',
    phase: 0,
    prepare: () => {
      const form = new FormData();
      form.append('consentAccepted', 'true');
      form.append('file', new Blob([new Uint8Array(wavFile(0.2))]), 'sample.wav');
      return { method: 'POST', path: '/api/users/me/voice-profile', form };
    },
    expected: guarded(featureOff, featureOff),
  },
  {
    name: 'GET /api/users/me/voice-profile/status',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/api/users/me/voice-profile/status' }),
    expected: guarded(featureOff, featureOff),
  },
  {
    name: 'DELETE /api/users/me/voice-profile',
    phase: 0,
    prepare: () => ({ method: 'DELETE', path: '/api/users/me/voice-profile' }),
    expected: guarded(featureOff, featureOff),
  },
  {
    name: 'GET /actuator/prometheus (loopback client)',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/actuator/prometheus' }),
    expected: everyCase({ status: 200, check: (body) => expect(body).toContain('callscope_http_requests_total') }),
  },
  {
    name: 'GET /actuator/prometheus (remote client, no METRICS_TOKEN)',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/actuator/prometheus', remoteAddress: '10.1.2.3' }),
    expected: everyCase(authInvalid),
  },
  {
    name: 'GET /admin/api/status (no admin session)',
    phase: 0,
    prepare: () => ({ method: 'GET', path: '/admin/api/status' }),
    expected: everyCase({ status: 401, code: 'admin_auth_required' }),
  },
  {
    name: 'DELETE /api/calls/{id}',
    phase: 1,
    // The owner deletes a call seeded for this cell; every other case aims at the owner's main call.
    prepare: async (context, credential) => {
      if (credential !== 'owner') return { method: 'DELETE', path: `/api/calls/${context.ownerCallId}` };
      const callId = await seedCallOf(context, context.ownerSub, { title: 'to be deleted' });
      return { method: 'DELETE', path: `/api/calls/${callId}`, seeded: { callId } };
    },
    expected: guarded(callNotFound, {
      status: 204,
      check: async (_body, context, prepared) => {
        const after = await context.audit.fetch(`/api/calls/${prepared.seeded!.callId}`, { authorization: `Bearer ${context.ownerToken}`, 'x-api-key': context.apiKey });
        expect(after.status).toBe(404);
      },
    }),
  },
  {
    name: 'DELETE /api/calls',
    phase: 1,
    prepare: async (context, credential) => {
      if (credential !== 'owner') return { method: 'DELETE', path: '/api/calls', json: { callIds: [context.ownerCallId, context.ownerQueuedCallId] } };
      const callId = await seedCallOf(context, context.ownerSub, { title: 'to be bulk-deleted' });
      return { method: 'DELETE', path: '/api/calls', json: { callIds: [callId] }, seeded: { callId } };
    },
    expected: guarded(
      { status: 200, check: (body) => expect(body).toEqual({ deleted: 0, missing: 2, failed: [] }) },
      { status: 200, check: (body) => expect(body).toEqual({ deleted: 1, missing: 0, failed: [] }) },
    ),
  },
  {
    name: 'DELETE /api/users/me',
    phase: 1,
    // Case 4 deletes the intruder's own (empty) account only. Case 5 uses an owner of its own,
    // with a seeded call, so the main owner's data stays for the final integrity check.
    prepare: async (context, credential) => {
      if (credential !== 'owner') return { method: 'DELETE', path: '/api/users/me' };
      const subject = `idp|departing-${randomUUID()}`;
      const callId = await seedCallOf(context, subject, { title: 'departing owner call' });
      return { method: 'DELETE', path: '/api/users/me', ownerToken: await context.provider.signIdToken({ sub: subject }), seeded: { callId } };
    },
    expected: guarded({ status: 204 }, {
      status: 204,
      check: async (_body, context, prepared) => {
        expect(await context.testApp.services.calls.existsEvenDeleting(prepared.seeded!.callId)).toBe(false);
        const after = await context.audit.fetch(`/api/calls/${prepared.seeded!.callId}`, { authorization: `Bearer ${prepared.ownerToken!}`, 'x-api-key': context.apiKey });
        expect(after.status).toBe(404);
      },
    }),
  },
  {
    name: 'POST /api/calls/analyze',
    phase: 2,
    prepare: () => ({ method: 'POST', path: '/api/calls/analyze', form: uploadForm(wavFile(0.2), 'call.wav') }),
    expected: guarded(
      { status: 202, check: (body) => expect(body).toMatchObject({ status: 'QUEUED' }) },
      {
        status: 202,
        check: async (body, context) => {
          const { callId } = body as { callId: string };
          const { services } = context.testApp;
          const owner = await services.users.findOrCreate({ externalUserId: context.ownerSub }, services.clock());
          expect((await services.calls.findOwned(owner.id, callId))?.status).toBe('QUEUED');
        },
      },
    ),
  },
];

interface Cell { name: string; endpoint: Endpoint; credential: CredentialCase; expected: Expectation }

const cells: Cell[] = endpoints
  .flatMap((endpoint) => credentialCases.map((credential) => {
    const expected = endpoint.expected[credential];
    return {
      name: `${endpoint.name} × ${caseLabels[credential]} → ${expected.status}${expected.code ? ` ${expected.code}` : ''}`,
      endpoint, credential, expected,
    };
  }))
  .sort((a, b) => a.endpoint.phase - b.endpoint.phase);

let context: Context;

beforeAll(async () => {
  const provider = await startOidcProvider();
  const apiKey = randomBytes(16).toString('hex');
  const testApp = await startTestApp({ ...provider.env('jwksUrl'), API_KEY: apiKey, LOCAL_AUTH: 'false' });
  const ownerSub = `idp|owner-${randomUUID()}`;
  const intruderSub = `idp|intruder-${randomUUID()}`;
  const ownerToken = await provider.signIdToken({ sub: ownerSub });
  const partial = {
    testApp, provider, audit: createCredentialAudit(testApp.baseUrl), apiKey,
    wrongApiKey: randomBytes(16).toString('hex'), ownerSub, intruderSub, ownerToken,
    intruderToken: await provider.signIdToken({ sub: intruderSub }), badToken: tamperSignature(ownerToken),
  };
  const seeding = { ...partial, ownerCallId: '', ownerQueuedCallId: '', ownerActionItemIds: [] } satisfies Context;
  const ownerCallId = await seedCallOf(seeding, ownerSub, { title: 'owner call' });
  const ownerQueuedCallId = await seedCallOf(seeding, ownerSub, { status: 'QUEUED', title: 'owner queued call' });
  context = {
    ...partial, ownerCallId, ownerQueuedCallId,
    ownerActionItemIds: (await testApp.services.actionItems.listForCall(ownerCallId)).map((item) => item.id),
  };
  expect(context.ownerActionItemIds).toHaveLength(2);
  expect(context.badToken).not.toBe(ownerToken);
});

afterAll(async () => {
  await context?.testApp.close();
  await context?.provider.close();
});

function credentialHeaders(credential: CredentialCase, prepared: Prepared): Record<string, string> {
  const ownerToken = prepared.ownerToken ?? context.ownerToken;
  switch (credential) {
    case 'none': return {};
    case 'badToken': return { authorization: `Bearer ${context.badToken}`, 'x-api-key': context.apiKey };
    case 'wrongKey': return { authorization: `Bearer ${ownerToken}`, 'x-api-key': context.wrongApiKey };
    case 'otherUser': return { authorization: `Bearer ${context.intruderToken}`, 'x-api-key': context.apiKey };
    case 'owner': return { authorization: `Bearer ${ownerToken}`, 'x-api-key': context.apiKey };
  }
}

async function send(prepared: Prepared, credential: CredentialCase): Promise<Answer> {
  const headers = credentialHeaders(credential, prepared);
  if (prepared.json !== undefined) headers['content-type'] = 'application/json';
  const body = prepared.form ?? (prepared.json !== undefined ? JSON.stringify(prepared.json) : undefined);
  if (prepared.remoteAddress) {
    for (const value of Object.values(headers)) context.audit.remember(value);
    const response = await context.testApp.app.inject({
      method: prepared.method, url: prepared.path, remoteAddress: prepared.remoteAddress, headers,
      ...(typeof body === 'string' ? { payload: body } : {}),
    });
    return { status: response.statusCode, body: parseBody(response.body, response.headers['content-type']) };
  }
  const response = await context.audit.fetch(prepared.path, headers, { method: prepared.method, ...(body !== undefined ? { body } : {}) });
  return { status: response.status, body: parseBody(await response.text(), response.headers.get('content-type') ?? undefined) };
}

function parseBody(text: string, contentType: string | number | string[] | undefined): unknown {
  if (text === '') return undefined;
  return String(contentType ?? '').includes('application/json') ? JSON.parse(text) as unknown : text;
}

/** `{error: {code, message, details?}}` and nothing else. */
function expectErrorEnvelope(body: unknown, code: ErrorCode): void {
  expect(body).toBeTypeOf('object');
  expect(Object.keys(body as object)).toEqual(['error']);
  const { error } = body as { error: Record<string, unknown> };
  expect(error.code).toBe(code);
  expect(error.message).toBeTypeOf('string');
  expect(Object.keys(error).every((key) => ['code', 'message', 'details'].includes(key))).toBe(true);
  if (error.details !== undefined) expect(error.details).toBeTypeOf('object');
}

describe(`authorisation matrix: ${endpoints.length} endpoints × ${credentialCases.length} credential cases`, () => {
  test.each(cells.map((cell) => [cell.name, cell] as const))('%s', async (_name, { endpoint, credential, expected }) => {
    const prepared = await endpoint.prepare(context, credential);
    const answer = await send(prepared, credential);
    expect(answer.status, JSON.stringify(answer.body)).toBe(expected.status);
    if (expected.code) {
      expectErrorEnvelope(answer.body, expected.code);
      // The /api guard's refusal is the same whichever check failed: nothing tells them apart.
      if (expected.code === 'auth_invalid' && prepared.path.startsWith('/api/')) expect(answer.body).toEqual(errorEnvelope('auth_invalid'));
    } else if (answer.status >= 400) {
      expect.fail(`unexpected error answer ${JSON.stringify(answer.body)}`);
    }
    if (expected.status === 204) expect(answer.body).toBeUndefined();
    await expected.check?.(answer.body, context, prepared);
  });
});

describe('after the whole matrix', () => {
  const asOwner = (path: string) => context.audit.fetch(path, { authorization: `Bearer ${context.ownerToken}`, 'x-api-key': context.apiKey });

  test('the owner\'s main data survived every refused and foreign request', async () => {
    for (const suffix of ['', '/transcript', '/analysis']) expect((await asOwner(`/api/calls/${context.ownerCallId}${suffix}`)).status).toBe(200);
    expect((await asOwner(`/api/calls/${context.ownerQueuedCallId}`)).status).toBe(200);
    const items = (await (await asOwner('/api/actions')).json()) as { id: string }[];
    expect(items.map((item) => item.id).sort()).toEqual([...context.ownerActionItemIds].sort());
    const me = (await (await asOwner('/api/users/me')).json()) as UserBody;
    expect(me).toMatchObject({ externalUserId: context.ownerSub, displayName: 'Renamed by owner' });
  });

  test('the server logs never contain a token or an API key that was sent', () => {
    for (const secret of [context.apiKey, context.wrongApiKey, context.ownerToken, context.intruderToken, context.badToken]) context.audit.remember(secret);
    // The audit is not vacuous: refusals were logged (at debug level) and requests were logged.
    expect(context.testApp.logLines.some((line) => line.msg === 'authentication refused')).toBe(true);
    expect(context.audit.leaksIn(context.testApp.logLines)).toEqual([]);
    const serialised = JSON.stringify(context.testApp.logLines);
    expect(serialised).not.toContain(context.apiKey);
    expect(serialised).not.toContain(context.wrongApiKey);
  });
});
