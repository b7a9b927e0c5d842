import type { SpeakerRun } from './TurnBuilder.js';

/** A stretch of the recording with no signal, seconds. */
export interface SilentStretch {
  startSeconds: number;
  endSeconds: number;
}

export interface SilenceGateOptions {
  /** Frame length the level is measured over, seconds. */
  frameSeconds: number;
  /**
   * A frame whose RMS level is below this is silent, dBFS. Far below any room or line noise
   * (−50 to −40 dBFS once clean-up's loudnorm has lifted the quiet stretches): only audio with
   * no signal at all gets there, such as a VoIP stream's silence suppression, a muted line, a
   * recorder's pause, or the filter tails around them.
   */
  thresholdDbfs: number;
  /** Silent stretches shorter than this are not reported, seconds. */
  minSeconds: number;
}

/**
 * Finds the stretches where every frame is below the threshold, streaming: samples are added
 * block by block as they are read for something else (the segmentation's pass), and one frame's
 * running sum is all it holds besides the stretches found.
 */
export class SilenceFinder {
  private readonly frameSamples: number;
  /** RMS below the threshold ⇔ mean square below its square. */
  private readonly thresholdPower: number;
  private readonly stretches: SilentStretch[] = [];
  private frame = 0;
  private sumOfSquares = 0;
  private filled = 0;
  /** First frame of the silence under way, or -1. */
  private silentSince = -1;

  constructor(private readonly sampleRate: number, private readonly options: SilenceGateOptions) {
    this.frameSamples = Math.max(1, Math.round(options.frameSeconds * sampleRate));
    this.thresholdPower = 10 ** (options.thresholdDbfs / 10);
  }

  /** The next samples of the recording (-1..1), in order; not kept. */
  add(samples: Float32Array): void {
    for (let index = 0; index < samples.length; index++) {
      const sample = samples[index]!;
      this.sumOfSquares += sample * sample;
      this.filled += 1;
      if (this.filled < this.frameSamples) continue;
      if (this.sumOfSquares / this.frameSamples < this.thresholdPower) {
        if (this.silentSince < 0) this.silentSince = this.frame;
      } else {
        this.closeSilence();
      }
      this.frame += 1;
      this.sumOfSquares = 0;
      this.filled = 0;
    }
  }

  /** The silent stretches, sorted by start. Call once, after the last samples. */
  finish(): SilentStretch[] {
    this.closeSilence();
    return this.stretches;
  }

  private closeSilence(): void {
    const { silentSince, frame, frameSamples, sampleRate } = this;
    if (silentSince >= 0 && (frame - silentSince) * frameSamples >= this.options.minSeconds * sampleRate - 1e-6) {
      this.stretches.push({ startSeconds: (silentSince * frameSamples) / sampleRate, endSeconds: (frame * frameSamples) / sampleRate });
    }
    this.silentSince = -1;
  }
}

/** The silent stretches of `blocks` (consecutive samples, -1..1), read for this alone. */
export async function findSilentStretches(
  blocks: AsyncIterable<{ startSample: number; samples: Float32Array }>,
  sampleRate: number,
  options: SilenceGateOptions,
): Promise<SilentStretch[]> {
  const finder = new SilenceFinder(sampleRate, options);
  for await (const { samples } of blocks) finder.add(samples);
  return finder.finish();
}

/**
 * Trims each turn's ends out of silence: a turn that starts or ends inside a silent stretch
 * starts at its end or ends at its start. The segmentation model tends to hold a speaker on
 * through the pause after their turn (and to start the next one early), and where the line
 * carries no signal nobody is speaking. A silence inside a turn is left alone: a speaker's own
 * pauses are part of their turn, as human references mark them. Turns left shorter than
 * `minTurnSeconds` are dropped.
 * @param silences sorted by start, not overlapping (as `findSilentStretches` returns them)
 */
export function trimTurnsOutOfSilence(runs: readonly SpeakerRun[], silences: readonly SilentStretch[], minTurnSeconds: number): SpeakerRun[] {
  const result: SpeakerRun[] = [];
  for (const run of runs) {
    let { startSeconds, endSeconds } = run;
    // The silence the start lies in (start ≤ s < end), and the one the end lies in (start < e ≤ end).
    const atStart = silences[firstEndingAfter(silences, startSeconds)];
    if (atStart && atStart.startSeconds <= startSeconds) startSeconds = atStart.endSeconds;
    const atEnd = silences[firstEndingAfter(silences, endSeconds - 1e-9)];
    if (atEnd && atEnd.startSeconds < endSeconds) endSeconds = Math.min(endSeconds, atEnd.startSeconds);
    if (endSeconds - startSeconds >= minTurnSeconds - 1e-9) result.push({ speaker: run.speaker, startSeconds, endSeconds });
  }
  return result;
}

/** Index of the first silence that ends after `seconds` (silences.length when none does). */
function firstEndingAfter(silences: readonly SilentStretch[], seconds: number): number {
  let low = 0;
  let high = silences.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (silences[middle]!.endSeconds <= seconds) low = middle + 1;
    else high = middle;
  }
  return low;
}
