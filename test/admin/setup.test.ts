import { sql } from 'drizzle-orm';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AdminSetupLink, setupLinkFileName } from '../../src/admin/credentials/AdminSetupLink.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { adminPassword, errorCodeOf, issueSetupLink, postJson, setupTokenOf } from './adminClient.js';

let testApp: TestApp;
beforeEach(async () => { testApp = await startTestApp(); });
afterEach(async () => { await testApp.close(); });

const linkFile = () => join(testApp.dataDir, setupLinkFileName);

describe('first run', () => {
  test('without an admin password the setup link is written to DATA_DIR, readable by the owner only', async () => {
    expect(existsSync(linkFile())).toBe(false); // building the app writes nothing: the start does
    const printed = await issueSetupLink(testApp);
    expect(existsSync(linkFile())).toBe(true);
    expect(readFileSync(linkFile(), 'utf8')).toBe(`${printed}\n`);
    // Asked again (server.ts prints what the start issued): the same link, not a new token.
    expect(await issueSetupLink(testApp)).toBe(printed);
    expect(statSync(linkFile()).mode & 0o777).toBe(0o600);
    const link = new URL(readFileSync(linkFile(), 'utf8').trim());
    expect(`${link.protocol}//${link.host}`).toBe(testApp.baseUrl);
    expect(link.pathname).toBe('/admin/setup');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await (await fetch(`${testApp.baseUrl}/admin/api/setup`)).json()).toEqual({ setupRequired: true });
  });

  test('the token is stored only as its hash', async () => {
    const token = await setupTokenOf(testApp);
    const rows = await testApp.services.database.sql.all(sql`SELECT * FROM admin_credentials`);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  test('a wrong token is refused with 401', async () => {
    const response = await postJson(testApp, '/admin/api/setup', { token: 'not-the-token', password: adminPassword });
    expect(response.status).toBe(401);
    expect(await errorCodeOf(response)).toBe('admin_auth_required');
  });

  test('an expired token is refused with 401', async () => {
    const token = await setupTokenOf(testApp);
    testApp.services.clock = () => Date.now() + 25 * 60 * 60_000;
    expect((await postJson(testApp, '/admin/api/setup', { token, password: adminPassword })).status).toBe(401);
  });

  test('a new start issues a new token: the old link stops working', async () => {
    const oldToken = await setupTokenOf(testApp);
    const restarted = new AdminSetupLink(testApp.services.admin.account, testApp.dataDir, testApp.services.clock);
    const newToken = new URL((await restarted.prepare(testApp.app.server.address()))!).searchParams.get('token')!;
    expect(newToken).not.toBe(oldToken);
    expect((await postJson(testApp, '/admin/api/setup', { token: oldToken, password: adminPassword })).status).toBe(401);
    expect((await postJson(testApp, '/admin/api/setup', { token: newToken, password: adminPassword })).status).toBe(200);
  });

  test('once the password is set, a start issues no link and removes a stale file', async () => {
    await postJson(testApp, '/admin/api/setup', { token: await setupTokenOf(testApp), password: adminPassword });
    writeFileSync(linkFile(), 'stale');
    const restarted = new AdminSetupLink(testApp.services.admin.account, testApp.dataDir, testApp.services.clock);
    expect(await restarted.prepare(testApp.app.server.address())).toBeUndefined();
    expect(existsSync(linkFile())).toBe(false);
  });

  test('a password shorter than 12 characters is refused with 400', async () => {
    const response = await postJson(testApp, '/admin/api/setup', { token: await setupTokenOf(testApp), password: 'short-pw-11' });
    expect(response.status).toBe(400);
    expect(await errorCodeOf(response)).toBe('validation_failed');
    expect(existsSync(linkFile())).toBe(true);
  });

  test('setting the password signs in, deletes the link file and uses the token up', async () => {
    const token = await setupTokenOf(testApp);
    const response = await postJson(testApp, '/admin/api/setup', { token, password: adminPassword });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { csrfToken: string; expiresAt: string };
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    expect(response.headers.get('set-cookie')).toMatch(/^callscope_admin=/);
    expect(existsSync(linkFile())).toBe(false);
    expect(await (await fetch(`${testApp.baseUrl}/admin/api/setup`)).json()).toEqual({ setupRequired: false });

    const again = await postJson(testApp, '/admin/api/setup', { token, password: 'another long password' });
    expect(again.status).toBe(409);
    expect(await errorCodeOf(again)).toBe('admin_setup_done');
  });

  test('two requests racing with the token set one password', async () => {
    const token = await setupTokenOf(testApp);
    const [first, second] = await Promise.all([
      postJson(testApp, '/admin/api/setup', { token, password: 'first long password' }),
      postJson(testApp, '/admin/api/setup', { token, password: 'second long password' }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
  });
});
