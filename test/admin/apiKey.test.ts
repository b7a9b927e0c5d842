import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, errorCodeOf, type AdminBrowser } from './adminClient.js';

describe('API key generated on the admin page', () => {
  let testApp: TestApp;
  let browser: AdminBrowser;
  beforeAll(async () => {
    testApp = await startTestApp();
    browser = await completeSetup(testApp);
  });
  afterAll(async () => { await testApp.close(); });

  const me = (key?: string) => testApp.as('keyed-user')('/api/users/me', key ? { headers: { 'x-api-key': key } } : {});
  const rotate = async () => {
    const response = await browser.fetch('/admin/api/api-key', { method: 'POST' });
    expect(response.status).toBe(200);
    return ((await response.json()) as { apiKey: string }).apiKey;
  };

  test('without one, /api needs no key', async () => {
    expect((await me()).status).toBe(200);
  });

  test('a generated key is required at once; rotating refuses the old key immediately', async () => {
    const first = await rotate();
    expect(first).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect((await me()).status).toBe(401);
    expect((await me('cs_wrong')).status).toBe(401);
    expect((await me(first)).status).toBe(200);

    const second = await rotate();
    expect(second).not.toBe(first);
    const old = await me(first);
    expect(old.status).toBe(401);
    expect(await errorCodeOf(old)).toBe('auth_invalid');
    expect((await me(second)).status).toBe(200);

    const settings = (await (await browser.fetch('/admin/api/settings')).json()) as { apiKey: { configured: boolean; source: string; createdAt: string } };
    expect(settings.apiKey).toMatchObject({ configured: true, source: 'stored' });
    expect(Date.parse(settings.apiKey.createdAt)).toBeGreaterThan(0);
    const stored = JSON.stringify(await testApp.services.database.sql.all(sql`SELECT * FROM admin_credentials`));
    expect(stored).not.toContain(second);
  });

  test('removing the key lifts the requirement', async () => {
    await rotate();
    expect((await browser.fetch('/admin/api/api-key', { method: 'DELETE' })).status).toBe(204);
    expect((await me()).status).toBe(200);
    const settings = (await (await browser.fetch('/admin/api/settings')).json()) as { apiKey: unknown };
    expect(settings.apiKey).toEqual({ configured: false, source: 'none' });
  });
});

describe('with API_KEY set in the environment', () => {
  const environmentKey = 'environment-key-0123456789abcdef';
  let testApp: TestApp;
  let browser: AdminBrowser;
  beforeAll(async () => {
    testApp = await startTestApp({ API_KEY: environmentKey });
    browser = await completeSetup(testApp);
  });
  afterAll(async () => { await testApp.close(); });

  test('the environment wins: rotation and removal are refused with 400, and the key keeps working', async () => {
    const rotation = await browser.fetch('/admin/api/api-key', { method: 'POST' });
    expect(rotation.status).toBe(400);
    expect(((await rotation.json()) as { error: { message: string } }).error.message).toContain('set by the environment');
    expect((await browser.fetch('/admin/api/api-key', { method: 'DELETE' })).status).toBe(400);
    const settings = (await (await browser.fetch('/admin/api/settings')).json()) as { apiKey: unknown };
    expect(settings.apiKey).toEqual({ configured: true, source: 'env' });
    expect((await testApp.as('env-keyed')('/api/users/me')).status).toBe(200);
  });
});
