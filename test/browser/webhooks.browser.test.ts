import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { WebhookDispatcher } from '../../src/infrastructure/webhooks/WebhookDispatcher.js';
import { completeSetup } from '../admin/adminClient.js';
import { seedCall } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { refusalOf, startTestDispatcher, WebhookReceiver } from '../helpers/webhooks.js';
import { hasChromium, launchChromium, screenshotDir, signedInAdminPage } from './browserHarness.js';

/**
 * The admin page's Webhooks section in a real Chromium: no secret yet (the delivery waits), the
 * secret generated and shown once, a failed delivery listed and sent again with Resend. Needs
 * Debian's chromium at /usr/bin/chromium, as test/browser/admin.browser.test.ts; skipped without it.
 */


describe.skipIf(!hasChromium)('the Webhooks page in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    [browser, app] = await Promise.all([
      launchChromium(),
      startTestApp({ WEBHOOK_URLS: receiver.url(), WEBHOOK_MAX_ATTEMPTS: '1' }),
    ]);
    dispatcher = startTestDispatcher(app.services, app.app.log);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await dispatcher?.stop();
    await app?.close();
    await receiver?.close();
  });

  test('the settings, then on the Webhooks page: generate the secret, see the failed delivery, resend it', async () => {
    const admin = await completeSetup(app);
    const { page, problems } = await signedInAdminPage(browser, app, admin.cookie);

    // The endpoints and the transcript opt-in are on the Settings page, in their own group.
    await page.goto(`${app.baseUrl}/admin/settings`);
    const group = page.locator('#group-webhooks');
    await expect.poll(() => group.locator('.setting').count(), { timeout: 10_000 }).toBe(2);
    expect(await group.getByLabel('Webhook endpoints (comma-separated URLs)').inputValue()).toBe(receiver.url());
    expect(await group.getByLabel('Include the transcript text in call.completed webhooks').isChecked()).toBe(false);
    await page.screenshot({ path: join(screenshotDir, 'webhooks-settings.png'), fullPage: true });

    await seedCall(app.services, 'alice');
    receiver.answer = () => 500;
    await page.goto(`${app.baseUrl}/admin/webhooks`);
    await expect.poll(() => page.locator('#secret-state').textContent(), { timeout: 10_000 }).toContain('No secret yet');
    expect(await page.locator('#endpoints-list').textContent()).toContain(receiver.url());
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Webhooks');

    await page.getByRole('button', { name: 'Generate signing secret' }).click();
    await expect.poll(() => page.locator('#secret-value').inputValue(), { timeout: 10_000 }).toMatch(/^whsec_/);
    const secret = await page.locator('#secret-value').inputValue();
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.locator('#deliveries-body').textContent(), { timeout: 10_000 }).toContain('HTTP 500');
    await page.screenshot({ path: join(screenshotDir, 'webhooks-failed-delivery.png'), fullPage: true });

    receiver.answer = () => 204;
    await page.getByRole('button', { name: /^Resend delivery/ }).click();
    await expect.poll(() => page.locator('#deliveries-message').textContent(), { timeout: 10_000 }).toContain('queued to be sent again');
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    expect(refusalOf(receiver.received[1]!, secret)).toBeUndefined();
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return page.locator('#deliveries-body').textContent();
    }, { timeout: 10_000 }).toContain('delivered');
    await page.screenshot({ path: join(screenshotDir, 'webhooks-resent.png'), fullPage: true });
    await page.context().close();
    expect(problems).toEqual([]);
  });
});
