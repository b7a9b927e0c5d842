import { describe, expect, it } from 'vitest';
import { activeCount, decodePowerset, isActive } from '../../../../src/pipeline/diarization/inference/decodePowerset.js';

/** Log-probabilities favouring one class per frame; shape: (frames, 7). */
function logits(classes: number[]): Float32Array {
  const values = new Float32Array(classes.length * 7).fill(-5);
  classes.forEach((winner, frame) => { values[frame * 7 + winner] = -0.1; });
  return values;
}

describe('decodePowerset', () => {
  it('maps each frame\'s most probable class to its local speakers, in the model\'s class order', () => {
    // Classes: {none}, {1}, {2}, {3}, {1,2}, {1,3}, {2,3}.
    const activity = decodePowerset(logits([0, 1, 2, 3, 4, 5, 6]), 1, 7);
    expect(Array.from(activity)).toEqual([0b000, 0b001, 0b010, 0b100, 0b011, 0b101, 0b110]);
    expect(Array.from(activity, activeCount)).toEqual([0, 1, 1, 1, 2, 2, 2]);
    expect(isActive(activity[5]!, 0) && isActive(activity[5]!, 2) && !isActive(activity[5]!, 1)).toBe(true);
  });

  it('decodes a batch window by window, frame by frame', () => {
    // shape: (2 windows, 3 frames, 7)
    const activity = decodePowerset(logits([1, 1, 0, 2, 6, 6]), 2, 3);
    expect(Array.from(activity)).toEqual([1, 1, 0, 2, 6, 6]);
  });

  it('takes the argmax, not a threshold: a flat frame with a slight lead still names its class', () => {
    const values = new Float32Array(7).fill(Math.log(1 / 7));
    values[4]! += 0.01;
    expect(Array.from(decodePowerset(values, 1, 1))).toEqual([0b011]);
  });
});
