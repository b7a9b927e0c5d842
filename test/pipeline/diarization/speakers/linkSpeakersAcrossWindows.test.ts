import { describe, expect, it } from 'vitest';
import { frameTiming, segmentationGeometry } from '../../../../src/pipeline/diarization/models/SegmentationModel.js';
import { linkSpeakersAcrossWindows } from '../../../../src/pipeline/diarization/speakers/linkSpeakersAcrossWindows.js';
import { linkWindow } from '../../../../src/pipeline/diarization/speakers/linkWindow.js';

const { framesPerWindow, frameStepSamples, sampleRate } = segmentationGeometry;
const linkOptions = { minLinkAgreement: 0.3, minNewSpeakerSeconds: 0.5, maxGapSeconds: 0.25, minTurnSeconds: 0.25 };

/**
 * Synthetic segmentation output of a call whose true speakers talk at known times: each window
 * sees the speakers active in its span and numbers them in its own order (`localOrder`), as the
 * model does.
 */
function windowsOf(truth: { speaker: string; start: number; end: number }[], totalSeconds: number, stepSeconds: number, localOrder: (window: number) => string[]) {
  const windows = [];
  for (let index = 0, start = 0; start < totalSeconds; index++, start += stepSeconds) {
    const startSample = Math.round(start * sampleRate);
    const activity = new Uint8Array(framesPerWindow);
    const order = localOrder(index);
    for (let frame = 0; frame < framesPerWindow; frame++) {
      const time = (startSample + frame * frameStepSamples) / sampleRate + frameTiming.offsetSeconds;
      for (const turn of truth) {
        if (time >= turn.start && time < turn.end) activity[frame]! |= 1 << order.indexOf(turn.speaker);
      }
    }
    windows.push({ startSample, activity });
    if (start + 10 >= totalSeconds) break;
  }
  return windows;
}

async function* stream<T>(items: T[]) { yield* items; }

describe('linkWindow', () => {
  it('continues the call-level speaker whose recent activity agrees with a local speaker, whatever its local number', () => {
    // shape: (frames, speakers) over 4 shared frames: speaker 0 active in the first two, speaker 1 in the last two.
    const covered = { frames: 4, speakers: 2, values: Float32Array.from([1, 0, 1, 0, 0, 1, 0, 1]) };
    // Local 0 talks in frames 2-3 (= speaker 1), local 2 in frames 0-1 (= speaker 0).
    const activity = Uint8Array.from([4, 4, 1, 1, 0, 0, 0, 0]);
    expect(linkWindow(activity, covered, 2, { minAgreement: 0.3, minNewSpeakerFrames: 2 })).toEqual([1, -1, 0]);
  });

  it('starts a new speaker for a local speaker that disagrees with everyone, unless it is barely active', () => {
    const covered = { frames: 4, speakers: 1, values: Float32Array.from([1, 1, 0, 0]) };
    const activity = Uint8Array.from([1, 1, 2, 2, 2, 2, 4, 0]);
    expect(linkWindow(activity, covered, 1, { minAgreement: 0.3, minNewSpeakerFrames: 2 })).toEqual([0, 1, -1]);
  });
});

describe('linkSpeakersAcrossWindows (no embeddings)', () => {
  const truth = [
    { speaker: 'A', start: 0.5, end: 6 },
    { speaker: 'B', start: 6.5, end: 12 },
    { speaker: 'A', start: 12.2, end: 15 },
    { speaker: 'B', start: 14.5, end: 20 },
  ];

  it('links local speakers numbered differently in every window into two call-level speakers with the true turns', async () => {
    const shuffled = (window: number) => (window % 2 === 0 ? ['A', 'B', 'C'] : ['C', 'B', 'A']);
    const runs = await linkSpeakersAcrossWindows(stream(windowsOf(truth, 20, 2.5, shuffled)), 20 * sampleRate, linkOptions);
    expect(new Set(runs.map((run) => run.speaker)).size).toBe(2);
    const [first, second, third, fourth] = runs;
    expect(runs).toHaveLength(4);
    expect(first!.startSeconds).toBeCloseTo(0.5, 1);
    expect(first!.endSeconds).toBeCloseTo(6, 1);
    expect(second!.speaker).not.toBe(first!.speaker);
    expect(third!.speaker).toBe(first!.speaker);
    expect(fourth!.speaker).toBe(second!.speaker);
    // The overlap 14.5-15 s is scored for both.
    expect(third!.endSeconds).toBeGreaterThan(fourth!.startSeconds);
  });

  it('cannot tell a speaker who was silent for longer than the windows overlap: it comes back as a new speaker', async () => {
    const longSilence = [{ speaker: 'A', start: 0.5, end: 3 }, { speaker: 'B', start: 3.5, end: 15 }, { speaker: 'A', start: 15.5, end: 20 }];
    const runs = await linkSpeakersAcrossWindows(stream(windowsOf(longSilence, 20, 2.5, () => ['A', 'B', 'C'])), 20 * sampleRate, linkOptions);
    expect(runs.map((run) => run.speaker)).toEqual([0, 1, 2]);
  });
});
