import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

let testApp: TestApp;
let browser: AdminBrowser;
let source: string;
let slots: string;

beforeAll(async () => {
  slots = mkdtempSync(join(tmpdir(), 'callscope-slots-'));
  source = mkdtempSync(join(tmpdir(), 'callscope-stick-'));
  writeFileSync(join(source, 'holiday-photo.txt'), 'not a model');
  testApp = await startTestApp({
    SEGMENTATION_MODEL: join(slots, 'segmentation.onnx'), EMBEDDING_MODEL: join(slots, 'embedding.onnx'),
    WHISPER_MODEL: join(slots, 'whisper.bin'), VAD_MODEL: join(slots, 'vad.bin'), LLM_MODEL: join(slots, 'llm.gguf'),
  });
  browser = await completeSetup(testApp);
});
afterAll(async () => {
  await testApp.close();
  rmSync(slots, { recursive: true, force: true });
  rmSync(source, { recursive: true, force: true });
});

test('the models page lists every slot with its configured file and check', async () => {
  const response = await browser.fetch('/admin/api/models');
  expect(response.status).toBe(200);
  const body = (await response.json()) as { slots: { slot: string; configuredPath: string; present: boolean; check: string }[] };
  expect(body.slots.length).toBeGreaterThanOrEqual(5);
  expect(body.slots.find((slot) => slot.configuredPath === join(slots, 'whisper.bin'))).toMatchObject({ present: false, check: 'missing' });
});

test('an import reports each file found and is audited', async () => {
  const response = await browser.fetch('/admin/api/models/import', { method: 'POST', body: { directory: source } });
  expect(response.status).toBe(200);
  const { results } = (await response.json()) as { results: { fileName: string; outcome: string }[] };
  expect(results).toEqual([expect.objectContaining({ fileName: 'holiday-photo.txt', outcome: 'skipped' })]);
  const audit = (await (await browser.fetch('/admin/api/audit?limit=1')).json()) as { entries: { action: string; target: string; detail: unknown }[] };
  expect(audit.entries[0]).toMatchObject({
    action: 'model_import', target: source, detail: { results: [{ fileName: 'holiday-photo.txt', outcome: 'skipped' }] },
  });
});

test.each([['a missing folder', '/no/such/folder'], ['a relative path', 'models']])('%s is refused with 400', async (_case, directory) => {
  const response = await browser.fetch('/admin/api/models/import', { method: 'POST', body: { directory } });
  expect(response.status).toBe(400);
});
