import { describe, expect, test } from 'vitest';
import { formatClockTime, formatCueTime } from '../../../src/domain/exports/formatTimestamp.js';

describe('formatClockTime', () => {
  test.each([
    [0, '00:00:00'], [62.9, '00:01:02'], [3599.99, '00:59:59'], [3600, '01:00:00'], [3723.5, '01:02:03'], [360_000, '100:00:00'], [-1, '00:00:00'],
  ])('%s s is %s', (seconds, expected) => {
    expect(formatClockTime(seconds)).toBe(expected);
  });
});

describe('formatCueTime', () => {
  test('SubRip uses a comma before the milliseconds, WebVTT a dot', () => {
    expect(formatCueTime(1, ',')).toBe('00:00:01,000');
    expect(formatCueTime(4.5, '.')).toBe('00:00:04.500');
  });

  test('rounds to the millisecond, carrying into the next second and hour', () => {
    expect(formatCueTime(65.0004, ',')).toBe('00:01:05,000');
    expect(formatCueTime(3599.9996, ',')).toBe('01:00:00,000');
    expect(formatCueTime(3723.0625, '.')).toBe('01:02:03.063');
    expect(formatCueTime(36_000.001, '.')).toBe('10:00:00.001');
  });
});
