import { describe, expect, it } from 'vitest';
import { TurnBuilder } from '../../../../src/pipeline/diarization/speakers/TurnBuilder.js';

/** Feeds frames 0… of 0.1 s; `pattern[speaker]` has '1' where the speaker is active. */
function turnsOf(pattern: string[], maxGapSeconds: number, minTurnSeconds: number) {
  const builder = new TurnBuilder({ frameSeconds: 0.1, maxGapSeconds, minTurnSeconds });
  const frames = Math.max(...pattern.map((row) => row.length));
  for (let frame = 0; frame < frames; frame++) builder.add(frame, pattern.flatMap((row, speaker) => (row[frame] === '1' ? [speaker] : [])));
  return builder.finish().map((run) => [run.speaker, Number(run.startSeconds.toFixed(2)), Number(run.endSeconds.toFixed(2))]);
}

describe('TurnBuilder', () => {
  it('bridges a speaker\'s pauses up to the gap limit and drops turns shorter than the minimum', () => {
    expect(turnsOf(['1110011000001'], 0.2, 0.2)).toEqual([[0, 0, 0.7]]);
    expect(turnsOf(['1110001100011'], 0.2, 0.2)).toEqual([[0, 0, 0.3], [0, 0.6, 0.8], [0, 1.1, 1.3]]);
  });

  it('keeps speakers apart, overlaps included, sorted by start', () => {
    expect(turnsOf(['111100000', '000111111'], 0, 0.1)).toEqual([[0, 0, 0.4], [1, 0.3, 0.9]]);
  });
});
