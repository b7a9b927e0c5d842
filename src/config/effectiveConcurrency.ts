import { availableParallelism } from 'node:os';

/** Calls processed at once: WORKER_CONCURRENCY, or (0) one per two CPU cores, at least 1. */
export function effectiveConcurrency(configured: number): number {
  return configured > 0 ? configured : Math.max(1, Math.floor(availableParallelism() / 2));
}

/**
 * CPU threads each diarization model (ONNX) may use for one call: DIARIZATION_THREADS, or (0)
 * the CPU cores shared out among the calls processed at once, at least 1. Diarization and
 * transcription of a call run one after the other, so a call's share of the cores is idle
 * otherwise while it is diarized.
 * @param callsAtOnce calls processed at once: the service's {@link effectiveConcurrency}; 1 for the CLI
 */
export function effectiveDiarizationThreads(configured: number, callsAtOnce: number): number {
  return configured > 0 ? configured : Math.max(1, Math.floor(availableParallelism() / Math.max(1, callsAtOnce)));
}
