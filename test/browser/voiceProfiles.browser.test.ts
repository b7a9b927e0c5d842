import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { voiceProfileProvider } from '../../src/domain/voiceProfiles/VoiceProfileRepository.js';
import { completeSetup } from '../admin/adminClient.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { userIdOf, voiceProfileRows } from '../http/users/voiceProfileHelpers.js';
import { hasChromium, launchChromium, screenshotDir, signedInAdminPage } from './browserHarness.js';

/**
 * The admin page's Voice profiles section in a real Chromium: the users with a profile, one
 * marked outdated after a consent-version change, and Delete all behind a typed confirmation.
 * Needs Debian's chromium at /usr/bin/chromium, as the other browser tests; skipped without it.
 */


describe.skipIf(!hasChromium)('the Voice profiles page in Chromium', () => {
  let browser: Browser;
  let app: TestApp;

  beforeAll(async () => {
    [browser, app] = await Promise.all([
      launchChromium(),
      startTestApp({ SERVICE_VOICE_CONSENT_VERSION: '2' }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('lists the profiles, marks the outdated one, and deletes them all only after DELETE is typed', async () => {
    const admin = await completeSetup(app);
    for (const [name, consentVersion] of [['ann', '2'], ['ben', '1']] as const) {
      const userId = await userIdOf(app.as(name));
      await app.services.voiceProfiles.save(userId, {
        provider: voiceProfileProvider, consentVersion, sampleDurationSeconds: 24, embedding: { vector: Float32Array.from([0.6, 0.8]), model: 'embedding.onnx' },
      }, Date.now());
    }
    const { page, problems } = await signedInAdminPage(browser, app, admin.cookie);

    await page.goto(`${app.baseUrl}/admin/voice-profiles`);
    await expect.poll(() => page.locator('#profiles-body tr').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Voice profiles');
    expect(await page.locator('#profiles-state').textContent()).toBe('2 users have a voice profile. Voice profiles are switched off: none is used for matching. 1 of them was recorded under an earlier consent version than the current 2.');
    expect(await page.locator('#profiles-body tr.row-warn').textContent()).toContain('outdated: not used');
    await page.screenshot({ path: join(screenshotDir, 'voice-profiles.png'), fullPage: true });

    // A wrong word deletes nothing.
    page.once('dialog', (dialog) => void dialog.accept('yes'));
    await page.getByRole('button', { name: 'Delete all voice profiles' }).click();
    await expect.poll(() => page.locator('#delete-message').textContent(), { timeout: 10_000 }).toContain('Nothing was deleted');
    expect(await voiceProfileRows(app)).toBe(2);

    page.once('dialog', (dialog) => void dialog.accept('DELETE'));
    await page.getByRole('button', { name: 'Delete all voice profiles' }).click();
    await expect.poll(() => page.locator('#delete-message').textContent(), { timeout: 10_000 }).toContain('2 voice profiles were deleted.');
    expect(await voiceProfileRows(app)).toBe(0);
    await expect.poll(() => page.locator('#profiles-body').textContent(), { timeout: 10_000 }).toContain('No voice profiles are stored.');
    expect(await page.getByRole('button', { name: 'Delete all voice profiles' }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'voice-profiles-deleted.png'), fullPage: true });
    await page.context().close();
    expect(problems).toEqual([]);
  });
});
