import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { setupLinkFileName } from '../../src/admin/credentials/AdminSetupLink.js';
import type { TestApp } from '../helpers/startTestApp.js';

export const adminPassword = 'correct horse battery staple';

/** A signed-in browser: the session cookie and CSRF token it holds. */
export interface AdminBrowser {
  cookie: string;
  csrfToken: string;
  /** fetch with the cookie, JSON bodies, and the CSRF token on state-changing requests. */
  fetch(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

/** Issues the setup link as `server.ts` does once the server listens (the same link on every call). */
export function issueSetupLink(testApp: TestApp): Promise<string | undefined> {
  return testApp.services.admin.setupLink.prepare(testApp.app.server.address());
}

/** The setup token from the link written to DATA_DIR (issued first if need be). */
export async function setupTokenOf(testApp: TestApp): Promise<string> {
  await issueSetupLink(testApp);
  const link = readFileSync(join(testApp.dataDir, setupLinkFileName), 'utf8').trim();
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** POST a JSON body to the admin API without a session. */
export function postJson(testApp: TestApp, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${testApp.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** The `callscope_admin=<id>` pair of a response's Set-Cookie. */
export function sessionCookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0]!;
  expect(pair).toMatch(/^callscope_admin=[A-Za-z0-9_-]{43}$/);
  return pair;
}

export function browserOf(testApp: TestApp, cookie: string, csrfToken: string): AdminBrowser {
  return {
    cookie,
    csrfToken,
    fetch: (path, init = {}) => {
      const method = init.method ?? 'GET';
      const headers: Record<string, string> = { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }), ...init.headers };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      return fetch(`${testApp.baseUrl}${path}`, { method, headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
    },
  };
}

/** Sets the admin password through the setup link and returns the signed-in browser. */
export async function completeSetup(testApp: TestApp, password = adminPassword): Promise<AdminBrowser> {
  const response = await postJson(testApp, '/admin/api/setup', { token: await setupTokenOf(testApp), password });
  expect(response.status).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return browserOf(testApp, sessionCookieOf(response), csrfToken);
}

/** Signs in with the password (setup done before). */
export async function signIn(testApp: TestApp, password = adminPassword): Promise<AdminBrowser> {
  const response = await postJson(testApp, '/admin/api/session', { password });
  expect(response.status).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return browserOf(testApp, sessionCookieOf(response), csrfToken);
}

export async function errorCodeOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}
