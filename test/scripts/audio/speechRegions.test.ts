import { describe, expect, it } from 'vitest';
import { speechLevelThreshold, speechRegions, speechTurns } from '../../../scripts/audio/speechRegions.js';

function expectRegions(regions: { start: number; end: number }[], expected: [number, number][]): void {
  expect(regions).toHaveLength(expected.length);
  regions.forEach(({ start, end }, index) => {
    expect(Math.abs(start / 16_000 - expected[index]![0])).toBeLessThanOrEqual(0.01 + 1e-9);
    expect(Math.abs(end / 16_000 - expected[index]![1])).toBeLessThanOrEqual(0.01 + 1e-9);
  });
}

/** `seconds` of a floor (by default faint: −63 dBFS) with a loud tone (−13 dBFS, speech's stand-in) over each `[from, to)`, seconds. */
function toneOver(stretches: [number, number][], seconds = 4, floor = 0.001): Float32Array {
  const samples = new Float32Array(seconds * 16_000).map((_, index) => floor * Math.sin(index));
  for (const [from, to] of stretches) for (let index = from * 16_000; index < to * 16_000; index++) samples[index] = 0.3 * Math.sin(index / 5);
  return samples;
}

describe('speech regions (the evaluations\' reference speech)', () => {
  it('speechRegions: bridges pauses under 0.3 s, splits at longer ones, ignores the floor', () => {
    const samples = toneOver([[0.5, 1.5], [1.7, 2], [2.6, 3.5]]);
    expectRegions(speechRegions(samples), [[0.5, 2], [2.6, 3.5]]);
  });

  it('speechRegions: measures the voice band, so thumps and rumble below it are no speech', () => {
    const samples = toneOver([[0.5, 1.5], [2.6, 3.5]]);
    // A 40 Hz thump as loud as the speech every 0.3 s in the pause, rising and falling over 50 ms
    // (reader 1688's handled microphone).
    const thumpSamples = 800;
    for (const thump of [1.7, 2.0, 2.3]) {
      for (let offset = 0; offset < thumpSamples; offset++) {
        const envelope = 0.5 - 0.5 * Math.cos((2 * Math.PI * offset) / thumpSamples);
        samples[thump * 16_000 + offset] = 0.6 * envelope * Math.sin((2 * Math.PI * 40 * offset) / 16_000);
      }
    }
    expectRegions(speechRegions(samples), [[0.5, 1.5], [2.6, 3.5]]);
  });

  it('judges a piece cut from a recording by the recording\'s own levels: a quiet tail above its floor is no speech', () => {
    // A recording whose room sits 30 dB under the voice (−43 dBFS)…
    const recording = toneOver([[0.5, 1.5], [2.6, 3.5]], 4, 0.01);
    // …and a 1.2 s piece of it as sox's silence trim leaves one: 0.1 s of digital silence, 0.7 s
    // of the voice, then 0.4 s of breath 3.5 dB above the room. On its own the piece's floor is the
    // digital silence, and the breath passes for speech; by the recording's levels it does not.
    const piece = new Float32Array(1.2 * 16_000);
    for (let index = 0.1 * 16_000; index < piece.length; index++) piece[index] = (index < 0.8 * 16_000 ? 0.3 : 0.015) * Math.sin(index / 5);
    expectRegions(speechRegions(piece), [[0.1, 1.2]]);
    expectRegions(speechRegions(piece, speechLevelThreshold(recording)), [[0.1, 0.8]]);
  });

  it('speechTurns: the regions as a speaker\'s turns, in seconds of the recording the samples are laid into', () => {
    const turns = speechTurns(toneOver([[0.5, 1.5], [2.6, 3.5]]), 'A', 16_000 * 10);
    expect(turns.map((turn) => turn.speaker)).toEqual(['A', 'A']);
    expect(turns[0]!.startSeconds).toBeCloseTo(10.5, 1);
    expect(turns[1]!.endSeconds).toBeCloseTo(13.5, 1);
  });
});
