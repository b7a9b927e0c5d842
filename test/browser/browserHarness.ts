import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/startTestApp.js';

/** Debian's chromium (apt-get install -y chromium); the browser tests are skipped without it. */
export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);
/** Screenshots for a person to look at (git-ignored). */
export const screenshotDir = join(fileURLToPath(new URL('../../', import.meta.url)), 'test-artifacts', 'screenshots');

/** Headless Chromium as this machine runs it: no sandbox (root), no GPU, no background traffic. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(screenshotDir, { recursive: true });
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/**
 * A page of a new browser context signed in to the admin area with the session cookie
 * (`name=value`), and the script errors and console errors it reports (a test expects none).
 */
export async function signedInAdminPage(browser: Browser, app: TestApp, cookie: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: app.baseUrl }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  return { page, problems };
}
