/** A stretch of time, `[start, end]` in seconds, start ≤ end. */
export type Interval = [number, number];

/** The intervals merged where they overlap or touch: sorted, disjoint. */
export function intervalUnion(intervals: readonly Interval[]): Interval[] {
  const merged: Interval[] = [];
  for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Seconds covered by both sets of intervals (each a union: sorted and disjoint, see {@link intervalUnion}). */
export function overlapSeconds(a: readonly Interval[], b: readonly Interval[]): number {
  let seconds = 0;
  for (const [startA, endA] of a) {
    for (const [startB, endB] of b) seconds += Math.max(0, Math.min(endA, endB) - Math.max(startA, startB));
  }
  return seconds;
}

/** What of `from` (a union) lies outside every interval of `removed` (a union). */
export function withoutIntervals(from: readonly Interval[], removed: readonly Interval[]): Interval[] {
  const left: Interval[] = [];
  for (const [start, end] of from) {
    let cursor = start;
    for (const [removedStart, removedEnd] of removed) {
      if (removedEnd <= cursor || removedStart >= end) continue;
      if (removedStart > cursor) left.push([cursor, removedStart]);
      cursor = Math.max(cursor, removedEnd);
    }
    if (cursor < end) left.push([cursor, end]);
  }
  return left;
}
