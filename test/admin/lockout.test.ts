import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { adminPassword, completeSetup, errorCodeOf, postJson } from './adminClient.js';

let testApp: TestApp;
let realClock: () => number;
beforeEach(async () => {
  testApp = await startTestApp();
  realClock = testApp.services.clock;
  await completeSetup(testApp);
});
afterEach(async () => { await testApp.close(); });

const signInWith = (password: string) => postJson(testApp, '/admin/api/session', { password });

describe('sign-in lockout', () => {
  test('a wrong password is 401; after 5 within 15 minutes even the right one gets 429 with Retry-After', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await signInWith(`wrong password ${attempt}`);
      expect(response.status).toBe(401);
      expect(await errorCodeOf(response)).toBe('admin_auth_required');
    }
    const locked = await signInWith(adminPassword);
    expect(locked.status).toBe(429);
    const body = (await locked.json()) as { error: { code: string; details: { retryAfterSeconds: number } } };
    expect(body.error.code).toBe('admin_locked');
    expect(body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(locked.headers.get('retry-after')).toBe(String(body.error.details.retryAfterSeconds));
  });

  test('the lock ends; each further failure locks twice as long; success resets', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) await signInWith('wrong password');
    const first = (await (await signInWith(adminPassword)).json()) as { error: { details: { retryAfterSeconds: number } } };

    let now = realClock() + first.error.details.retryAfterSeconds * 1000 + 1000;
    testApp.services.clock = () => now;
    expect((await signInWith('wrong again')).status).toBe(401);
    const second = (await (await signInWith(adminPassword)).json()) as { error: { details: { retryAfterSeconds: number } } };
    expect(second.error.details.retryAfterSeconds).toBeGreaterThanOrEqual(first.error.details.retryAfterSeconds * 2 - 1);

    now += second.error.details.retryAfterSeconds * 1000 + 1000;
    expect((await signInWith(adminPassword)).status).toBe(200);
    // Counts start again: four more failures do not lock.
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await signInWith('wrong')).status).toBe(401);
    expect((await signInWith(adminPassword)).status).toBe(200);
  });

  test('parallel guesses cannot slip past the lock', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => signInWith(`parallel guess ${index}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});
