import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.js';
import { createServices } from '../../src/createServices.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, errorCodeOf, type AdminBrowser } from './adminClient.js';

interface SettingsBody {
  settings: { key: string; value: unknown; source: string; editable: boolean; live: boolean; restartRequired: boolean; secret: boolean; description: string }[];
  apiKey: { configured: boolean; source: string; createdAt?: string };
}

let testApp: TestApp;
let browser: AdminBrowser;
beforeAll(async () => {
  testApp = await startTestApp({ MAX_FILE_SIZE: '2000000' });
  browser = await completeSetup(testApp);
});
afterAll(async () => { await testApp.close(); });

const settingsNow = async () => (await (await browser.fetch('/admin/api/settings')).json()) as SettingsBody;
const settingOf = (body: SettingsBody, key: string) => body.settings.find((setting) => setting.key === key)!;
const patch = (values: Record<string, unknown>) => browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values } });

describe('settings', () => {
  test('each editable setting is listed with its value, source and description', async () => {
    const body = await settingsNow();
    expect(body.settings.map((setting) => setting.key)).toEqual([
      'OIDC_ISSUER', 'OIDC_AUDIENCE', 'OIDC_JWKS_URL', 'OIDC_JWKS_FILE', 'LOCAL_AUTH', 'SERVICE_VOICE_EMBEDDING_ENABLED',
      'SERVICE_VOICE_CONSENT_VERSION', 'SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD', 'SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD',
      'MAX_FILE_SIZE', 'AUDIO_RETENTION_DAYS', 'CALL_RETENTION_DAYS', 'STALE_JOB_MINUTES', 'REDACT',
      'TRANSCRIPTION_PROVIDER', 'TRANSCRIPTION_URL', 'TRANSCRIPTION_MODEL_NAME', 'TRANSCRIPTION_API_KEY', 'TRANSCRIPTION_TIMEOUT_SECONDS', 'TRANSCRIPTION_VOCABULARY',
      'LLM_PROVIDER', 'LLM_URL', 'LLM_MODEL_NAME', 'LLM_API_KEY', 'LLM_TIMEOUT_SECONDS',
      'WEBHOOK_URLS', 'WEBHOOK_INCLUDE_TRANSCRIPT',
    ]);
    expect(settingOf(body, 'STALE_JOB_MINUTES')).toMatchObject({ value: 15, source: 'default', editable: true, live: true, restartRequired: false });
    expect(settingOf(body, 'OIDC_ISSUER')).toMatchObject({ value: null, source: 'default', live: false });
    expect(settingOf(body, 'LOCAL_AUTH').description).toContain('X-Local-User-Id');
    expect(body.apiKey).toEqual({ configured: false, source: 'none' });
  });

  test('a setting the environment sets is shown as such and cannot be changed', async () => {
    expect(settingOf(await settingsNow(), 'MAX_FILE_SIZE')).toMatchObject({ value: 2_000_000, source: 'env', editable: false });
    const response = await patch({ MAX_FILE_SIZE: 4_000_000 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; details: { fields: { path: string; message: string }[] } } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.fields).toEqual([{ path: 'values/MAX_FILE_SIZE', message: expect.stringContaining('environment') }]);
    expect(testApp.services.config.MAX_FILE_SIZE).toBe(2_000_000);
  });

  test('turning voice profiles on applies at once: the endpoint goes from 404 to 200 without a restart', async () => {
    const status = () => testApp.as('voice-user')('/api/users/me/voice-profile/status');
    expect((await status()).status).toBe(404);
    const response = await patch({ SERVICE_VOICE_EMBEDDING_ENABLED: true });
    expect(response.status).toBe(200);
    expect(settingOf((await response.json()) as SettingsBody, 'SERVICE_VOICE_EMBEDDING_ENABLED')).toMatchObject({ value: true, source: 'stored', restartRequired: false });
    expect((await status()).status).toBe(200);

    expect((await patch({ SERVICE_VOICE_EMBEDDING_ENABLED: null })).status).toBe(200);
    expect((await status()).status).toBe(404);
    expect(settingOf(await settingsNow(), 'SERVICE_VOICE_EMBEDDING_ENABLED')).toMatchObject({ value: false, source: 'default' });
  });

  test('invalid values are refused field by field, and nothing is stored', async () => {
    const wrongType = await patch({ STALE_JOB_MINUTES: 0, AUDIO_RETENTION_DAYS: 'many' });
    expect(wrongType.status).toBe(400);
    const fields = ((await wrongType.json()) as { error: { details: { fields: { path: string }[] } } }).error.details.fields.map((field) => field.path);
    expect(fields).toEqual(expect.arrayContaining(['values/STALE_JOB_MINUTES', 'values/AUDIO_RETENTION_DAYS']));

    // A cross-field rule, as at start-up: MEDIUM may not be above HIGH.
    const crossField = await patch({ SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD: 0.9 });
    expect(crossField.status).toBe(400);
    expect(JSON.stringify(await crossField.json())).toContain('values/SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD');

    const unknown = await patch({ PORT: 9090 });
    expect(unknown.status).toBe(400);
    expect(await errorCodeOf(unknown)).toBe('validation_failed');
    expect(testApp.services.config.STALE_JOB_MINUTES).toBe(15);
    expect(settingOf(await settingsNow(), 'STALE_JOB_MINUTES').source).toBe('default');
  });

  test('identity-provider settings are stored and flagged as needing a restart; they must be valid together', async () => {
    const alone = await patch({ OIDC_ISSUER: 'https://idp.example' });
    expect(alone.status).toBe(400);
    expect(JSON.stringify(await alone.json())).toContain('values/OIDC_AUDIENCE');

    const response = await patch({ OIDC_ISSUER: 'https://idp.example', OIDC_AUDIENCE: 'callscope-app' });
    expect(response.status).toBe(200);
    const issuer = settingOf((await response.json()) as SettingsBody, 'OIDC_ISSUER');
    expect(issuer).toMatchObject({ value: 'https://idp.example', source: 'stored', live: false, restartRequired: true });
    expect(testApp.services.config.OIDC_ISSUER).toBeUndefined();
    expect(testApp.services.tokenVerifier).toBeUndefined();
  });

  test('a form\'s strings are converted to the setting\'s type', async () => {
    expect((await patch({ STALE_JOB_MINUTES: '20' })).status).toBe(200);
    expect(testApp.services.config.STALE_JOB_MINUTES).toBe(20);
  });

  test('stored values apply at the next start where no env variable is set; the environment wins', async () => {
    // The app's database: its DATA_DIR, and on a PostgreSQL run its DATABASE_URL.
    const { DATABASE_URL } = testApp.services.config;
    const env = {
      DATA_DIR: testApp.dataDir, ...(DATABASE_URL ? { DATABASE_URL } : {}), LOG_LEVEL: 'silent', LOCAL_AUTH: 'true', MAX_FILE_SIZE: '2000000', STALE_JOB_MINUTES: '45',
    };
    const loaded = loadConfig(env);
    const next = await createServices(loaded, { processMetrics: false });
    try {
      expect(next.config).toMatchObject({ OIDC_ISSUER: 'https://idp.example', OIDC_AUDIENCE: 'callscope-app', STALE_JOB_MINUTES: 45, MAX_FILE_SIZE: 2_000_000 });
      expect(next.tokenVerifier).toBeDefined();
      // The caller's object is left as loaded.
      expect(loaded.OIDC_ISSUER).toBeUndefined();
    } finally {
      await next.close();
    }
  });
});

describe('local-user mode from the admin page', () => {
  let localApp: TestApp;
  let admin: AdminBrowser;
  // An empty variable counts as unset, so the page may set it.
  beforeAll(async () => {
    localApp = await startTestApp({ LOCAL_AUTH: '' });
    admin = await completeSetup(localApp);
  });
  afterAll(async () => { await localApp.close(); });

  test('turning LOCAL_AUTH on and off applies to the next /api request', async () => {
    const me = () => localApp.as('desk-user')('/api/users/me');
    expect((await me()).status).toBe(401);
    expect((await admin.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { LOCAL_AUTH: true } } })).status).toBe(200);
    expect((await me()).status).toBe(200);
    expect((await admin.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { LOCAL_AUTH: false } } })).status).toBe(200);
    expect((await me()).status).toBe(401);
  });
});
