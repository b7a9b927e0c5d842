import { describe, expect, it } from 'vitest';
import { foldExtraSpeakers } from '../../../../src/pipeline/diarization/speakers/foldExtraSpeakers.js';

describe('foldExtraSpeakers (window linking with --speakers N)', () => {
  it('folds a speaker that reappeared after a long silence into the kept speaker who had been silent longest', () => {
    const runs = [
      { speaker: 0, startSeconds: 0, endSeconds: 5 },
      { speaker: 1, startSeconds: 5.5, endSeconds: 20 },
      { speaker: 2, startSeconds: 20.5, endSeconds: 24 },
      { speaker: 1, startSeconds: 24.5, endSeconds: 30 },
    ];
    expect(foldExtraSpeakers(runs, 2).map((run) => run.speaker)).toEqual([0, 1, 0, 1]);
  });

  it('never folds into a speaker it talks over while another one is free', () => {
    const runs = [
      { speaker: 0, startSeconds: 0, endSeconds: 10 },
      { speaker: 1, startSeconds: 10.5, endSeconds: 17.9 },
      { speaker: 2, startSeconds: 18, endSeconds: 19 },
      { speaker: 0, startSeconds: 25.5, endSeconds: 27 },
      { speaker: 2, startSeconds: 25, endSeconds: 26 },
    ];
    // Speaker 0 had been silent longer when speaker 2 began, but talks over it at 25.5 s.
    expect(foldExtraSpeakers(runs, 2).map((run) => run.speaker)).toEqual([0, 1, 1, 0, 1]);
  });

  it('changes nothing when there are no more speakers than asked', () => {
    const runs = [{ speaker: 0, startSeconds: 0, endSeconds: 1 }, { speaker: 1, startSeconds: 1, endSeconds: 2 }];
    expect(foldExtraSpeakers(runs, 2)).toEqual(runs);
    expect(foldExtraSpeakers(runs, 3)).toEqual(runs);
  });
});
