import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { adminPassword, browserOf, completeSetup, errorCodeOf, postJson, signIn, type AdminBrowser } from './adminClient.js';

let testApp: TestApp;
let realClock: () => number;
beforeAll(async () => {
  testApp = await startTestApp();
  realClock = testApp.services.clock;
  await completeSetup(testApp);
});
afterAll(async () => { await testApp.close(); });
beforeEach(() => { testApp.services.clock = realClock; });

describe('sign-in', () => {
  test('the right password gives a session cookie scoped to /admin, hidden from scripts, same-site only', async () => {
    const response = await postJson(testApp, '/admin/api/session', { password: adminPassword });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^callscope_admin=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Strict');
    expect(cookie).toContain('; Path=/admin');
    expect(cookie).not.toContain('Secure'); // plain HTTP
  });

  test('the session answers with its CSRF token until sign-out, after which it is gone', async () => {
    const browser = await signIn(testApp);
    const session = await browser.fetch('/admin/api/session');
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ csrfToken: browser.csrfToken });

    const signOut = await browser.fetch('/admin/api/session', { method: 'DELETE' });
    expect(signOut.status).toBe(204);
    expect(signOut.headers.get('set-cookie')).toMatch(/^callscope_admin=; Path=\/admin; Max-Age=0/);
    const after = await browser.fetch('/admin/api/session');
    expect(after.status).toBe(401);
    expect(await errorCodeOf(after)).toBe('admin_auth_required');
  });

  test('the session cookie is not stored: only its hash is', async () => {
    const browser = await signIn(testApp);
    const rows = await testApp.services.database.sql.all(sql`SELECT id_hash FROM admin_sessions`);
    expect(JSON.stringify(rows)).not.toContain(browser.cookie.split('=')[1]);
  });

  test('every API route but setup and sign-in needs the session', async () => {
    for (const path of ['/admin/api/session', '/admin/api/status', '/admin/api/settings', '/admin/api/audit', '/admin/api/models']) {
      const response = await fetch(`${testApp.baseUrl}${path}`);
      expect(response.status, path).toBe(401);
      expect(await errorCodeOf(response)).toBe('admin_auth_required');
    }
    const forged = browserOf(testApp, 'callscope_admin=not-a-session', 'x');
    expect((await forged.fetch('/admin/api/status')).status).toBe(401);
  });

  test('an idle session ends after ADMIN_SESSION_IDLE_MINUTES, an active one after ADMIN_SESSION_MAX_HOURS', async () => {
    const idle = await signIn(testApp);
    testApp.services.clock = () => realClock() + 29 * 60_000;
    expect((await idle.fetch('/admin/api/session')).status).toBe(200);
    // 29 minutes after that last use: still alive; then 31 minutes idle: gone.
    testApp.services.clock = () => realClock() + 58 * 60_000;
    expect((await idle.fetch('/admin/api/session')).status).toBe(200);
    testApp.services.clock = () => realClock() + 89 * 60_000;
    expect((await idle.fetch('/admin/api/session')).status).toBe(401);

    testApp.services.clock = realClock;
    const active = await signIn(testApp);
    for (let minutes = 25; minutes < 8 * 60; minutes += 25) {
      testApp.services.clock = () => realClock() + minutes * 60_000;
      expect((await active.fetch('/admin/api/session')).status).toBe(200);
    }
    testApp.services.clock = () => realClock() + 8 * 60 * 60_000 + 1000;
    expect((await active.fetch('/admin/api/session')).status).toBe(401);
  });
});

describe('CSRF', () => {
  let browser: AdminBrowser;
  beforeAll(async () => { browser = await signIn(testApp); });

  test('a state-changing request without the X-CSRF-Token header is refused with 403', async () => {
    const response = await fetch(`${testApp.baseUrl}/admin/api/api-key`, { method: 'POST', headers: { cookie: browser.cookie } });
    expect(response.status).toBe(403);
    expect(await errorCodeOf(response)).toBe('admin_csrf_failed');
  });

  test('a mismatched token is refused with 403', async () => {
    const response = await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: {} }, headers: { 'x-csrf-token': 'forged' } });
    expect(response.status).toBe(403);
    expect(await errorCodeOf(response)).toBe('admin_csrf_failed');
  });

  test('a request from another origin is refused with 403, even with the right token', async () => {
    const response = await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: {} }, headers: { origin: 'http://evil.example' } });
    expect(response.status).toBe(403);
    const signInFromElsewhere = await postJson(testApp, '/admin/api/session', { password: adminPassword }, { origin: 'http://evil.example' });
    expect(signInFromElsewhere.status).toBe(403);
  });

  test('the same origin with the right token passes', async () => {
    const response = await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: {} }, headers: { origin: testApp.baseUrl } });
    expect(response.status).toBe(200);
  });
});

describe('password change', () => {
  test('needs the current password; afterwards only the new one signs in and other sessions end', async () => {
    const other = await signIn(testApp);
    const browser = await signIn(testApp);
    const wrong = await browser.fetch('/admin/api/password', { method: 'POST', body: { currentPassword: 'not the password', newPassword: 'a brand new passphrase' } });
    expect(wrong.status).toBe(400);
    const tooShort = await browser.fetch('/admin/api/password', { method: 'POST', body: { currentPassword: adminPassword, newPassword: 'short' } });
    expect(tooShort.status).toBe(400);

    const changed = await browser.fetch('/admin/api/password', { method: 'POST', body: { currentPassword: adminPassword, newPassword: 'a brand new passphrase' } });
    expect(changed.status).toBe(204);
    expect((await browser.fetch('/admin/api/session')).status).toBe(200);
    expect((await other.fetch('/admin/api/session')).status).toBe(401);
    expect((await postJson(testApp, '/admin/api/session', { password: adminPassword })).status).toBe(401);
    await signIn(testApp, 'a brand new passphrase');

    const back = await browser.fetch('/admin/api/password', { method: 'POST', body: { currentPassword: 'a brand new passphrase', newPassword: adminPassword } });
    expect(back.status).toBe(204);
  });
});
