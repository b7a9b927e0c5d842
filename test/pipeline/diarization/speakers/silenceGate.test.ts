import { describe, expect, test } from 'vitest';
import { findSilentStretches, SilenceFinder, trimTurnsOutOfSilence, type SilentStretch } from '../../../../src/pipeline/diarization/speakers/silenceGate.js';

const sampleRate = 1000;
const options = { frameSeconds: 0.01, thresholdDbfs: -60, minSeconds: 0.1 };

/** A tone at `amplitude` (1 = full scale) or silence, per stretch of seconds. */
function signal(parts: { seconds: number; amplitude: number }[]): Float32Array {
  const samples = new Float32Array(Math.round(parts.reduce((sum, part) => sum + part.seconds, 0) * sampleRate));
  let at = 0;
  for (const part of parts) {
    const count = Math.round(part.seconds * sampleRate);
    for (let index = 0; index < count; index++) samples[at + index] = part.amplitude * Math.sin((2 * Math.PI * 100 * index) / sampleRate);
    at += count;
  }
  return samples;
}

/** The samples in blocks of `blockSamples`, as readWavBlocks yields them (sizes that do not divide a frame). */
async function* blocksOf(samples: Float32Array, blockSamples: number) {
  for (let start = 0; start < samples.length; start += blockSamples) yield { startSample: start, samples: samples.subarray(start, start + blockSamples) };
}

describe('findSilentStretches', () => {
  test('finds stretches with no signal, whatever the block boundaries, and none where line noise is', async () => {
    const samples = signal([
      { seconds: 1, amplitude: 0.3 }, // speech level
      { seconds: 0.4, amplitude: 0 }, // digital silence
      { seconds: 1, amplitude: 0.003 }, // −53 dBFS RMS: line noise, not silence
      { seconds: 0.05, amplitude: 0 }, // too short to report
      { seconds: 0.5, amplitude: 0.3 },
      { seconds: 0.25, amplitude: 0.0002 }, // −77 dBFS RMS: a filter's tail, silent
    ]);
    for (const blockSamples of [37, 1000, samples.length]) {
      const stretches = await findSilentStretches(blocksOf(samples, blockSamples), sampleRate, options);
      expect(stretches).toEqual([
        { startSeconds: 1, endSeconds: 1.4, noSignal: true },
        { startSeconds: 2.95, endSeconds: 3.2, noSignal: true },
      ]);
    }
  });
});

describe('SilenceFinder relative to the recording', () => {
  const relative = { ...options, aboveNoiseFloorDb: 6, belowSpeechDb: 25 };
  /** Turns of speech-level tone with `pause` between them, 12 turns of 1 s: pauses are 11 of the 23 stretches. */
  const conversation = (pause: { seconds: number; amplitude: number }) =>
    signal(Array.from({ length: 12 }, (_, turn) => [{ seconds: 1, amplitude: 0.3 }, ...(turn < 11 ? [pause] : [])]).flat());

  test('line hiss between turns is silence once the recording shows it is the floor; the absolute threshold alone finds none', async () => {
    // −53 dBFS RMS hiss (as loudnorm leaves a quiet line), speech at −13 dBFS.
    const samples = conversation({ seconds: 0.3, amplitude: 0.003 });
    expect(await findSilentStretches(blocksOf(samples, 1000), sampleRate, options)).toEqual([]);
    const stretches = await findSilentStretches(blocksOf(samples, 1000), sampleRate, relative);
    expect(stretches).toHaveLength(11);
    expect(stretches[0]).toEqual({ startSeconds: 1, endSeconds: 1.3, noSignal: false });
  });

  test('on a noisy line the threshold stays well below the speech level', async () => {
    // Noise only 10 dB below the speech: the floor + 6 dB would reach into speech's quiet parts.
    const quietSpeech = signal([{ seconds: 0.5, amplitude: 0.1 }, { seconds: 0.5, amplitude: 0.3 }]);
    const samples = new Float32Array([...conversation({ seconds: 0.3, amplitude: 0.095 }), ...quietSpeech]);
    const finder = new SilenceFinder(sampleRate, relative);
    finder.add(samples);
    // Speech −13 dBFS RMS: the threshold is at most 25 dB below it.
    expect(finder.threshold()).toBeLessThanOrEqual(-13.5 - 25 + 0.5);
    expect(finder.finish()).toEqual([]);
  });

  test('digital silence still counts whatever the floor', async () => {
    const samples = conversation({ seconds: 0.2, amplitude: 0 });
    expect(await findSilentStretches(blocksOf(samples, 1000), sampleRate, relative)).toHaveLength(11);
  });
});

describe('trimTurnsOutOfSilence', () => {
  const silences: SilentStretch[] = [
    { startSeconds: 2, endSeconds: 2.5, noSignal: true },
    { startSeconds: 5, endSeconds: 5.3, noSignal: true },
    { startSeconds: 8, endSeconds: 9, noSignal: true },
  ];

  test('a turn held on into the silence after it ends where the silence starts; one started early starts where it ends', () => {
    expect(trimTurnsOutOfSilence([
      { speaker: 0, startSeconds: 0, endSeconds: 2.3 },
      { speaker: 1, startSeconds: 2.2, endSeconds: 4 },
    ], silences, 0.25)).toEqual([
      { speaker: 0, startSeconds: 0, endSeconds: 2 },
      { speaker: 1, startSeconds: 2.5, endSeconds: 4 },
    ]);
  });

  test('a silence inside a turn is the speaker\'s own pause and stays in it', () => {
    const turn = { speaker: 0, startSeconds: 4, endSeconds: 7 };
    expect(trimTurnsOutOfSilence([turn], silences, 0.25)).toEqual([turn]);
  });

  test('ends exactly at a silence\'s edges stay; a turn left shorter than the minimum is dropped', () => {
    expect(trimTurnsOutOfSilence([
      { speaker: 0, startSeconds: 2.5, endSeconds: 5 },
      { speaker: 1, startSeconds: 7.9, endSeconds: 8.6 },
      { speaker: 1, startSeconds: 8.2, endSeconds: 8.8 },
    ], silences, 0.25)).toEqual([
      { speaker: 0, startSeconds: 2.5, endSeconds: 5 },
    ]);
  });

  test('at the noise floor, a turn reaching into it no further than a word fades keeps its edge; one held on further is cut', () => {
    const floor: SilentStretch[] = [{ startSeconds: 2, endSeconds: 2.5, noSignal: false }, { startSeconds: 6, endSeconds: 6.5, noSignal: false }];
    expect(trimTurnsOutOfSilence([
      { speaker: 0, startSeconds: 0, endSeconds: 2.08 }, // a word fading: kept
      { speaker: 1, startSeconds: 2.44, endSeconds: 4 }, // rising out of the floor: kept
      { speaker: 0, startSeconds: 4.5, endSeconds: 6.3 }, // held on 0.3 s: cut
      { speaker: 1, startSeconds: 6.2, endSeconds: 8 }, // started 0.3 s early: cut
    ], floor, 0.25, 0.1)).toEqual([
      { speaker: 0, startSeconds: 0, endSeconds: 2.08 },
      { speaker: 1, startSeconds: 2.44, endSeconds: 4 },
      { speaker: 0, startSeconds: 4.5, endSeconds: 6 },
      { speaker: 1, startSeconds: 6.5, endSeconds: 8 },
    ]);
    // No signal at all: cut however little the turn reaches into it.
    expect(trimTurnsOutOfSilence([{ speaker: 0, startSeconds: 0, endSeconds: 2.08 }], [{ ...floor[0]!, noSignal: true }], 0.25, 0.1)).toEqual([{ speaker: 0, startSeconds: 0, endSeconds: 2 }]);
  });

  test('without silences the turns are as they were', () => {
    const turns = [{ speaker: 0, startSeconds: 0, endSeconds: 1 }, { speaker: 1, startSeconds: 1, endSeconds: 3 }];
    expect(trimTurnsOutOfSilence(turns, [], 0.25)).toEqual(turns);
  });
});
