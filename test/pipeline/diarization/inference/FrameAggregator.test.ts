import { describe, expect, it } from 'vitest';
import { FrameAggregator, roundHalfToEven } from '../../../../src/pipeline/diarization/inference/FrameAggregator.js';

/** A window's activity from per-frame masks written as a string of digits (bit k = local speaker k). */
const masks = (text: string) => Uint8Array.from(text, (digit) => Number(digit));

function collect(framesPerWindow: number) {
  const frames: [number, number[]][] = [];
  const aggregator = new FrameAggregator(framesPerWindow, (frame, speakers) => frames.push([frame, speakers]));
  return { aggregator, frames };
}

describe('FrameAggregator', () => {
  it('counts speakers per frame as the rounded mean over covering windows and picks the best-scoring ones', () => {
    const { aggregator, frames } = collect(4);
    // Window A covers frames 0-3, window B frames 2-5; local 0 of A and local 1 of B are speaker 0.
    aggregator.add({ startFrame: 0, activity: masks('1111') }, [0, -1, -1]);
    aggregator.add({ startFrame: 2, activity: masks('2222') }, [-1, 0, -1]);
    aggregator.finish(6);
    expect(frames).toEqual([[0, [0]], [1, [0]], [2, [0]], [3, [0]], [4, [0]], [5, [0]]]);
  });

  it('rounds a mean count of exactly one half down, as numpy\'s rint does', () => {
    const { aggregator, frames } = collect(2);
    aggregator.add({ startFrame: 0, activity: masks('11') }, [0, -1, -1]);
    aggregator.add({ startFrame: 0, activity: masks('00') }, [0, -1, -1]);
    aggregator.finish(2);
    expect(frames).toEqual([[0, []], [1, []]]);
    expect([0.5, 1.5, 2.5, 0.49, 0.51].map(roundHalfToEven)).toEqual([0, 2, 2, 0, 1]);
  });

  it('keeps two speakers in overlapped frames and only the count\'s worth elsewhere', () => {
    const { aggregator, frames } = collect(3);
    // Frame 1: both local speakers of both windows active (count 2). Frame 2: one window says 2 speakers, the other 1 → 1.5 → 2.
    aggregator.add({ startFrame: 0, activity: masks('133') }, [4, 7, -1]);
    aggregator.add({ startFrame: 1, activity: masks('322') }, [4, 7, -1]);
    aggregator.finish(4);
    expect(frames).toEqual([[0, [4]], [1, [4, 7]], [2, [7, 4]], [3, [7]]]);
  });

  it('emits frames as soon as no later window can cover them, and exposes the covered activity for linking', () => {
    const { aggregator, frames } = collect(4);
    aggregator.add({ startFrame: 0, activity: masks('1100') }, [0, -1, -1]);
    const covered = aggregator.coveredActivity(2);
    expect(covered).toMatchObject({ frames: 2, speakers: 1 });
    expect(Array.from(covered.values)).toEqual([0, 0]);
    expect(Array.from(aggregator.coveredActivity(0).values)).toEqual([1, 1, 0, 0]);
    aggregator.add({ startFrame: 2, activity: masks('0011') }, [-1, -1, -1]);
    expect(frames.map(([frame]) => frame)).toEqual([0, 1]);
  });

  it('refuses windows out of start order', () => {
    const { aggregator } = collect(2);
    aggregator.add({ startFrame: 5, activity: masks('11') }, [0, -1, -1]);
    expect(() => aggregator.add({ startFrame: 3, activity: masks('11') }, [0, -1, -1])).toThrow(/start order/);
  });
});
