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
 * The stretches of `blocks` (consecutive samples, -1..1) where every frame is below the
 * threshold, streaming: one frame's running sum is all it holds besides the stretches found.
 */
export async function findSilentStretches(
  blocks: AsyncIterable<{ startSample: number; samples: Float32Array }>,
  sampleRate: number,
  options: SilenceGateOptions,
): Promise<SilentStretch[]> {
  const frameSamples = Math.max(1, Math.round(options.frameSeconds * sampleRate));
  // RMS below the threshold ⇔ mean square below its square.
  const thresholdPower = 10 ** (options.thresholdDbfs / 10);
  const stretches: SilentStretch[] = [];
  let frame = 0;
  let sumOfSquares = 0;
  let filled = 0;
  /** First frame of the silence under way, or -1. */
  let silentSince = -1;
  const closeSilence = (endFrame: number) => {
    if (silentSince >= 0 && (endFrame - silentSince) * frameSamples >= options.minSeconds * sampleRate - 1e-6) {
      stretches.push({ startSeconds: (silentSince * frameSamples) / sampleRate, endSeconds: (endFrame * frameSamples) / sampleRate });
    }
    silentSince = -1;
  };
  for await (const { samples } of blocks) {
    for (let index = 0; index < samples.length; index++) {
      const sample = samples[index]!;
      sumOfSquares += sample * sample;
      filled += 1;
      if (filled < frameSamples) continue;
      if (sumOfSquares / frameSamples < thresholdPower) {
        if (silentSince < 0) silentSince = frame;
      } else {
        closeSilence(frame);
      }
      frame += 1;
      sumOfSquares = 0;
      filled = 0;
    }
  }
  closeSilence(frame);
  return stretches;
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
