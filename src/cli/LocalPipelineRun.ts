import type { PipelineRun } from '../processing/CallPipeline.js';
import type { StageDefinition } from '../processing/CallRun.js';
import type { StageContext } from '../pipeline/StageContext.js';
import { inProcessStageContext } from '../infrastructure/workers/inProcessStageContext.js';

export interface LocalRunOptions {
  /** Aborts the running stage (e.g. on Ctrl-C). */
  signal?: AbortSignal;
  /** Called with each stage's progress, 0..1 (e.g. to draw a progress line on stderr). */
  onProgress?: (stage: string, fraction: number) => void;
}

/**
 * Runs pipeline stages in this process for the command line (`callscope process`, `diarize`,
 * `transcribe`): no database, no lease, no retries. Worker tasks run in-process, as a command
 * has no event loop serving anyone else.
 */
export class LocalPipelineRun implements PipelineRun {
  readonly warnings: string[] = [];

  constructor(private readonly options: LocalRunOptions = {}) {}

  /** The context a stage gets, also for calling a stage function directly. */
  contextFor(stageName: string): StageContext {
    const { signal, onProgress } = this.options;
    return inProcessStageContext({ ...(signal ? { signal } : {}), ...(onProgress ? { onProgress: (fraction: number) => onProgress(stageName, fraction) } : {}) });
  }

  stage<T>(definition: StageDefinition, work: (context: StageContext) => Promise<T>): Promise<T> {
    return work(this.contextFor(definition.name));
  }

  async optionalStage<T>(definition: StageDefinition, work: (context: StageContext) => Promise<T>, fallback: T, warning: string): Promise<T> {
    try {
      return await this.stage(definition, work);
    } catch {
      this.warnings.push(warning);
      return fallback;
    }
  }

  async enterPhase(): Promise<void> {
    // Phases are a status of a stored call; a command-line run has none.
  }
}
