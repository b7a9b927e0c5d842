import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { completeSetup } from '../admin/adminClient.js';
import { seedCall } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { hasChromium, launchChromium, screenshotDir, signedInAdminPage } from './browserHarness.js';

/**
 * The admin page's Audit trail in a real Chromium: the records newest first, a filter, paging and
 * the CSV link following the filters. Needs Debian's chromium at /usr/bin/chromium, as
 * test/browser/admin.browser.test.ts; skipped without it.
 */


describe.skipIf(!hasChromium)('the Audit trail page in Chromium', () => {
  let browser: Browser;
  let app: TestApp;

  beforeAll(async () => {
    [browser, app] = await Promise.all([
      launchChromium(),
      startTestApp(),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('lists the trail, filters it, pages through it, and the CSV link carries the filters', async () => {
    const admin = await completeSetup(app);
    const callId = await seedCall(app.services, 'alice');
    expect((await app.as('alice')(`/api/calls/${callId}/transcript`)).status).toBe(200);
    for (let index = 0; index < 150; index += 1) app.services.accessAudit.record({ actorKind: 'system', actorId: 'bulk', action: 'bulk.test' });
    await app.services.accessAudit.flush();

    const { page, problems } = await signedInAdminPage(browser, app, admin.cookie);

    await page.goto(`${app.baseUrl}/admin/audit`);
    const rows = page.locator('#records-body tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(100);
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Audit trail');
    expect(await page.locator('#page-state').textContent()).toBe('Page 1: records 53–152');
    await page.getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => page.locator('#page-state').textContent(), { timeout: 10_000 }).toBe('Page 2: records 1–52');
    expect(await rows.last().textContent()).toContain('admin.setup');
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Newer' }).click();
    await expect.poll(() => page.locator('#page-state').textContent(), { timeout: 10_000 }).toBe('Page 1: records 53–152');

    await page.getByLabel('Action').fill('transcript.read');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain(callId);
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/admin/api/access-audit.csv?action=transcript.read');
    await page.screenshot({ path: join(screenshotDir, 'access-audit.png'), fullPage: true });

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(100);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
