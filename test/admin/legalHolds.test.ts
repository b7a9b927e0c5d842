import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callFolders, deleteJson, errorOf, rowsOfCall, storedAudioPath } from '../helpers/callInspection.js';
import { seedCall, seedUser } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

interface HoldView {
  id: string;
  scope: 'user' | 'call';
  userId: string;
  callId: string | null;
  reason: string;
  placedAt: string;
  active: boolean;
  liftedAt: string | null;
  liftReason: string | null;
}

let testApp: TestApp;
let admin: AdminBrowser;
beforeAll(async () => {
  testApp = await startTestApp();
  admin = await completeSetup(testApp);
});
afterAll(async () => { await testApp.close(); });

async function placeHold(body: Record<string, unknown>): Promise<HoldView> {
  const response = await admin.fetch('/admin/api/legal-holds', { method: 'POST', body });
  expect(response.status).toBe(201);
  return (await response.json()) as HoldView;
}

async function liftHold(holdId: string, reason = 'Matter closed'): Promise<HoldView> {
  const response = await admin.fetch(`/admin/api/legal-holds/${holdId}/lift`, { method: 'POST', body: { reason } });
  expect(response.status).toBe(200);
  return (await response.json()) as HoldView;
}

/** The call, its files and its rows are all still there. */
async function expectCallIntact(callId: string): Promise<void> {
  expect(existsSync(storedAudioPath(testApp.dataDir, callId, 'wav'))).toBe(true);
  expect(await rowsOfCall(testApp.services, 'calls', callId)).toBe(1);
  expect(await rowsOfCall(testApp.services, 'call_artifacts', callId)).toBeGreaterThan(0);
  expect(await rowsOfCall(testApp.services, 'action_items', callId)).toBe(2);
}

async function expectCallGone(callId: string): Promise<void> {
  expect(callFolders(testApp.dataDir)).not.toContain(callId);
  expect(await rowsOfCall(testApp.services, 'calls', callId)).toBe(0);
  expect(await rowsOfCall(testApp.services, 'action_items', callId)).toBe(0);
}

describe('a call hold', () => {
  test('refuses the owner\'s delete with 409 legal_hold and keeps the call, its files and rows; after the lift it deletes', async () => {
    const callId = await seedCall(testApp.services, 'alice');
    const hold = await placeHold({ scope: 'call', callId, reason: 'Matter 2026-17' });
    const owner = await seedUser(testApp.services, 'alice');
    expect(hold).toMatchObject({ scope: 'call', callId, userId: owner.id, reason: 'Matter 2026-17', active: true, liftedAt: null, liftReason: null });

    const refused = await testApp.as('alice')(`/api/calls/${callId}`, { method: 'DELETE' });

    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'legal_hold', details: { callIds: [callId] } });
    await expectCallIntact(callId);
    expect((await testApp.as('alice')(`/api/calls/${callId}`)).status).toBe(200);

    const lifted = await liftHold(hold.id);
    expect(lifted).toMatchObject({ id: hold.id, active: false, liftReason: 'Matter closed' });
    expect(lifted.liftedAt).toMatch(/Z$/);

    expect((await testApp.as('alice')(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(204);
    await expectCallGone(callId);
  });

  test('refuses a bulk delete that names a held call: nothing is deleted', async () => {
    const free = await seedCall(testApp.services, 'bob');
    const held = await seedCall(testApp.services, 'bob');
    const hold = await placeHold({ scope: 'call', callId: held, reason: 'Complaint 42' });

    const refused = await deleteJson(testApp.as('bob'), '/api/calls', { callIds: [free, held, randomUUID()] });

    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'legal_hold', details: { callIds: [held] } });
    await expectCallIntact(free);
    await expectCallIntact(held);

    await liftHold(hold.id);
    const deleted = await deleteJson(testApp.as('bob'), '/api/calls', { callIds: [free, held] });
    expect(await deleted.json()).toEqual({ deleted: 2, missing: 0, failed: [] });
    await expectCallGone(free);
    await expectCallGone(held);
  });

  test('another user\'s held call stays `missing` in a bulk delete and does not block it', async () => {
    const foreignHeld = await seedCall(testApp.services, 'carol');
    const own = await seedCall(testApp.services, 'dave');
    await placeHold({ scope: 'call', callId: foreignHeld, reason: 'Matter 7' });

    const response = await deleteJson(testApp.as('dave'), '/api/calls', { callIds: [own, foreignHeld] });

    expect(await response.json()).toEqual({ deleted: 1, missing: 1, failed: [] });
    await expectCallIntact(foreignHeld);
  });
});

describe('the account\'s hard delete', () => {
  test('is refused with 409 legal_hold while the user is held, and nothing is deleted; after the lift it deletes everything', async () => {
    const first = await seedCall(testApp.services, 'erin');
    const second = await seedCall(testApp.services, 'erin');
    const user = await seedUser(testApp.services, 'erin');
    const hold = await placeHold({ scope: 'user', userId: user.id, reason: 'Litigation hold' });
    expect(hold).toMatchObject({ scope: 'user', userId: user.id, callId: null });

    const refused = await testApp.as('erin')('/api/users/me', { method: 'DELETE' });

    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'legal_hold', details: { userHeld: true, callIds: [first, second].sort() } });
    await expectCallIntact(first);
    await expectCallIntact(second);
    expect(await testApp.services.users.findById(user.id)).toBeDefined();
    // A user hold covers each call on its own too.
    expect((await testApp.as('erin')(`/api/calls/${first}`, { method: 'DELETE' })).status).toBe(409);

    await liftHold(hold.id);
    expect((await testApp.as('erin')('/api/users/me', { method: 'DELETE' })).status).toBe(204);
    await expectCallGone(first);
    await expectCallGone(second);
    expect(await testApp.services.users.findById(user.id)).toBeUndefined();
  });

  test('is refused while one of the user\'s calls is held, and nothing is deleted', async () => {
    const free = await seedCall(testApp.services, 'frank');
    const held = await seedCall(testApp.services, 'frank');
    const user = await seedUser(testApp.services, 'frank');
    await placeHold({ scope: 'call', callId: held, reason: 'Matter 9' });

    const refused = await testApp.as('frank')('/api/users/me', { method: 'DELETE' });

    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'legal_hold', details: { userHeld: false, callIds: [held] } });
    await expectCallIntact(free);
    await expectCallIntact(held);
    expect(await testApp.services.users.findById(user.id)).toBeDefined();
  });
});

describe('the admin API', () => {
  test('lists active holds first, then lifted ones', async () => {
    const callId = await seedCall(testApp.services, 'gina');
    const older = await placeHold({ scope: 'call', callId, reason: 'First' });
    const newer = await placeHold({ scope: 'call', callId, reason: 'Second' });
    await liftHold(newer.id);

    const { holds } = (await (await admin.fetch('/admin/api/legal-holds')).json()) as { holds: HoldView[] };

    const ours = holds.filter((hold) => hold.callId === callId);
    expect(ours.map((hold) => [hold.id, hold.active])).toEqual([[older.id, true], [newer.id, false]]);
    const firstLifted = holds.findIndex((hold) => !hold.active);
    expect(holds.slice(0, firstLifted).every((hold) => hold.active)).toBe(true);
    expect(holds.slice(firstLifted).every((hold) => !hold.active)).toBe(true);
  });

  test.each([
    ['an unknown user', () => ({ scope: 'user', userId: randomUUID(), reason: 'x' }), 'body/userId'],
    ['an unknown call', () => ({ scope: 'call', callId: randomUUID(), reason: 'x' }), 'body/callId'],
    ['a user hold without userId', () => ({ scope: 'user', reason: 'x' }), 'body/userId'],
    ['a call hold with a userId', async () => ({ scope: 'call', callId: await seedCall(testApp.services, 'hank'), userId: randomUUID(), reason: 'x' }), 'body/userId'],
    ['a reason of only spaces', async () => ({ scope: 'call', callId: await seedCall(testApp.services, 'hank'), reason: '   ' }), 'body/reason'],
  ])('refuses %s with 400 on its field', async (_name, bodyOf, path) => {
    const response = await admin.fetch('/admin/api/legal-holds', { method: 'POST', body: await bodyOf() });

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(JSON.stringify(error.details)).toContain(path);
  });

  test('refuses a missing reason, a bad scope and a malformed id with 400', async () => {
    const callId = await seedCall(testApp.services, 'hank');
    for (const body of [{ scope: 'call', callId }, { scope: 'everything', callId, reason: 'x' }, { scope: 'call', callId: 'nope', reason: 'x' }]) {
      const response = await admin.fetch('/admin/api/legal-holds', { method: 'POST', body });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe('validation_failed');
    }
  });

  test('a lift needs a reason, and an unknown or already lifted hold answers 404', async () => {
    const hold = await placeHold({ scope: 'call', callId: await seedCall(testApp.services, 'ida'), reason: 'Matter 3' });

    const noReason = await admin.fetch(`/admin/api/legal-holds/${hold.id}/lift`, { method: 'POST', body: {} });
    expect(noReason.status).toBe(400);
    const unknown = await admin.fetch(`/admin/api/legal-holds/${randomUUID()}/lift`, { method: 'POST', body: { reason: 'x' } });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('admin_legal_hold_not_found');
    await liftHold(hold.id);
    const again = await admin.fetch(`/admin/api/legal-holds/${hold.id}/lift`, { method: 'POST', body: { reason: 'x' } });
    expect(again.status).toBe(404);
  });

  test('needs the session, and the CSRF token to place or lift', async () => {
    const callId = await seedCall(testApp.services, 'jack');
    expect((await fetch(`${testApp.baseUrl}/admin/api/legal-holds`)).status).toBe(401);
    const withoutCsrf = await admin.fetch('/admin/api/legal-holds', { method: 'POST', body: { scope: 'call', callId, reason: 'x' }, headers: { 'x-csrf-token': 'wrong' } });
    expect(withoutCsrf.status).toBe(403);
    expect((await testApp.as('jack')(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(204);
  });

  test('placing and lifting are in the admin audit log and the access audit trail', async () => {
    const callId = await seedCall(testApp.services, 'kate');
    const hold = await placeHold({ scope: 'call', callId, reason: 'Audit me' });
    await liftHold(hold.id, 'Done');

    const { entries } = (await (await admin.fetch('/admin/api/audit?limit=5')).json()) as { entries: { action: string; target: string | null; detail: Record<string, unknown> | null }[] };

    expect(entries.slice(0, 2)).toMatchObject([
      { action: 'legal_hold_lift', target: `legal_hold:${hold.id}`, detail: { scope: 'call', callId, reason: 'Done' } },
      { action: 'legal_hold_place', target: `legal_hold:${hold.id}`, detail: { scope: 'call', callId, reason: 'Audit me' } },
    ]);
    await testApp.services.accessAudit.flush();
    const trail = await testApp.services.database.sql.all<{ actorKind: string; action: string }>(sql`SELECT actor_kind AS "actorKind", action
      FROM access_audit WHERE target = ${`legal_hold:${hold.id}`} ORDER BY seq`);
    expect(trail).toEqual([{ actorKind: 'admin', action: 'admin.legal_hold_place' }, { actorKind: 'admin', action: 'admin.legal_hold_lift' }]);
  });

  test('CALL_RETENTION_DAYS is changed live on the settings page, and the preview follows at once', async () => {
    const old = await seedCall(testApp.services, 'lena', { createdAt: Date.now() - 10 * 24 * 60 * 60_000 });
    const before = (await (await admin.fetch('/admin/api/retention/preview')).json()) as { calls: { retentionDays: number } };
    expect(before.calls.retentionDays).toBe(0);

    const saved = await admin.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { CALL_RETENTION_DAYS: 7 } } });
    expect(saved.status).toBe(200);

    const after = (await (await admin.fetch('/admin/api/retention/preview')).json()) as { calls: { retentionDays: number; calls: { callId: string }[] } };
    expect(after.calls.retentionDays).toBe(7);
    expect(after.calls.calls.map((call) => call.callId)).toContain(old);
    await admin.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { CALL_RETENTION_DAYS: 0 } } });
  });

  test('the Retention & holds page is served, linked from the top bar', async () => {
    const page = await fetch(`${testApp.baseUrl}/admin/retention`, { headers: { cookie: admin.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Retention &amp; holds');
    expect(html).toContain('/admin/retention.js');
    expect(html).toContain('href="/admin/retention"');
  });
});
