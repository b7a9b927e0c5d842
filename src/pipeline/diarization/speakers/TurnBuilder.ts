/** A turn of a numbered speaker, before speakers get their `SPEAKER_nn` ids. */
export interface SpeakerRun {
  speaker: number;
  startSeconds: number;
  endSeconds: number;
}

export interface TurnBuilderOptions {
  /** Seconds per activity frame. */
  frameSeconds: number;
  /** Seconds from the start of frame 0's span to the start of the recording's timeline. Defaults to `0`. */
  offsetSeconds?: number;
  /** A speaker's pauses up to this long are bridged into one turn, seconds. */
  maxGapSeconds: number;
  /** Turns shorter than this (after bridging) are dropped, seconds. */
  minTurnSeconds: number;
}

/**
 * Per-frame speaker activity → turns, streaming: frames arrive in order, and a speaker's turn
 * is closed once its pause outgrows `maxGapSeconds`. Holds one open run per speaker.
 */
export class TurnBuilder {
  private readonly runs: SpeakerRun[] = [];
  /** Per speaker: [first frame, last active frame] of the open run. */
  private readonly open = new Map<number, { first: number; last: number }>();
  private readonly maxGapFrames: number;

  constructor(private readonly options: TurnBuilderOptions) {
    this.maxGapFrames = Math.floor(options.maxGapSeconds / options.frameSeconds + 1e-9);
  }

  /** Marks `speakers` active in `frame`; frames must come in increasing order. */
  add(frame: number, speakers: Iterable<number>): void {
    for (const speaker of speakers) {
      const run = this.open.get(speaker);
      if (run && frame - run.last - 1 <= this.maxGapFrames) {
        run.last = frame;
      } else {
        if (run) this.close(speaker, run);
        this.open.set(speaker, { first: frame, last: frame });
      }
    }
  }

  /** The turns so far plus the open ones, sorted by start then speaker. Call once, at the end. */
  finish(): SpeakerRun[] {
    for (const [speaker, run] of this.open) this.close(speaker, run);
    this.open.clear();
    return this.runs.sort((a, b) => a.startSeconds - b.startSeconds || a.speaker - b.speaker);
  }

  private close(speaker: number, run: { first: number; last: number }): void {
    const { frameSeconds, offsetSeconds = 0, minTurnSeconds } = this.options;
    const startSeconds = offsetSeconds + run.first * frameSeconds;
    const endSeconds = offsetSeconds + (run.last + 1) * frameSeconds;
    if (endSeconds - startSeconds >= minTurnSeconds - 1e-9) this.runs.push({ speaker, startSeconds, endSeconds });
  }
}
