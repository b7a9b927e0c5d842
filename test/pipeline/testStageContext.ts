import type { StageContext } from '../../src/pipeline/StageContext.js';
import { workerTaskImplementations } from '../../src/infrastructure/workers/workerTasks.js';

/** A StageContext for stage tests: worker tasks run in-process (the pool has its own tests). */
export interface TestStageContext extends StageContext {
  /** Every fraction the stage reported, in order. */
  readonly progress: number[];
}

export function createTestStageContext(signal: AbortSignal = new AbortController().signal): TestStageContext {
  const progress: number[] = [];
  return {
    signal,
    progress,
    reportProgress: (fraction) => progress.push(fraction),
    runInWorker: (name, input) => workerTaskImplementations[name](input),
  };
}
