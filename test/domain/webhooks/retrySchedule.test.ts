import { describe, expect, test } from 'vitest';
import { retryDelayMs, retryJitter, standardRetryDelaysMs } from '../../../src/domain/webhooks/retrySchedule.js';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

describe('webhook retry backoff', () => {
  test('follows the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h), then 10 h for every further attempt', () => {
    const middle = () => 0.5; // no jitter either way
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((failed) => retryDelayMs(failed, middle))).toEqual([5 * second, 5 * minute, 30 * minute, 2 * hour, 5 * hour, 10 * hour, 10 * hour, 10 * hour]);
    expect(standardRetryDelaysMs).toHaveLength(6);
  });

  test('jitter spreads each wait over ±20 % of its scheduled length', () => {
    expect(retryJitter).toBe(0.2);
    expect(retryDelayMs(2, () => 0)).toBe(4 * minute);
    expect(retryDelayMs(2, () => 0.999_999)).toBe(Math.round(6 * minute - 0.4 * 5 * minute * 0.000_001));
    for (let sample = 0; sample < 200; sample += 1) {
      const wait = retryDelayMs(3);
      expect(wait).toBeGreaterThanOrEqual(24 * minute);
      expect(wait).toBeLessThan(36 * minute);
    }
  });

  test('a count below 1 is taken as the first failure, and another schedule can be given', () => {
    expect(retryDelayMs(0, () => 0.5)).toBe(5 * second);
    expect(retryDelayMs(3, () => 0.5, [10, 20])).toBe(20);
  });
});
