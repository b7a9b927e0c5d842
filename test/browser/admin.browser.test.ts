import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import pino from 'pino';
import { startProcessing } from '../../src/processing/startProcessing.js';
import { uploadCall } from '../helpers/processingHarness.js';
import { seedCall } from '../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { startModelMirror } from '../infrastructure/models/modelMirror.js';

/**
 * The admin pages in a real Chromium against the real app: first-run setup, sign-in, wrong
 * password and lockout, status, models (a corrupted model file), settings (per-field errors,
 * API key rotation checked with real API calls) and the password change. One browser for the
 * file, a fresh context (cookies, storage) per test. Screenshots go to test-artifacts/screenshots.
 * Needs Debian's chromium at /usr/bin/chromium (CI installs it); without it the file is skipped.
 */

const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const screenshotDir = join(repoRoot, 'test-artifacts', 'screenshots');
const sharedVadModel = join(repoRoot, '..', 'shared', 'models', 'silero-vad-v6.2.0-ggml.bin');
const firstPassword = 'correct horse battery staple';

const suiteName = hasChromium
  ? 'admin pages in Chromium'
  : `admin pages in Chromium: SKIPPED, ${chromiumPath} is not installed (apt-get install -y chromium)`;
if (!hasChromium) console.warn(`test/browser/admin.browser.test.ts: skipped, ${chromiumPath} is not installed (Debian: apt-get install -y chromium).`);

/**
 * What `server.ts` does once it listens on a first start: issue the setup link, written to
 * `<DATA_DIR>/admin-setup-link.txt` (startTestApp builds the app without server.ts).
 */
async function issueSetupLink(app: TestApp): Promise<void> {
  if (!existsSync(join(app.dataDir, 'admin-setup-link.txt'))) await app.services.admin.setupLink.prepare(app.app.server.address());
}

/** Reads the one-time setup token from `<DATA_DIR>/admin-setup-link.txt`. */
function setupToken(app: TestApp): string {
  const link = readFileSync(join(app.dataDir, 'admin-setup-link.txt'), 'utf8').trim();
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in the setup link ${link}`);
  return token;
}

/** Completes first-run setup over the API when a test needs an admin account but not the setup page. */
async function ensureSetUp(app: TestApp, password: string): Promise<void> {
  const state = (await (await fetch(`${app.baseUrl}/admin/api/setup`)).json()) as { setupRequired: boolean };
  if (!state.setupRequired) return;
  const response = await fetch(`${app.baseUrl}/admin/api/setup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: setupToken(app), password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function shot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage });
}

/** What every admin page promises: lang, a title, one h1, a label for every input, a live region, no style attributes. */
async function expectAccessibleBasics(page: Page): Promise<void> {
  // Runs in the page (a string: this project compiles without the DOM library).
  const problems = await page.evaluate<string[]>(`(() => {
    const found = [];
    if (document.documentElement.lang !== 'en') found.push('html lang is not en');
    if (!document.title.trim()) found.push('no <title>');
    if (document.querySelectorAll('h1').length !== 1) found.push('not exactly one h1');
    if (!document.querySelector('[aria-live]')) found.push('no aria-live region');
    if (document.querySelector('[style]')) found.push('an inline style attribute');
    if (document.querySelector('script:not([src])')) found.push('an inline script');
    for (const input of document.querySelectorAll('input, select, textarea')) {
      if (input.type === 'hidden') continue;
      const labelled = input.labels.length > 0 || input.hasAttribute('aria-label') || input.hasAttribute('aria-labelledby');
      if (!labelled) found.push('input without a label: #' + (input.id || input.name));
    }
    return found;
  })()`);
  expect(problems).toEqual([]);
}

/** expect.poll with room for a slow CI machine (vitest's default gives up after 1 s). */
function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 10_000, interval: 50 });
}

/** Signs the context in over the admin API (its cookie jar is the pages'), then opens `path`. */
async function signedInAt(page: Page, app: TestApp, password: string, path: string): Promise<void> {
  const response = await page.context().request.post(`${app.baseUrl}/admin/api/session`, { data: { password } });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto(`${app.baseUrl}${path}`);
}

/** Signs in through the sign-in page. */
async function signIn(page: Page, app: TestApp, password: string, next = '/admin/status'): Promise<void> {
  await page.goto(`${app.baseUrl}/admin/login`);
  await page.getByLabel('Admin password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**${next}`);
}

describe.skipIf(!hasChromium)(suiteName, () => {
  let browser: Browser;
  let app: TestApp;
  /** Its own app for the lockout test, so the lock does not shut the other tests out. */
  let lockedApp: TestApp;
  let modelDir: string;
  let adminPassword = firstPassword;

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    // A development model with bytes flipped in the middle: same name and size, wrong checksum.
    modelDir = mkdtempSync(join(tmpdir(), 'callscope-models-'));
    const corrupted = join(modelDir, 'silero-vad-v6.2.0-ggml.bin');
    copyFileSync(sharedVadModel, corrupted);
    const bytes = readFileSync(corrupted);
    for (let index = 4096; index < 4096 + 64; index += 1) bytes[index] = bytes[index]! ^ 0xff;
    writeFileSync(corrupted, bytes);

    const { chromium } = await import('playwright-core');
    [browser, app, lockedApp] = await Promise.all([
      chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
      // Required models that are never there, whatever a developer installed into models/.
      startTestApp({ VAD_MODEL: corrupted, SEGMENTATION_MODEL: 'models/absent-segmentation.onnx', WHISPER_MODEL: 'models/absent-whisper.bin' }),
      startTestApp(),
    ]);
    await issueSetupLink(app);
    await issueSetupLink(lockedApp);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await lockedApp?.close();
    if (modelDir) rmSync(modelDir, { recursive: true, force: true });
  });

  let context: BrowserContext;
  let page: Page;
  /** Script errors and console errors other than the browser's note on a 4xx answer to fetch. */
  let pageProblems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    pageProblems = [];
    page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
      pageProblems.push(`console: ${message.text()}`);
    });
  });

  afterEach(async () => {
    await context.close();
    // Content-Security-Policy violations (inline script or style, foreign assets) land here too.
    expect(pageProblems).toEqual([]);
  });

  test('first-run setup through the page: link token read and removed from the address bar, errors shown, password set', async () => {
    // Without the link, /admin leads to setup, which asks for the token.
    const first = await page.goto(`${app.baseUrl}/admin`);
    expect(first?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.waitForURL('**/admin/setup');
    await poll(() => page.getByLabel('Setup token').isVisible()).toBe(true);
    await expectAccessibleBasics(page);
    await shot(page, 'setup-without-link');

    // A wrong token: the server's refusal is shown and the token field appears.
    await page.goto(`${app.baseUrl}/admin/setup?token=not-the-token`);
    await poll(() => page.url()).not.toContain('token=');
    await page.getByLabel('Admin password', { exact: true }).fill(firstPassword);
    await page.getByLabel('Repeat the password').fill(firstPassword);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await poll(() => page.locator('#setup-message').textContent()).toMatch(/\S/);
    expect(await page.getByLabel('Setup token').isVisible()).toBe(true);
    await shot(page, 'setup-bad-token');

    // The real link: the token leaves the address bar at once.
    await page.goto(`${app.baseUrl}/admin/setup?token=${encodeURIComponent(setupToken(app))}`);
    await poll(() => page.url()).toBe(`${app.baseUrl}/admin/setup`);
    // Shown once the page has asked the server whether setup is needed (the address bar changes before).
    await poll(() => page.getByText('Setup link recognised.').isVisible()).toBe(true);

    // Too short, then not repeated the same: refused on the page with the reason.
    await page.getByLabel('Admin password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the password').fill('short');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await poll(() => page.locator('#setup-message').textContent()).toContain('at least 12 characters');
    expect(await page.getByLabel('Admin password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'setup-password-too-short');
    await page.getByLabel('Admin password', { exact: true }).fill(firstPassword);
    await page.getByLabel('Repeat the password').fill(`${firstPassword}!`);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await poll(() => page.locator('#setup-message').textContent()).toContain('do not match');

    await page.getByLabel('Repeat the password').fill(firstPassword);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL('**/admin/status');
    await poll(() => page.locator('#health-status').textContent()).toMatch(/UP|DOWN/);

    const state = (await (await fetch(`${app.baseUrl}/admin/api/setup`)).json()) as { setupRequired: boolean };
    expect(state.setupRequired).toBe(false);
    expect(existsSync(join(app.dataDir, 'admin-setup-link.txt'))).toBe(false);
  });

  test('sign-in: a page needing a session leads to sign-in, a wrong password is refused with a message, keyboard sign-in works, sign-out ends the session', async () => {
    await ensureSetUp(app, adminPassword);
    await page.goto(`${app.baseUrl}/admin/settings`);
    await page.waitForURL('**/admin/login?next=%2Fadmin%2Fsettings');
    await expectAccessibleBasics(page);
    await shot(page, 'login');

    await page.getByLabel('Admin password').fill('not the admin password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The password is not correct' });
    await poll(() => alert.count()).toBe(1);
    expect(await page.getByLabel('Admin password').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'login-wrong-password');

    // Keyboard only: the field has focus after a refusal; typing and Enter signs in.
    await poll(() => page.locator(':focus').getAttribute('id')).toBe('login-password');
    await page.keyboard.type(adminPassword);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/admin/settings');
    await poll(() => page.locator('.topbar a[aria-current="page"]').textContent()).toBe('Settings');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/admin/login');
    await page.goto(`${app.baseUrl}/admin/status`);
    await page.waitForURL('**/admin/login?next=%2Fadmin%2Fstatus');
  });

  test('lockout: after 5 wrong passwords the page says how long sign-in is locked and disables the form', async () => {
    await ensureSetUp(lockedApp, firstPassword);
    const signInOverApi = (password: string) => fetch(`${lockedApp.baseUrl}/admin/api/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }),
    });
    // Four failures over the API (same client address, so the same count), the rest on the page.
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await signInOverApi(`wrong password ${attempt}`)).status).toBe(401);
    await page.goto(`${lockedApp.baseUrl}/admin/login`);
    const message = page.locator('#login-message');
    for (let attempt = 5; attempt <= 6; attempt += 1) {
      await page.getByLabel('Admin password').fill(`wrong password ${attempt}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await poll(() => message.textContent()).toMatch(/not correct|locked/);
      if (/locked/.test((await message.textContent()) ?? '')) break;
      // The next attempt starts once the form is enabled again.
      await poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
      await message.evaluate((node) => { node.textContent = ''; });
    }
    expect(await message.textContent()).toMatch(/locked for \d+ (s|min)/);
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Admin password').isDisabled()).toBe(true);
    expect(await page.locator('#lockout-countdown').textContent()).toMatch(/Try again in \d/);
    await shot(page, 'login-locked');

    // Even the right password is refused while locked (over the API: the form is disabled).
    expect((await signInOverApi(firstPassword)).status).toBe(429);
  });

  test('status: health, readiness checks, queue, last 24 h, stage timings and recent failures, refreshed every 10 s', async () => {
    await ensureSetUp(app, adminPassword);
    const reason = 'The audio could not be decoded';
    await seedCall(app.services, 'alice', { status: 'FAILED', errorReason: reason });
    await seedCall(app.services, 'alice', { status: 'COMPLETED', title: 'Private title that must not show' });
    await page.clock.install();
    await signedInAt(page, app, adminPassword, '/admin/status');

    await poll(() => page.locator('#health-status').textContent()).toMatch(/UP|DOWN/);
    await poll(() => page.locator('#checks-body tr').count()).toBeGreaterThan(1);
    expect(await page.locator('#checks-body').textContent()).toContain('database');
    await poll(() => page.locator('#failures-body').textContent()).toContain(reason);
    const queueText = await page.locator('#queue-stats').textContent();
    expect(queueText).toContain('Queued');
    expect(queueText).toContain('Failed');
    // Only what the API reports: no call titles, contact names or transcript text.
    const body = (await page.locator('body').textContent()) ?? '';
    expect(body).not.toContain('Private title');
    expect(body).not.toContain('Sheila');
    await expectAccessibleBasics(page);
    await shot(page, 'status');

    // The refresh: another failure appears after 10 s without a reload.
    const failedBefore = await page.locator('#last24-failed').textContent();
    await seedCall(app.services, 'alice', { status: 'FAILED', errorReason: 'Second failure for the refresh' });
    await page.clock.runFor(10_500);
    await poll(() => page.locator('#failures-body').textContent()).toContain('Second failure for the refresh');
    expect(Number(await page.locator('#last24-failed').textContent())).toBe(Number(failedBefore) + 1);

    // Narrow screens: the same page, laid out for a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'status-mobile');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'status-mobile-dark');
  });

  test('models: the corrupted VAD model shows a checksum mismatch; import reports a bad folder', async () => {
    await ensureSetUp(app, adminPassword);
    await signedInAt(page, app, adminPassword, '/admin/status');
    await page.getByRole('link', { name: 'Models' }).click();
    await page.waitForURL('**/admin/models');
    const vadRow = page.locator('tr[data-config-key="VAD_MODEL"]');
    await poll(() => vadRow.count()).toBe(1);
    expect(await vadRow.locator('[data-check]').getAttribute('data-check')).toBe('checksum_mismatch');
    expect(await vadRow.textContent()).toContain('Checksum mismatch');
    expect(await vadRow.textContent()).toContain('silero-vad-v6.2.0-ggml.bin');
    expect(await vadRow.getAttribute('class')).toContain('row-bad');
    // The full checksum is on hover; the expected one is shown next to it.
    expect(await vadRow.locator('code[title]').first().getAttribute('title')).toMatch(/^[0-9a-f]{64}$/);
    expect(await vadRow.textContent()).toContain('Expected');
    await poll(() => page.locator('#models-summary').textContent()).toContain('checksum mismatch');
    // Required models that are not configured show as missing.
    expect(await page.locator('tr[data-config-key="SEGMENTATION_MODEL"] [data-check]').getAttribute('data-check')).toBe('missing');
    await expectAccessibleBasics(page);
    await shot(page, 'models-checksum-mismatch');

    // A folder that does not exist: refused as the client's mistake (4xx), the reason shown.
    await page.getByLabel('Folder on this box').fill(join(modelDir, 'no-such-folder'));
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/admin/api/models/import')),
      page.getByRole('button', { name: 'Import' }).click(),
    ]);
    expect(answer.status(), 'POST /admin/api/models/import with a missing folder').toBeGreaterThanOrEqual(400);
    expect(answer.status(), 'POST /admin/api/models/import with a missing folder').toBeLessThan(500);
    await poll(async () => (await page.locator('#import-message').getAttribute('class')) ?? '').toContain('error');
    await shot(page, 'models-import-missing-folder');
  });

  test('settings: sources shown, values saved (upload limit in MB), per-field errors from the server', async () => {
    await ensureSetUp(app, adminPassword);
    await signedInAt(page, app, adminPassword, '/admin/settings');
    const uploadLimit = page.getByLabel('Upload size limit (MB)');
    await poll(() => uploadLimit.inputValue()).toBe('50');
    expect(await page.locator('[data-key="MAX_FILE_SIZE"] [data-source]').textContent()).toContain('default');
    for (const legend of ['Identity provider', 'Access', 'Voice profiles', 'Processing']) {
      expect(await page.locator('legend', { hasText: legend }).count()).toBe(1);
    }
    await expectAccessibleBasics(page);
    await shot(page, 'settings');

    await uploadLimit.fill('100');
    await page.getByLabel('Audio retention (days)').fill('14');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => page.locator('#settings-save-message').textContent()).toContain('Saved');
    expect(app.services.config.MAX_FILE_SIZE).toBe(100 * 1024 * 1024);
    expect(app.services.config.AUDIO_RETENTION_DAYS).toBe(14);
    expect(await page.locator('[data-key="MAX_FILE_SIZE"] [data-source]').textContent()).toContain('stored');

    // Medium above high is refused by the server, and the page puts the reason at the field.
    const medium = page.getByLabel('Medium-confidence match threshold');
    await medium.fill('0.95');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => medium.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#setting-SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD-error').textContent()).toMatch(/\S/);
    expect(await page.locator('#settings-save-message').textContent()).toContain('Not saved');
    await shot(page, 'settings-field-error');

    // Identity-provider settings apply at the next start: the page says so.
    await medium.fill('0.75');
    await page.getByLabel('Issuer').fill('https://idp.example.test');
    await page.getByLabel('Audience (client id)').fill('callscope-app');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => page.locator('#settings-save-message').textContent()).toContain('Restart');
    expect(await page.locator('[data-key="OIDC_ISSUER"]').textContent()).toContain('Restart required');
    // Put them back so the rest of the file runs against the same configuration.
    await page.getByLabel('Issuer').fill('');
    await page.getByLabel('Audience (client id)').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => page.locator('#settings-save-message').textContent()).toContain('Saved');

    // The audit list shows the changes.
    await poll(() => page.locator('#audit-body').textContent()).toMatch(/setting/i);
  });

  test('settings: the transcription vocabulary is a textarea, one term per line; too many terms are refused at the field', async () => {
    await ensureSetUp(app, adminPassword);
    await signedInAt(page, app, adminPassword, '/admin/settings');
    const vocabulary = page.locator('textarea#setting-TRANSCRIPTION_VOCABULARY');
    await poll(() => vocabulary.count()).toBe(1);
    expect(await page.locator('#group-inference [data-key="TRANSCRIPTION_VOCABULARY"]').count()).toBe(1);
    await vocabulary.fill('Callscope\nZentrix\nDr. Okonkwo');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => page.locator('#settings-save-message').textContent()).toContain('Saved');
    expect(app.services.config.TRANSCRIPTION_VOCABULARY).toBe('Callscope\nZentrix\nDr. Okonkwo');
    await poll(() => vocabulary.inputValue()).toBe('Callscope\nZentrix\nDr. Okonkwo');
    await expectAccessibleBasics(page);

    await vocabulary.fill(Array.from({ length: 101 }, (_, index) => `Term ${index}`).join('\n'));
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => vocabulary.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#setting-TRANSCRIPTION_VOCABULARY-error').textContent()).toContain('at most 100');
    await shot(page, 'settings-vocabulary-error');
    // Back to unset, so the rest of the file runs against the same configuration.
    await vocabulary.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await poll(() => page.locator('#settings-save-message').textContent()).toContain('Saved');
    expect(app.services.config.TRANSCRIPTION_VOCABULARY).toBeUndefined();
  });

  test('API key: generated and rotated on the settings page, shown once; the old key is refused and the new one accepted by /api', async () => {
    await ensureSetUp(app, adminPassword);
    await signedInAt(page, app, adminPassword, '/admin/settings');
    const me = (key?: string) => fetch(`${app.baseUrl}/api/users/me`, { headers: { 'x-local-user-id': 'alice', ...(key ? { 'x-api-key': key } : {}) } });
    page.on('dialog', (dialog) => void dialog.accept());

    const generate = page.getByRole('button', { name: 'Generate API key' });
    await poll(() => generate.isVisible()).toBe(true);
    await generate.click();
    const keyField = page.getByLabel('New API key');
    await poll(() => keyField.inputValue()).toMatch(/\S{16,}/);
    const firstKey = await keyField.inputValue();
    expect(await page.getByText('it is shown only this once').isVisible()).toBe(true);
    expect((await me(firstKey)).status).toBe(200);
    expect((await me()).status).toBe(401);
    await page.getByRole('button', { name: 'Copy' }).click();
    await poll(() => page.locator('#api-key-message').textContent()).toMatch(/copied|Could not copy/);
    await page.getByRole('button', { name: /I have stored the key/ }).click();
    expect(await keyField.isVisible()).toBe(false);
    expect(await keyField.inputValue()).toBe('');

    // Rotate: confirmed in a dialog; the new key is shown once, the old one stops working.
    await page.getByRole('button', { name: 'Rotate API key' }).click();
    await poll(async () => { const value = await keyField.inputValue(); return value !== '' && value !== firstKey; }).toBe(true);
    const secondKey = await keyField.inputValue();
    await shot(page, 'settings-api-key-shown-once');
    expect((await me(firstKey)).status).toBe(401);
    expect((await me(secondKey)).status).toBe(200);
    // Shown once: a reload does not bring it back, and it is in no URL or storage.
    expect(page.url()).not.toContain(secondKey);
    await page.reload();
    await poll(() => page.getByRole('button', { name: 'Rotate API key' }).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(secondKey);
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })')).not.toContain(secondKey);

    // Remove: /api needs no key again.
    await page.getByRole('button', { name: 'Remove API key' }).click();
    await poll(() => page.locator('#api-key-message').textContent()).toContain('removed');
    expect((await me()).status).toBe(200);
    await poll(() => page.locator('#audit-body').textContent()).toMatch(/api.?key/i);
    await shot(page, 'settings-audit');
  });

  test('change password in the dialog: the wrong current password is refused, the new one signs in', async () => {
    await ensureSetUp(app, adminPassword);
    await signedInAt(page, app, adminPassword, '/admin/status');
    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the admin password' });
    await poll(() => dialog.isVisible()).toBe(true);
    await expectAccessibleBasics(page);
    const newPassword = 'a much longer passphrase 2';
    await dialog.getByLabel('Current password').fill('not the password at all');
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Repeat the new password').fill(newPassword);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await poll(() => dialog.locator('.message').textContent()).toMatch(/current password is (wrong|not correct)/);
    expect(await dialog.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'change-password-refused', { fullPage: false });

    await dialog.getByLabel('Current password').fill(adminPassword);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await poll(() => dialog.locator('.message').textContent()).toContain('Password changed');
    adminPassword = newPassword;
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/admin/login');
    await signIn(page, app, newPassword);
  });

  test('first start without models: the status page says calls wait and links to Models; Models downloads the recommended models with progress', async () => {
    const mirror = await startModelMirror();
    const modelsDir = mkdtempSync(join(tmpdir(), 'callscope-first-start-'));
    const site = await startTestApp({
      SEGMENTATION_MODEL: join(modelsDir, 'segmentation.onnx'), WHISPER_MODEL: join(modelsDir, 'whisper.bin'),
      VAD_MODEL: join(modelsDir, 'vad.bin'), EMBEDDING_MODEL: join(modelsDir, 'embedding.onnx'), LLM_MODEL: join(modelsDir, 'llm.gguf'),
      MODELS_MIRROR_URL: mirror.url,
    });
    const processing = await startProcessing(site.services, pino({ level: 'silent' }));
    try {
      await issueSetupLink(site);
      await ensureSetUp(site, firstPassword);
      await uploadCall(site.as('alice'));
      await signedInAt(page, site, firstPassword, '/admin/status');
      const waiting = page.locator('#waiting-message');
      await poll(() => waiting.textContent()).toContain('1 queued call waits');
      expect(await waiting.textContent()).toMatch(/speaker segmentation model \(segmentation\.onnx\) and the speech recognition model \(whisper\.bin\) are not installed/);
      expect(await waiting.textContent()).not.toContain(modelsDir);
      expect(await waiting.getAttribute('class')).toContain('warning');
      await shot(page, 'status-calls-wait-for-models');

      await waiting.getByRole('link', { name: 'Open Models' }).click();
      await page.waitForURL('**/admin/models');
      await page.getByRole('button', { name: 'Download recommended models' }).click();
      await poll(() => page.locator('#fetch-message').textContent()).toMatch(/Download finished: 2 installed, 2 failed/);
      const stateOf = (slot: string) => page.locator(`#fetch-body tr[data-slot="${slot}"]`).getAttribute('data-state');
      expect(await stateOf('segmentation')).toBe('downloaded');
      expect(await stateOf('vad')).toBe('downloaded');
      expect(await stateOf('whisper')).toBe('failed');
      expect(await page.locator('#fetch-body tr[data-slot="whisper"]').textContent()).toContain('404');
      // The slots table is read again: segmentation is now installed and verified.
      await poll(() => page.locator('tr[data-config-key="SEGMENTATION_MODEL"] [data-check]').getAttribute('data-check')).toBe('ok');
      await expectAccessibleBasics(page);
      await shot(page, 'models-download-finished');
    } finally {
      await processing.stop(0);
      await site.close();
      await mirror.close();
      rmSync(modelsDir, { recursive: true, force: true });
    }
  });
});
