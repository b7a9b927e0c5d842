import { StageFailure } from '../StageFailure.js';

/**
 * The clean-up stage's failures, worded for the user (no file names, no content). Causes
 * passed in must already be free of paths (see {@link redactedCause}): the engine may log them.
 */
export const cleanupFailures = {
  noAudioStream: () => new StageFailure('bad_input', 'The file holds no audio stream'),
  damaged: (cause?: Error) =>
    new StageFailure('bad_input', 'The audio could not be decoded; the file may be damaged or not an audio file', { cause }),
  noAudio: (): RecordingWithoutSound => new RecordingWithoutSound('The recording contains no audio'),
  onlySilence: (): RecordingWithoutSound => new RecordingWithoutSound('The recording contains only silence'),
  /** The container states the length: say it. */
  tooLong: (durationSeconds: number, limitSeconds: number): RecordingTooLong => {
    const limitMinutes = Math.floor(limitSeconds / 60);
    // To the nearest minute, but never shown as equal to the limit it exceeds.
    const lengthMinutes = Math.max(Math.round(durationSeconds / 60), limitMinutes + 1);
    return new RecordingTooLong(`The recording is ${hoursAndMinutes(lengthMinutes)} long; the limit is ${hoursAndMinutes(limitMinutes)}`);
  },
  /** Decoding was cut at the limit, so the true length is unknown. */
  longerThanLimit: (limitSeconds: number): RecordingTooLong =>
    new RecordingTooLong(`The recording is longer than the limit of ${hoursAndMinutes(Math.floor(limitSeconds / 60))}`),
  /** A rate no recorder uses (a WAV header may state any): decoding it would blow each frame up. */
  sampleRateTooLow: (sampleRateHz: number, minimumHz: number) =>
    new StageFailure('bad_input', `The audio's sample rate of ${sampleRateHz} Hz is too low for a recording; the minimum is ${minimumHz} Hz`),
  ffmpegMissing: (cause?: Error) => new StageFailure('unavailable', 'ffmpeg could not be started on this machine', { cause }),
};

/** A recording over the length limit: `bad_input`, told apart so a caller can answer its own code. */
export class RecordingTooLong extends StageFailure {
  constructor(reason: string) {
    super('bad_input', reason);
    this.name = 'RecordingTooLong';
  }
}

/** A recording that decodes to nothing audible: `bad_input`, told apart for the same reason. */
export class RecordingWithoutSound extends StageFailure {
  constructor(reason: string) {
    super('bad_input', reason);
    this.name = 'RecordingWithoutSound';
  }
}

/** 180 → "3 h 0 min" */
function hoursAndMinutes(minutes: number): string {
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** An ffmpeg/ffprobe error as a cause that can be logged: the given paths replaced by `<file>`. */
export function redactedCause(error: unknown, paths: readonly string[]): Error {
  let message = error instanceof Error ? error.message : String(error);
  for (const path of paths) message = message.split(path).join('<file>');
  return new Error(message);
}
