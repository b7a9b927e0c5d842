import { describe, expect, it } from 'vitest';
import { intervalUnion, overlapSeconds, withoutIntervals } from '../../scripts/evaluation/intervals.js';

describe('interval arithmetic of eval:vad', () => {
  it('merges overlapping and touching intervals, in time order', () => {
    expect(intervalUnion([[5, 6], [1, 2], [1.5, 3], [3, 4]])).toEqual([[1, 4], [5, 6]]);
  });

  it('counts the seconds two unions share', () => {
    expect(overlapSeconds([[0, 2], [4, 6]], [[1, 5]])).toBeCloseTo(2);
    expect(overlapSeconds([[0, 1]], [[2, 3]])).toBe(0);
  });

  it('removes one union from another, keeping what lies outside it', () => {
    expect(withoutIntervals([[0, 10]], [[1, 2], [5, 12]])).toEqual([[0, 1], [2, 5]]);
    expect(withoutIntervals([[0, 1]], [])).toEqual([[0, 1]]);
  });
});
