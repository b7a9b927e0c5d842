import { availableParallelism } from 'node:os';

/** Calls processed at once: WORKER_CONCURRENCY, or (0) one per two CPU cores, at least 1. */
export function effectiveConcurrency(configured: number): number {
  return configured > 0 ? configured : Math.max(1, Math.floor(availableParallelism() / 2));
}
