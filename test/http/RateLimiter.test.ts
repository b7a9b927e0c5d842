import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RateLimiter } from '../../src/http/RateLimiter.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';

describe('RateLimiter', () => {
  test('allows a burst, then refuses with the whole seconds until the next token', () => {
    const limiter = new RateLimiter(60, 5);
    for (let request = 0; request < 5; request += 1) expect(limiter.take('alice', 0)).toBe(0);
    expect(limiter.take('alice', 0)).toBe(1);
    expect(limiter.take('alice', 500)).toBe(1);
  });

  test('refills at the per-minute rate', () => {
    const limiter = new RateLimiter(60, 5);
    for (let request = 0; request < 5; request += 1) limiter.take('alice', 0);
    // 60 per minute: one token per second.
    expect(limiter.take('alice', 999)).toBeGreaterThan(0);
    expect(limiter.take('alice', 1_000)).toBe(0);
    expect(limiter.take('alice', 1_000)).toBeGreaterThan(0);
    expect(limiter.take('alice', 3_000)).toBe(0);
    expect(limiter.take('alice', 3_000)).toBe(0);
    expect(limiter.take('alice', 3_000)).toBeGreaterThan(0);
  });

  test('a slow rate asks for a longer wait', () => {
    const limiter = new RateLimiter(6, 1);
    expect(limiter.take('alice', 0)).toBe(0);
    // 6 per minute: one token every 10 s.
    expect(limiter.take('alice', 0)).toBe(10);
    expect(limiter.take('alice', 4_000)).toBe(6);
    expect(limiter.take('alice', 10_000)).toBe(0);
  });

  test('never holds more than the burst, however long the user was idle', () => {
    const limiter = new RateLimiter(60, 5);
    limiter.take('alice', 0);
    const later = 3_600_000;
    for (let request = 0; request < 5; request += 1) expect(limiter.take('alice', later)).toBe(0);
    expect(limiter.take('alice', later)).toBeGreaterThan(0);
  });

  test('keeps one bucket per key', () => {
    const limiter = new RateLimiter(60, 2);
    limiter.take('alice', 0);
    limiter.take('alice', 0);
    expect(limiter.take('alice', 0)).toBeGreaterThan(0);
    expect(limiter.take('bob', 0)).toBe(0);
  });

  test('sweeping forgets only refilled buckets: a drained user stays limited', () => {
    const limiter = new RateLimiter(60, 5);
    for (let request = 0; request < 5; request += 1) limiter.take('alice', 0);
    limiter.sweep(0);
    expect(limiter.take('alice', 0)).toBeGreaterThan(0);
  });

  test('a rate of 0 turns the limit off', () => {
    const limiter = new RateLimiter(0, 1);
    expect(limiter.enabled).toBe(false);
    for (let request = 0; request < 10; request += 1) expect(limiter.take('alice', 0)).toBe(0);
  });
});

describe('the per-user rate limit over HTTP', () => {
  let testApp: TestApp;
  // One token a minute: the burst cannot refill while the test runs, however slow the machine.
  beforeAll(async () => { testApp = await startTestApp({ RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_BURST: '5' }); });
  afterAll(async () => { await testApp.close(); });

  test('the request after the burst gets 429 rate_limited with Retry-After; another user is unaffected', async () => {
    const alice = testApp.as('alice');
    for (let request = 0; request < 5; request += 1) expect((await alice('/api/users/me')).status).toBe(200);

    const limited = await alice('/api/users/me');
    expect(limited.status).toBe(429);
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const body = (await limited.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('rate_limited');
    expect(typeof body.error.message).toBe('string');

    expect((await testApp.as('bob')('/api/users/me')).status).toBe(200);
  });

  test('health probes are not rate limited', async () => {
    for (let request = 0; request < 8; request += 1) expect((await fetch(`${testApp.baseUrl}/api/health`)).status).toBe(200);
  });
});
