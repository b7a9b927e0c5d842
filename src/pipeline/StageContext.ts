import type { WorkerTaskName, WorkerTasks } from '../infrastructure/workers/workerTasks.js';

/** What a running stage may use besides its typed input: I/O stays behind these seams. */
export interface StageContext {
  /** Aborted when the call is given up (stale sweep, shutdown): stop and throw. */
  signal: AbortSignal;
  /** Reports progress within the stage, 0..1; also proves the stage is alive (stale sweep). */
  reportProgress(fraction: number): void;
  /** Runs CPU-heavy work on the worker pool, never on the event loop. */
  runInWorker<Name extends WorkerTaskName>(name: Name, input: WorkerTasks[Name]['input']): Promise<WorkerTasks[Name]['output']>;
}
