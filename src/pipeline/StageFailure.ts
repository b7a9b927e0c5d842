/**
 * How a stage failed, which decides what the engine does:
 * - `bad_input`: the recording itself cannot be processed (corrupt, silent, too long): FAILED.
 * - `transient`: a network/5xx-style failure that may pass (a model server hiccup): retried once.
 * - `rejected`: a 4xx-style refusal (policy block, bad key, prompt refused): FAILED, no retry.
 * - `unavailable`: something the box lacks or cannot use (a binary not built, a damaged model): FAILED.
 * - `model_missing`: a model the call needs is not installed (yet): nothing is wrong with the
 *   call, so it goes back to the queue and waits until the model is in place.
 */
export type StageFailureKind = 'bad_input' | 'transient' | 'rejected' | 'unavailable' | 'model_missing';

/**
 * A stage's failure with the `errorReason` shown to the user: plain words, no personal data,
 * no transcript text, no file paths.
 */
export class StageFailure extends Error {
  constructor(readonly kind: StageFailureKind, readonly reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'StageFailure';
  }
}

/** Errors cross the worker-thread boundary as plain `{code, message}` objects. */
export interface SerializedFailure {
  code: StageFailureKind | 'internal';
  message: string;
}

export function serializeFailure(error: unknown): SerializedFailure {
  if (error instanceof StageFailure) return { code: error.kind, message: error.reason };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export function deserializeFailure(failure: SerializedFailure): Error {
  return failure.code === 'internal' ? new Error(failure.message) : new StageFailure(failure.code, failure.message);
}
