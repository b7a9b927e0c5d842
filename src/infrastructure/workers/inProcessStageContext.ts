import type { StageContext } from '../../pipeline/StageContext.js';
import { workerTaskImplementations } from './workerTasks.js';

/**
 * A stage context whose worker tasks run on the calling thread: for the command line (no event
 * loop serving anyone else) and for short, bounded work on the server (a voice sample of at
 * most a minute), where a worker round trip would cost more than it saves.
 */
export function inProcessStageContext(options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {}): StageContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    reportProgress: (fraction) => options.onProgress?.(fraction),
    runInWorker: (name, input) => (workerTaskImplementations[name] as (value: typeof input) => Promise<never>)(input),
  };
}
