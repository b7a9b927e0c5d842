/** Local speakers a segmentation window can hold. */
export const LOCAL_SPEAKERS = 3;

/**
 * The speakers of each powerset class, as a bit mask (bit k = local speaker k+1), in the
 * model's class order: {none}, {1}, {2}, {3}, {1,2}, {1,3}, {2,3}.
 */
export const POWERSET_SPEAKER_MASKS: readonly number[] = [0b000, 0b001, 0b010, 0b100, 0b011, 0b101, 0b110];

/**
 * Hard powerset decoding, as pyannote's inference does for segmentation-3.0: each frame takes
 * its most probable class, which names the local speakers active in it.
 * @param logits shape: (windows, frames, classes), log-probabilities
 * @returns shape: (windows, frames), bit k set when local speaker k is active
 */
export function decodePowerset(logits: Float32Array, windows: number, frames: number): Uint8Array {
  const classes = POWERSET_SPEAKER_MASKS.length;
  if (logits.length < windows * frames * classes) throw new Error('powerset logits shorter than windows × frames × classes');
  const activity = new Uint8Array(windows * frames);
  for (let frame = 0; frame < windows * frames; frame++) {
    const offset = frame * classes;
    let best = 0;
    for (let candidate = 1; candidate < classes; candidate++) {
      if (logits[offset + candidate]! > logits[offset + best]!) best = candidate;
    }
    activity[frame] = POWERSET_SPEAKER_MASKS[best]!;
  }
  return activity;
}

/** Whether local speaker `speaker` (0-based) is active in a frame's bit mask. */
export function isActive(mask: number, speaker: number): boolean {
  return (mask & (1 << speaker)) !== 0;
}

/** Number of local speakers active in a frame's bit mask. */
export function activeCount(mask: number): number {
  return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
}
