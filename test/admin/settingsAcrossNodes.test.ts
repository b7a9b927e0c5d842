import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { completeSetup, type AdminBrowser } from './adminClient.js';

/*
 * Two nodes on one database (the same SQLite file, or on a PostgreSQL run the same database):
 * a setting saved on one node's admin page reaches the other at its next heartbeat (which calls
 * AdminSettings.refresh), not only at its next start.
 */

let first: TestApp;
let second: TestApp;
let browser: AdminBrowser;
beforeAll(async () => {
  first = await startTestApp();
  const shared: Record<string, string> = { DATA_DIR: first.dataDir };
  if (first.services.config.DATABASE_URL) shared.DATABASE_URL = first.services.config.DATABASE_URL;
  second = await startTestApp(shared);
  browser = await completeSetup(first);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

test('a live setting saved on one node applies on the other at its next refresh; nothing changes without a save', async () => {
  expect(second.services.config.STALE_JOB_MINUTES).toBe(15);
  expect(await second.services.admin.settings.refresh()).toEqual([]);

  const response = await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { STALE_JOB_MINUTES: 42, LLM_TIMEOUT_SECONDS: 77 } } });
  expect(response.status).toBe(200);
  expect(first.services.config.STALE_JOB_MINUTES).toBe(42);

  // The other node: live settings at once, the others wait for its next start, as on the node that saved them.
  expect(await second.services.admin.settings.refresh()).toEqual(['STALE_JOB_MINUTES']);
  expect(second.services.config.STALE_JOB_MINUTES).toBe(42);
  expect(second.services.config.LLM_TIMEOUT_SECONDS).not.toBe(77);
  expect(await second.services.admin.settings.refresh()).toEqual([]);

  // Back to the default (the stored row removed): that reaches the other node too.
  await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { STALE_JOB_MINUTES: null } } });
  expect(await second.services.admin.settings.refresh()).toEqual(['STALE_JOB_MINUTES']);
  expect(second.services.config.STALE_JOB_MINUTES).toBe(15);
});
