import type { SpeakerRun } from './TurnBuilder.js';

/** A stretch of the recording with no signal, seconds. */
export interface SilentStretch {
  startSeconds: number;
  endSeconds: number;
  /**
   * No signal at all (every frame below the absolute threshold), rather than the recording's
   * noise floor: a turn is cut exactly at it, where at the floor a word's last sounds may
   * still be fading (see {@link trimTurnsOutOfSilence}).
   */
  noSignal: boolean;
}

export interface SilenceGateOptions {
  /** Frame length the level is measured over, seconds. */
  frameSeconds: number;
  /**
   * A frame whose RMS level is below this is silent whatever the recording, dBFS: no signal at
   * all, such as a VoIP stream's silence suppression, a muted line, a recorder's pause, or the
   * filter tails around them.
   */
  thresholdDbfs: number;
  /**
   * A frame within this many dB of the recording's noise floor (the level most of its frames
   * exceed, see `NOISE_FLOOR_PERCENTILE`) is silent too: line hiss or room tone, where nobody
   * speaks. Undefined: the absolute threshold alone.
   */
  aboveNoiseFloorDb?: number;
  /**
   * …but never a frame less than this many dB below the recording's speech level (the level
   * only its loudest frames exceed): on a noisy line, speech's quiet parts sit near the floor.
   */
  belowSpeechDb?: number;
  /** Silent stretches shorter than this are not reported, seconds. */
  minSeconds: number;
}

/** The noise floor is the level this share of frames is below: the pauses of a conversation. */
const NOISE_FLOOR_PERCENTILE = 0.1;
/** The speech level is the level this share of frames is below. */
const SPEECH_LEVEL_PERCENTILE = 0.95;
/** Frame levels are kept in steps of this many dB (one byte a frame: 0.7 MB for 2 hours of 10 ms frames). */
const LEVEL_STEP_DB = 0.5;
/** The lowest level kept, dBFS: quieter frames (digital silence) count as this. */
const LOWEST_LEVEL_DBFS = -127;

/**
 * Finds the stretches where every frame is below the threshold, streaming: samples are added
 * block by block as they are read for something else (the segmentation's pass). The threshold
 * follows from the whole recording's levels, so each frame's level is kept (one byte) and the
 * stretches are found at the end.
 */
export class SilenceFinder {
  private readonly frameSamples: number;
  /** One byte per frame: (level − LOWEST_LEVEL_DBFS) / LEVEL_STEP_DB, clamped to 0..255. */
  private levels = new Uint8Array(4096);
  private frames = 0;
  private sumOfSquares = 0;
  private filled = 0;

  constructor(private readonly sampleRate: number, private readonly options: SilenceGateOptions) {
    this.frameSamples = Math.max(1, Math.round(options.frameSeconds * sampleRate));
  }

  /** The next samples of the recording (-1..1), in order; not kept. */
  add(samples: Float32Array): void {
    for (let index = 0; index < samples.length; index++) {
      const sample = samples[index]!;
      this.sumOfSquares += sample * sample;
      this.filled += 1;
      if (this.filled < this.frameSamples) continue;
      this.keepLevel(10 * Math.log10(this.sumOfSquares / this.frameSamples));
      this.sumOfSquares = 0;
      this.filled = 0;
    }
  }

  /** The level below which a frame is silent in this recording, dBFS. */
  threshold(): number {
    const { thresholdDbfs, aboveNoiseFloorDb, belowSpeechDb } = this.options;
    if (aboveNoiseFloorDb === undefined || this.frames === 0) return thresholdDbfs;
    const sorted = this.levels.slice(0, this.frames).sort();
    const levelAt = (share: number) => LOWEST_LEVEL_DBFS + sorted[Math.min(this.frames - 1, Math.floor(share * this.frames))]! * LEVEL_STEP_DB;
    let relative = levelAt(NOISE_FLOOR_PERCENTILE) + aboveNoiseFloorDb;
    if (belowSpeechDb !== undefined) relative = Math.min(relative, levelAt(SPEECH_LEVEL_PERCENTILE) - belowSpeechDb);
    return Math.max(thresholdDbfs, relative);
  }

  /** The silent stretches, sorted by start. Call once, after the last samples. */
  finish(): SilentStretch[] {
    const threshold = this.levelIndex(this.threshold());
    const noSignal = this.levelIndex(this.options.thresholdDbfs);
    const stretches: SilentStretch[] = [];
    const seconds = (frame: number) => (frame * this.frameSamples) / this.sampleRate;
    const minFrames = (this.options.minSeconds * this.sampleRate) / this.frameSamples - 1e-6;
    let silentSince = -1;
    let loudest = 0;
    for (let frame = 0; frame <= this.frames; frame++) {
      const level = frame < this.frames ? this.levels[frame]! : Number.POSITIVE_INFINITY;
      if (level < threshold) {
        if (silentSince < 0) [silentSince, loudest] = [frame, level];
        loudest = Math.max(loudest, level);
        continue;
      }
      if (silentSince >= 0 && frame - silentSince >= minFrames) {
        stretches.push({ startSeconds: seconds(silentSince), endSeconds: seconds(frame), noSignal: loudest < noSignal });
      }
      silentSince = -1;
    }
    return stretches;
  }

  /** A level as the index it is kept under (fractional: compared, not stored). */
  private levelIndex(dbfs: number): number {
    return (dbfs - LOWEST_LEVEL_DBFS) / LEVEL_STEP_DB;
  }

  private keepLevel(dbfs: number): void {
    if (this.frames === this.levels.length) {
      const grown = new Uint8Array(this.levels.length * 2);
      grown.set(this.levels);
      this.levels = grown;
    }
    this.levels[this.frames++] = Math.max(0, Math.min(255, Math.round((dbfs - LOWEST_LEVEL_DBFS) / LEVEL_STEP_DB)));
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
 * carries no signal nobody is speaking. In a stretch at the noise floor (not `noSignal`), a turn
 * that reaches at most `fadeSeconds` into it keeps its edge: that is a word fading into the
 * floor (or rising out of it), which human references count as speech; one held on further is
 * the model's overhang. A silence inside a turn is left alone: a speaker's own pauses are part
 * of their turn, as human references mark them. Turns left shorter than `minTurnSeconds` are
 * dropped.
 * @param silences sorted by start, not overlapping (as `findSilentStretches` returns them)
 */
export function trimTurnsOutOfSilence(runs: readonly SpeakerRun[], silences: readonly SilentStretch[], minTurnSeconds: number, fadeSeconds = 0): SpeakerRun[] {
  const overhangs = (silence: SilentStretch, seconds: number) => silence.noSignal || seconds > fadeSeconds;
  const result: SpeakerRun[] = [];
  for (const run of runs) {
    let { startSeconds, endSeconds } = run;
    // The silence the start lies in (start ≤ s < end), and the one the end lies in (start < e ≤ end).
    const atStart = silences[firstEndingAfter(silences, startSeconds)];
    if (atStart && atStart.startSeconds <= startSeconds && overhangs(atStart, atStart.endSeconds - startSeconds)) startSeconds = atStart.endSeconds;
    const atEnd = silences[firstEndingAfter(silences, endSeconds - 1e-9)];
    if (atEnd && atEnd.startSeconds < endSeconds && overhangs(atEnd, endSeconds - atEnd.startSeconds)) endSeconds = atEnd.startSeconds;
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
