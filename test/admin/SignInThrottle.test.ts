import { describe, expect, test } from 'vitest';
import { SignInThrottle } from '../../src/admin/auth/SignInThrottle.js';

const minute = 60_000;
const keysFor = (ip: string) => [`ip:${ip}`, 'account'];

describe('SignInThrottle', () => {
  test('five failures from different addresses lock the account for everyone', () => {
    const throttle = new SignInThrottle();
    for (let index = 1; index <= 5; index += 1) throttle.recordFailure(keysFor(`10.0.0.${index}`), 0);
    expect(throttle.retryAfterSeconds(keysFor('10.0.0.99'), 1000)).toBe(59);
  });

  test('failures older than 15 minutes are forgotten', () => {
    const throttle = new SignInThrottle();
    for (let index = 0; index < 4; index += 1) throttle.recordFailure(keysFor('10.0.0.1'), index * minute);
    throttle.recordFailure(keysFor('10.0.0.1'), 16 * minute);
    expect(throttle.retryAfterSeconds(keysFor('10.0.0.1'), 16 * minute)).toBe(0);
  });

  test('locks in a row double, up to an hour', () => {
    const throttle = new SignInThrottle();
    let now = 0;
    for (let index = 0; index < 5; index += 1) throttle.recordFailure(['k'], now);
    const locks: number[] = [];
    for (let lock = 0; lock < 8; lock += 1) {
      const seconds = throttle.retryAfterSeconds(['k'], now);
      locks.push(seconds);
      now += seconds * 1000;
      throttle.recordFailure(['k'], now); // one more wrong guess as soon as the lock ends
    }
    expect(locks).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });

  test('success clears the keys', async () => {
    const throttle = new SignInThrottle();
    for (let index = 0; index < 5; index += 1) throttle.recordFailure(['k'], 0);
    expect(await throttle.attempt(['k'], () => 0, async () => true)).toEqual({ retryAfterSeconds: 60 });
    throttle.recordSuccess(['k']);
    expect(await throttle.attempt(['k'], () => 0, async () => true)).toEqual({ verified: true });
  });
});
