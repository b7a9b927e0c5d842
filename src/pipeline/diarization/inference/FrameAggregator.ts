import { activeCount, isActive, LOCAL_SPEAKERS } from './decodePowerset.js';

/** A window's local-speaker activity placed on the recording's frame grid. */
export interface PlacedWindow {
  /** Recording frame of the window's frame 0. */
  startFrame: number;
  /** shape: (framesPerWindow); bit k set when local speaker k is active. */
  activity: Uint8Array;
}

/** Mean activity of the call-level speakers over a stretch of frames already covered by earlier windows. */
export interface CoveredActivity {
  /** Frames from the requested start that earlier windows cover. */
  frames: number;
  speakers: number;
  /** shape: (frames, speakers), 0..1: share of the covering windows in which the speaker was active. */
  values: Float32Array;
}

/**
 * Aggregation over overlapping windows, as pyannote's `reconstruct` does, streaming:
 * - the number of speakers in each frame is the mean, over the windows covering it, of the
 *   number of active local speakers, rounded half to even (numpy's `rint`);
 * - each call-level speaker's score in a frame is the share of covering windows in which a
 *   local speaker mapped to it was active;
 * - a frame's speakers are the `count` best-scoring ones (score > 0).
 * Windows arrive in start order; a frame is final once a window starts after it, so only one
 * window's span of frames is held, whatever the call's length.
 */
export class FrameAggregator {
  private capacity: number;
  private speakerCapacity = 4;
  /** Recording frame of buffer slot 0. */
  private bufferStart = 0;
  /** Buffered frames (slots in use). */
  private filled = 0;
  // shape: (capacity)
  private coverage: Uint16Array;
  private countSums: Uint16Array;
  // shape: (capacity, speakerCapacity)
  private scores: Uint16Array;
  private speakers = 0;

  constructor(
    framesPerWindow: number,
    /** Receives each final frame and its active call-level speakers, in frame order. */
    private readonly onFrame: (frame: number, speakers: number[]) => void,
  ) {
    this.capacity = framesPerWindow * 2;
    this.coverage = new Uint16Array(this.capacity);
    this.countSums = new Uint16Array(this.capacity);
    this.scores = new Uint16Array(this.capacity * this.speakerCapacity);
  }

  /** Call-level speakers seen so far (ids are 0 … speakerCount-1). */
  get speakerCount(): number {
    return this.speakers;
  }

  /**
   * Mean activity of every call-level speaker over the frames from `startFrame` that earlier
   * windows cover (the overlap a new window shares with them).
   */
  coveredActivity(startFrame: number): CoveredActivity {
    const from = Math.max(0, startFrame - this.bufferStart);
    const frames = Math.max(0, this.filled - from);
    const values = new Float32Array(frames * this.speakers);
    for (let slot = 0; slot < frames; slot++) {
      const coverage = this.coverage[from + slot]!;
      if (coverage === 0) continue;
      for (let speaker = 0; speaker < this.speakers; speaker++) {
        values[slot * this.speakers + speaker] = this.scores[(from + slot) * this.speakerCapacity + speaker]! / coverage;
      }
    }
    return { frames, speakers: this.speakers, values };
  }

  /**
   * Adds a window whose local speaker k is call-level speaker `speakerOfLocal[k]` (-1: not
   * mapped; it still counts towards the frame's number of speakers).
   */
  add(window: PlacedWindow, speakerOfLocal: readonly number[]): void {
    const { startFrame, activity } = window;
    if (startFrame < this.bufferStart) throw new Error('windows must arrive in start order');
    this.flushBefore(startFrame);
    for (const speaker of speakerOfLocal) if (speaker >= this.speakers) this.growSpeakers(speaker + 1);
    const endFrame = startFrame + activity.length;
    this.ensureCapacity(endFrame - this.bufferStart);
    if (this.filled < endFrame - this.bufferStart) this.filled = endFrame - this.bufferStart;
    for (let frame = 0; frame < activity.length; frame++) {
      const slot = startFrame - this.bufferStart + frame;
      const mask = activity[frame]!;
      this.coverage[slot]! += 1;
      this.countSums[slot]! += activeCount(mask);
      for (let local = 0; local < LOCAL_SPEAKERS; local++) {
        const speaker = speakerOfLocal[local] ?? -1;
        if (speaker < 0 || !isActive(mask, local) || scoredEarlier(speakerOfLocal, mask, local)) continue;
        this.scores[slot * this.speakerCapacity + speaker]! += 1;
      }
    }
  }

  /** Emits every frame up to (excluding) `endFrame`; call once with the recording's frame count. */
  finish(endFrame: number): void {
    this.flushBefore(Math.min(endFrame, this.bufferStart + this.filled), endFrame);
  }

  private flushBefore(frame: number, lastFrame = Infinity): void {
    const flush = Math.min(Math.max(0, frame - this.bufferStart), this.filled);
    for (let slot = 0; slot < flush; slot++) {
      if (this.bufferStart + slot < lastFrame) this.onFrame(this.bufferStart + slot, this.speakersOf(slot));
    }
    const width = this.speakerCapacity;
    this.coverage.copyWithin(0, flush, this.filled).fill(0, this.filled - flush);
    this.countSums.copyWithin(0, flush, this.filled).fill(0, this.filled - flush);
    this.scores.copyWithin(0, flush * width, this.filled * width).fill(0, (this.filled - flush) * width);
    this.filled -= flush;
    // Frames no window covered (a gap between windows cannot happen with step ≤ window) are skipped.
    this.bufferStart = Math.max(this.bufferStart + flush, frame);
  }

  private speakersOf(slot: number): number[] {
    const coverage = this.coverage[slot]!;
    if (coverage === 0) return [];
    const count = roundHalfToEven(this.countSums[slot]! / coverage);
    if (count === 0) return [];
    const base = slot * this.speakerCapacity;
    const ranked: number[] = [];
    for (let speaker = 0; speaker < this.speakers; speaker++) if (this.scores[base + speaker]! > 0) ranked.push(speaker);
    ranked.sort((a, b) => this.scores[base + b]! - this.scores[base + a]! || a - b);
    return ranked.slice(0, count);
  }

  private ensureCapacity(slots: number): void {
    if (slots <= this.capacity) return;
    const capacity = Math.max(slots, this.capacity * 2);
    this.coverage = grow(this.coverage, capacity);
    this.countSums = grow(this.countSums, capacity);
    this.scores = grow(this.scores, capacity * this.speakerCapacity);
    this.capacity = capacity;
  }

  private growSpeakers(speakers: number): void {
    if (speakers > this.speakerCapacity) {
      const width = Math.max(speakers, this.speakerCapacity * 2);
      const scores = new Uint16Array(this.capacity * width);
      for (let slot = 0; slot < this.filled; slot++) {
        scores.set(this.scores.subarray(slot * this.speakerCapacity, (slot + 1) * this.speakerCapacity), slot * width);
      }
      this.scores = scores;
      this.speakerCapacity = width;
    }
    this.speakers = speakers;
  }
}

/** A call-level speaker scores once per window even if two of its local speakers map to it. */
function scoredEarlier(speakerOfLocal: readonly number[], mask: number, local: number): boolean {
  for (let earlier = 0; earlier < local; earlier++) {
    if (speakerOfLocal[earlier] === speakerOfLocal[local] && isActive(mask, earlier)) return true;
  }
  return false;
}

function grow(array: Uint16Array, length: number): Uint16Array {
  const grown = new Uint16Array(length);
  grown.set(array);
  return grown;
}

/** numpy's `rint`: 0.5 → 0, 1.5 → 2, 2.5 → 2. */
export function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (Math.abs(fraction - 0.5) > 1e-9) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
}
