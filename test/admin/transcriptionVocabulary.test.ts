import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { speechOptionsFromConfig } from '../../src/processing/productionPipeline.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

// TRANSCRIPTION_VOCABULARY on the admin page: a live setting (the next call's prompt uses it),
// refused with a reason the page shows beside the field when it is too long.

let testApp: TestApp;
let browser: AdminBrowser;
beforeAll(async () => {
  testApp = await startTestApp();
  browser = await completeSetup(testApp);
});
afterAll(async () => { await testApp.close(); });

const patch = (values: Record<string, unknown>) => browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values } });
type FieldProblems = { error: { code: string; details: { fields: { path: string; message: string }[] } } };

describe('TRANSCRIPTION_VOCABULARY on the admin page', () => {
  test('is listed as a live inference setting, unset by default', async () => {
    const body = (await (await browser.fetch('/admin/api/settings')).json()) as { settings: { key: string; value: unknown; live: boolean; source: string }[] };
    expect(body.settings.find((setting) => setting.key === 'TRANSCRIPTION_VOCABULARY')).toMatchObject({ value: null, live: true, source: 'default' });
  });

  test('applies at once: the next call\'s speech options carry its terms', async () => {
    const response = await patch({ TRANSCRIPTION_VOCABULARY: 'Callscope\nZentrix, Dr. Okonkwo' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(speechOptionsFromConfig(testApp.services.config).vocabulary).toEqual(['Callscope', 'Zentrix', 'Dr. Okonkwo']);

    expect((await patch({ TRANSCRIPTION_VOCABULARY: null })).status).toBe(200);
    expect(speechOptionsFromConfig(testApp.services.config).vocabulary).toEqual([]);
  });

  test('more than 100 terms, a term over 100 characters or over 2,000 characters is refused beside the field, and nothing changes', async () => {
    const cases = [
      [Array.from({ length: 101 }, (_, index) => `Term ${index}`).join('\n'), /101 terms; at most 100/],
      [`Zentrix, ${'a'.repeat(150)}`, /at most 100 characters/],
      [Array.from({ length: 80 }, () => 'b'.repeat(30)).join('\n'), /2000/],
    ] as const;
    for (const [value, message] of cases) {
      const response = await patch({ TRANSCRIPTION_VOCABULARY: value });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as FieldProblems;
      expect(error.code).toBe('validation_failed');
      expect(error.details.fields).toEqual([{ path: 'values/TRANSCRIPTION_VOCABULARY', message: expect.stringMatching(message) as unknown }]);
    }
    expect(testApp.services.config.TRANSCRIPTION_VOCABULARY).toBeUndefined();
  });
});
