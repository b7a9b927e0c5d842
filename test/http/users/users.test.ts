import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import type { UserStats } from '../../../src/domain/users/computeUserStats.js';

interface User {
  id: string;
  externalUserId: string;
  email?: string;
  displayName?: string;
  createdAt: string;
  updatedAt: string;
}

type Stats = UserStats;

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const dayMs = 24 * 3600 * 1000;

/** Monday 00:00 UTC of the ISO week containing `now`. */
function startOfThisIsoWeekUtc(now: number): number {
  const date = new Date(now);
  const daysSinceMonday = (date.getUTCDay() + 6) % 7;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - daysSinceMonday);
}

const utcDate = (milliseconds: number) => new Date(milliseconds).toISOString().slice(0, 10);

let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

function patchMe(user: string, body: unknown): Promise<Response> {
  return testApp.as(user)('/api/users/me', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function getJson<T>(user: string, path: string): Promise<T> {
  const response = await testApp.as(user)(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function countRows(table: string, column: string, values: readonly string[]): Promise<number> {
  if (values.length === 0) return 0;
  const list = sql.join(values.map((value) => sql`${value}`), sql`, `);
  const row = await testApp.services.database.sql.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} IN (${list})`);
  return row?.n ?? 0;
}

const callFolder = (callId: string) => join(testApp.dataDir, 'objects', 'calls', callId);

describe('GET /api/users/me', () => {
  test('the first request of a new identity creates its user row', async () => {
    expect(await countRows('users', 'external_user_id', ['local:erin'])).toBe(0);
    const user = await getJson<User>('erin', '/api/users/me');
    expect(user.id).toMatch(uuidV4);
    expect(user.externalUserId).toBe('local:erin');
    expect(user.createdAt).toMatch(isoTimestamp);
    expect(user.updatedAt).toMatch(isoTimestamp);
    expect(user).not.toHaveProperty('displayName');
    expect(await countRows('users', 'external_user_id', ['local:erin'])).toBe(1);

    const again = await getJson<User>('erin', '/api/users/me');
    expect(again).toEqual(user);
    expect(await countRows('users', 'external_user_id', ['local:erin'])).toBe(1);
  });
});

describe('PATCH /api/users/me', () => {
  test('sets the display name, trimmed, and answers the updated user', async () => {
    const before = await getJson<User>('fiona', '/api/users/me');
    const response = await patchMe('fiona', { displayName: '  Fiona Gallagher \t' });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as User;
    expect(updated).toMatchObject({ id: before.id, externalUserId: 'local:fiona', displayName: 'Fiona Gallagher', createdAt: before.createdAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    expect((await getJson<User>('fiona', '/api/users/me')).displayName).toBe('Fiona Gallagher');
  });

  test('accepts a name of exactly 100 characters', async () => {
    const name = 'n'.repeat(100);
    const response = await patchMe('gus', { displayName: name });
    expect(response.status).toBe(200);
    expect(((await response.json()) as User).displayName).toBe(name);
  });

  test('refuses empty, blank, over-long, non-string names and extra fields with 400, keeping the old name', async () => {
    expect((await patchMe('hank', { displayName: 'Hank' })).status).toBe(200);
    const invalidBodies = [
      // JSON bodies are validated exactly: a number is not quietly turned into "42".
      { displayName: 42 },
      { displayName: true },
      { displayName: '' },
      { displayName: '   ' },
      { displayName: 'x'.repeat(101) },
      { displayName: 'Hank', email: 'hank@example.com' },
      { displayName: 'Hank', externalUserId: 'local:someone-else' },
      {},
    ];
    for (const body of invalidBodies) {
      const response = await patchMe('hank', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    }
    const user = await getJson<User>('hank', '/api/users/me');
    expect(user.displayName).toBe('Hank');
    expect(user.externalUserId).toBe('local:hank');
  });
});

describe('GET /api/users/me/stats', () => {
  test('a user with no calls has every figure at 0', async () => {
    expect(await getJson<Stats>('iris', '/api/users/me/stats')).toEqual({
      totalCalls: 0, callsThisWeek: 0, openActionItems: 0, overdueActionItems: 0, completedActionItems: 0, averageCallDurationSeconds: 0,
    });
  });

  test('counts calls of this ISO week, open, overdue and completed items, and the mean known duration', async () => {
    const { services } = testApp;
    const now = Date.now();
    const weekStart = startOfThisIsoWeekUtc(now);
    const today = utcDate(now);
    const yesterday = utcDate(now - dayMs);
    const tomorrow = utcDate(now + dayMs);

    await seedCall(services, 'jack', {
      durationSeconds: 10,
      actionItems: [
        { title: 'Overdue', dueDate: yesterday },
        { title: 'Due today', dueDate: today },
        { title: 'Due tomorrow', dueDate: tomorrow },
      ],
    });
    // Created at the very start of the week: counts as this week.
    await seedCall(services, 'jack', {
      createdAt: weekStart,
      durationSeconds: 20,
      actionItems: [
        { title: 'Done though past due', dueDate: yesterday, status: 'COMPLETED' },
        { title: 'No due date', dueDate: null },
      ],
    });
    // One millisecond before Monday 00:00 UTC: last week.
    await seedCall(services, 'jack', {
      createdAt: weekStart - 1,
      durationSeconds: 31,
      actionItems: [{ title: 'Done last week', status: 'COMPLETED' }],
    });
    const failedCallId = await seedCall(services, 'jack', { status: 'FAILED' });
    const queuedCallId = await seedCall(services, 'jack', { status: 'QUEUED' });
    // Unknown durations are left out of the mean, not counted as zero.
    await services.calls.update(failedCallId, { durationSeconds: null });
    await services.calls.update(queuedCallId, { durationSeconds: null });

    expect(await getJson<Stats>('jack', '/api/users/me/stats')).toEqual({
      totalCalls: 5,
      callsThisWeek: 4,
      openActionItems: 4,
      overdueActionItems: 1,
      completedActionItems: 2,
      averageCallDurationSeconds: 20.3, // (10 + 20 + 31) / 3, one decimal
    });
  });
});

describe('DELETE /api/users/me', () => {
  /** Rows of the user left in every table that holds user data. */
  async function remainingRows(userId: string, callIds: readonly string[]) {
    return {
      users: await countRows('users', 'id', [userId]),
      calls: await countRows('calls', 'user_id', [userId]) + await countRows('calls', 'id', callIds),
      actionItems: await countRows('action_items', 'user_id', [userId]) + await countRows('action_items', 'call_id', callIds),
      processingEvents: await countRows('processing_events', 'call_id', callIds),
      idempotencyRecords: await countRows('idempotency_records', 'user_id', [userId]),
      callArtifacts: await countRows('call_artifacts', 'call_id', callIds),
    };
  }

  async function recordProcessingEvent(callId: string): Promise<void> {
    await testApp.services.database.sql.run(sql`INSERT INTO processing_events (call_id, stage, outcome, started_at, ended_at, duration_ms)
      VALUES (${callId}, 'transcription', 'SUCCEEDED', ${Date.now() - 1000}, ${Date.now()}, 1000)`);
  }

  test('hard-deletes every call, file, item, event and key of the user, and nothing of anyone else', async () => {
    const { services } = testApp;
    const kateCallIds = [
      await seedCall(services, 'kate'),
      await seedCall(services, 'kate', { analysisVersion: 1 }),
      await seedCall(services, 'kate', { status: 'FAILED' }),
    ];
    for (const callId of kateCallIds) await recordProcessingEvent(callId);
    const kate = await seedUser(services, 'kate');
    const [kateItem] = await getJson<{ id: string }[]>('kate', '/api/actions');
    const keyed = await testApp.as('kate')(`/api/actions/${kateItem!.id}`, {
      method: 'PATCH', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ status: 'COMPLETED' }),
    });
    expect(keyed.status).toBe(200);

    const leoCallId = await seedCall(services, 'leo');
    await recordProcessingEvent(leoCallId);
    const leo = await seedUser(services, 'leo');
    const leoBefore = await remainingRows(leo.id, [leoCallId]);

    const before = await remainingRows(kate.id, kateCallIds);
    expect(before).toMatchObject({ users: 1, processingEvents: 3, idempotencyRecords: 1, callArtifacts: 4 });
    expect(before.calls).toBeGreaterThan(0);
    expect(before.actionItems).toBeGreaterThan(0);
    for (const callId of kateCallIds) expect(existsSync(callFolder(callId))).toBe(true);

    const response = await testApp.as('kate')('/api/users/me', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');

    for (const callId of kateCallIds) expect(existsSync(callFolder(callId))).toBe(false);
    expect(await remainingRows(kate.id, kateCallIds)).toEqual({ users: 0, calls: 0, actionItems: 0, processingEvents: 0, idempotencyRecords: 0, callArtifacts: 0 });

    // Leo's data is untouched.
    expect(await remainingRows(leo.id, [leoCallId])).toEqual(leoBefore);
    expect(existsSync(callFolder(leoCallId))).toBe(true);
    expect((await testApp.as('leo')(`/api/calls/${leoCallId}/transcript`)).status).toBe(200);
    expect(await getJson<unknown[]>('leo', '/api/actions')).toHaveLength(2);

    // The next request of the same identity starts over with an empty account.
    const reborn = await getJson<User>('kate', '/api/users/me');
    expect(reborn.id).not.toBe(kate.id);
    expect(reborn.externalUserId).toBe('local:kate');
    expect(await getJson<{ items: unknown[] }>('kate', '/api/calls')).toEqual({ items: [] });
    expect(await getJson<unknown[]>('kate', '/api/actions')).toEqual([]);
    expect((await getJson<Stats>('kate', '/api/users/me/stats')).totalCalls).toBe(0);
    for (const callId of kateCallIds) expect((await testApp.as('kate')(`/api/calls/${callId}`)).status).toBe(404);
  });

  test('is refused with 409 call_in_progress while a call is processing, deleting nothing', async () => {
    const { services } = testApp;
    const completedCallId = await seedCall(services, 'mona');
    const queuedCallId = await seedCall(services, 'mona', { status: 'QUEUED' });
    const mona = await seedUser(services, 'mona');
    const before = await remainingRows(mona.id, [completedCallId, queuedCallId]);

    const response = await testApp.as('mona')('/api/users/me', { method: 'DELETE' });
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: { code: string; details?: { callIds?: string[] } } };
    expect(body.error.code).toBe('call_in_progress');
    expect(body.error.details?.callIds).toEqual([queuedCallId]);

    expect(await remainingRows(mona.id, [completedCallId, queuedCallId])).toEqual(before);
    expect(existsSync(callFolder(completedCallId))).toBe(true);
    expect(existsSync(callFolder(queuedCallId))).toBe(true);
    expect((await getJson<User>('mona', '/api/users/me')).id).toBe(mona.id);
    expect((await testApp.as('mona')(`/api/calls/${completedCallId}/analysis`)).status).toBe(200);
  });
});

describe('DELETE /api/users/me with an identity-provider deletion hook', () => {
  interface HookRequest {
    method: string | undefined;
    url: string | undefined;
    headers: IncomingHttpHeaders;
  }

  const issuer = 'https://idp.callscope.test/';
  const audience = 'callscope-mobile';
  const hookToken = 'idp-admin-token-0123456789';
  const subject = 'auth0|user 42/ü';
  let keyDir: string;
  let hookServer: Server;
  let hookApp: TestApp;
  const hookRequests: HookRequest[] = [];
  let firstHookRequest: Promise<HookRequest>;
  let signToken: (sub: string) => Promise<string>;

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
    keyDir = mkdtempSync(join(tmpdir(), 'callscope-jwks-'));
    const jwksFile = join(keyDir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [jwk] }));
    signToken = (sub) => new SignJWT({ email: 'nora@example.com' })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
      .setIssuer(issuer).setAudience(audience).setSubject(sub)
      .setIssuedAt().setExpirationTime('5m')
      .sign(privateKey);

    let announce: (request: HookRequest) => void = () => {};
    firstHookRequest = new Promise((resolve) => { announce = resolve; });
    hookServer = createServer((request, response) => {
      const seen = { method: request.method, url: request.url, headers: request.headers };
      hookRequests.push(seen);
      announce(seen);
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
    const { port } = hookServer.address() as AddressInfo;

    hookApp = await startTestApp({
      OIDC_ISSUER: issuer,
      OIDC_AUDIENCE: audience,
      OIDC_JWKS_FILE: jwksFile,
      IDP_USER_DELETE_URL: `http://127.0.0.1:${port}/users/{sub}`,
      IDP_USER_DELETE_TOKEN: hookToken,
    });
  });

  afterAll(async () => {
    await hookApp.close();
    await new Promise<void>((resolve) => hookServer.close(() => resolve()));
    rmSync(keyDir, { recursive: true, force: true });
  });

  test('a local user\'s deletion does not call the hook; a token user\'s deletion sends DELETE with the URL-encoded subject and bearer token', async () => {
    await seedCall(hookApp.services, 'olga');
    expect((await hookApp.as('olga')('/api/users/me', { method: 'DELETE' })).status).toBe(204);

    const bearer = { authorization: `Bearer ${await signToken(subject)}` };
    const me = await fetch(`${hookApp.baseUrl}/api/users/me`, { headers: bearer });
    expect(me.status).toBe(200);
    expect(((await me.json()) as User).externalUserId).toBe(subject);

    const deletion = await fetch(`${hookApp.baseUrl}/api/users/me`, { method: 'DELETE', headers: bearer });
    expect(deletion.status).toBe(204);

    const hookRequest = await firstHookRequest;
    expect(hookRequest.method).toBe('DELETE');
    expect(hookRequest.url).toBe(`/users/${encodeURIComponent(subject)}`);
    expect(hookRequest.headers.authorization).toBe(`Bearer ${hookToken}`);
    expect(hookRequests).toHaveLength(1);

    const logText = JSON.stringify(hookApp.logLines);
    expect(logText).not.toContain(hookToken);
  });
});
