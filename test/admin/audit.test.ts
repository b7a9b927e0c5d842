import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { adminPassword, completeSetup, postJson, setupTokenOf, signIn } from './adminClient.js';

interface AuditBody {
  entries: { at: string; actor: string; action: string; target: string | null; detail: Record<string, unknown> | null; clientIp: string | null }[];
}

let testApp: TestApp;
const secrets: string[] = [];
let entries: AuditBody['entries'];

beforeAll(async () => {
  testApp = await startTestApp();
  const setupToken = await setupTokenOf(testApp);
  secrets.push(setupToken, adminPassword);
  const browser = await completeSetup(testApp);
  const wrongPassword = 'a wrong but long password';
  secrets.push(wrongPassword, browser.cookie.split('=')[1]!, browser.csrfToken);
  await postJson(testApp, '/admin/api/session', { password: wrongPassword });
  const second = await signIn(testApp);
  secrets.push(second.cookie.split('=')[1]!);
  await second.fetch('/admin/api/session', { method: 'DELETE' });
  await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { STALE_JOB_MINUTES: 30, SERVICE_VOICE_CONSENT_VERSION: '2' } } });
  const key = ((await (await browser.fetch('/admin/api/api-key', { method: 'POST' })).json()) as { apiKey: string }).apiKey;
  secrets.push(key);
  await browser.fetch('/admin/api/api-key', { method: 'DELETE' });
  const newPassword = 'the next admin passphrase';
  secrets.push(newPassword);
  await browser.fetch('/admin/api/password', { method: 'POST', body: { currentPassword: adminPassword, newPassword } });
  entries = ((await (await browser.fetch('/admin/api/audit?limit=50')).json()) as AuditBody).entries;
});
afterAll(async () => { await testApp.close(); });

test('every admin action is in the audit log, newest first, with actor and client IP', () => {
  expect(entries.map((entry) => entry.action)).toEqual([
    'password_change', 'api_key_remove', 'api_key_rotate', 'settings_change', 'sign_out', 'sign_in', 'sign_in_failed', 'setup',
  ]);
  expect(entries.at(-1)).toMatchObject({ actor: 'setup', target: 'password', clientIp: '127.0.0.1' });
  expect(entries[0]).toMatchObject({ actor: 'admin', clientIp: '127.0.0.1' });
  expect(entries.find((entry) => entry.action === 'settings_change')).toMatchObject({
    target: 'settings', detail: { changes: { STALE_JOB_MINUTES: 30, SERVICE_VOICE_CONSENT_VERSION: '2' } },
  });
  const times = entries.map((entry) => Date.parse(entry.at));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
});

test('limit caps the entries', async () => {
  const browser = await signIn(testApp, 'the next admin passphrase');
  const limited = (await (await browser.fetch('/admin/api/audit?limit=2')).json()) as AuditBody;
  expect(limited.entries.map((entry) => entry.action)).toEqual(['sign_in', 'password_change']);
  expect((await browser.fetch('/admin/api/audit?limit=0')).status).toBe(400);
});

test('neither the audit log nor the service log holds a password, token, session id or key', async () => {
  const audit = JSON.stringify(entries) + JSON.stringify(await testApp.services.database.sql.all(sql`SELECT * FROM admin_audit`));
  const logs = JSON.stringify(testApp.logLines);
  for (const secret of secrets) {
    expect(audit, 'audit').not.toContain(secret);
    expect(logs, 'logs').not.toContain(secret);
  }
  expect(logs).toContain('admin action');
});
