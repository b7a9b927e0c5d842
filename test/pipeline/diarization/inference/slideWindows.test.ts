import { describe, expect, it } from 'vitest';
import { slideWindows } from '../../../../src/pipeline/diarization/inference/slideWindows.js';

async function windowsOf(signal: Float32Array, blockSize: number, windowSamples: number, stepSamples: number) {
  async function* blocks() {
    for (let start = 0; start < signal.length; start += blockSize) yield signal.subarray(start, start + blockSize);
  }
  const windows: { startSample: number; samples: number[] }[] = [];
  for await (const window of slideWindows(blocks(), { windowSamples, stepSamples })) {
    // The samples past validSamples are the padding.
    expect(window.samples.subarray(window.validSamples).every((sample) => sample === 0)).toBe(true);
    expect(window.validSamples === windowSamples || window.startSample + window.validSamples === signal.length).toBe(true);
    windows.push({ startSample: window.startSample, samples: Array.from(window.samples) });
  }
  return windows;
}

const ramp = (length: number) => Float32Array.from({ length }, (_, index) => index + 1);

describe('slideWindows', () => {
  it('cuts whole windows every step, then one zero-padded window for the rest, whatever the block size', async () => {
    for (const blockSize of [1, 3, 7, 100]) {
      const windows = await windowsOf(ramp(11), blockSize, 4, 3);
      expect(windows).toEqual([
        { startSample: 0, samples: [1, 2, 3, 4] },
        { startSample: 3, samples: [4, 5, 6, 7] },
        { startSample: 6, samples: [7, 8, 9, 10] },
        { startSample: 9, samples: [10, 11, 0, 0] },
      ]);
    }
  });

  it('adds no padded window when the last whole window reaches the end', async () => {
    expect((await windowsOf(ramp(10), 4, 4, 3)).map((window) => window.startSample)).toEqual([0, 3, 6]);
  });

  it('gives one padded window for a signal shorter than a window, and none for an empty one', async () => {
    expect(await windowsOf(ramp(2), 8, 4, 2)).toEqual([{ startSample: 0, samples: [1, 2, 0, 0] }]);
    expect(await windowsOf(ramp(0), 8, 4, 2)).toEqual([]);
  });
});
