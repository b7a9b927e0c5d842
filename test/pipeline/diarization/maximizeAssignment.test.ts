import { describe, expect, it } from 'vitest';
import { maximizeAssignment } from '../../../src/pipeline/diarization/maximizeAssignment.js';

/** Best total over all one-to-one pairings, by trying them all. */
function bruteForce(scores: number[][]): number {
  const columns = scores[0]?.length ?? 0;
  const best = (row: number, used: Set<number>): number => {
    if (row === scores.length) return 0;
    let value = best(row + 1, used); // row left unpaired
    for (let column = 0; column < columns; column++) {
      if (used.has(column)) continue;
      used.add(column);
      value = Math.max(value, scores[row]![column]! + best(row + 1, used));
      used.delete(column);
    }
    return value;
  };
  return best(0, new Set());
}

const total = (scores: number[][], pairing: number[]) => pairing.reduce((sum, column, row) => sum + (column >= 0 ? scores[row]![column]! : 0), 0);

describe('maximizeAssignment', () => {
  it('finds the pairing with the largest total, where greedy choice would not', () => {
    const scores = [[9, 8], [8, 0]];
    expect(maximizeAssignment(scores)).toEqual([1, 0]);
  });

  it('matches exhaustive search on random square and rectangular matrices', () => {
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const [rows, columns] of [[3, 3], [2, 5], [5, 2], [4, 4], [1, 3], [3, 1]] as const) {
      for (let trial = 0; trial < 20; trial++) {
        const scores = Array.from({ length: rows }, () => Array.from({ length: columns }, () => Math.round(random() * 100)));
        const pairing = maximizeAssignment(scores);
        expect(new Set(pairing.filter((column) => column >= 0)).size).toBe(Math.min(rows, columns));
        expect(total(scores, pairing)).toBe(bruteForce(scores));
      }
    }
  });

  it('leaves every row unpaired when there are no columns', () => {
    expect(maximizeAssignment([[], []])).toEqual([-1, -1]);
    expect(maximizeAssignment([])).toEqual([]);
  });
});
