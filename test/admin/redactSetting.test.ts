import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/loadConfig.js';
import { speechOptionsFromConfig } from '../../src/processing/productionPipeline.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

// REDACT: a list of kinds, validated at start-up and on the admin page, read by each call.

let testApp: TestApp;
let browser: AdminBrowser;
beforeAll(async () => {
  testApp = await startTestApp();
  browser = await completeSetup(testApp);
});
afterAll(async () => { await testApp.close(); });

const patch = (values: Record<string, unknown>) => browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values } });

describe('REDACT', () => {
  test('defaults to card numbers; `none` turns redaction off; an unknown kind is refused at start-up by name', () => {
    expect(speechOptionsFromConfig(loadConfig({})).redaction?.kinds).toEqual(['card']);
    expect(speechOptionsFromConfig(loadConfig({ REDACT: 'none' })).redaction?.kinds).toEqual([]);
    expect(speechOptionsFromConfig(loadConfig({ REDACT: 'email, card phone' })).redaction).toEqual({ kinds: ['card', 'email', 'phone'], toneAudio: false });
    expect(() => loadConfig({ REDACT: 'card,emails' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDACT: 'card,emails' })).toThrow(/REDACT: unknown kind "emails"; the kinds are card, iban, national_id, date_of_birth, email, phone/);
    expect(() => loadConfig({ REDACT: 'card;phone' })).toThrow(/REDACT/);
  });

  test('the admin page lists it, changes it live, and refuses an unknown kind field by field', async () => {
    const settings = async () => ((await (await browser.fetch('/admin/api/settings')).json()) as { settings: { key: string; value: unknown; source: string; live: boolean; description: string }[] }).settings;
    const setting = (await settings()).find((entry) => entry.key === 'REDACT');
    expect(setting).toMatchObject({ value: 'card', source: 'default', live: true });
    expect(setting?.description).toContain('[CARD]');

    expect((await patch({ REDACT: 'card, iban, email' })).status).toBe(200);
    expect(speechOptionsFromConfig(testApp.services.config).redaction?.kinds).toEqual(['card', 'iban', 'email']);

    const refused = await patch({ REDACT: 'card, passwords' });
    expect(refused.status).toBe(400);
    const body = JSON.stringify(await refused.json());
    expect(body).toContain('values/REDACT');
    expect(body).toContain('passwords');
    expect(testApp.services.config.REDACT).toBe('card, iban, email');

    expect((await patch({ REDACT: null })).status).toBe(200);
    expect(speechOptionsFromConfig(testApp.services.config).redaction?.kinds).toEqual(['card']);
  });
});
