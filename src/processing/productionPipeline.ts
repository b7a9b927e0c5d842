import type { Config } from '../config/configSchema.js';
import { cleanAudio } from '../pipeline/cleanup/cleanAudio.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import type { CallPipeline } from './CallPipeline.js';
import type { StageDefinition } from './CallRun.js';

/**
 * The stages of the production pipeline, in order, with their share of a run's progress
 * (measured on CPU: transcription dominates) and retry rules.
 */
export const productionStages = {
  cleanup: { name: 'cleanup', phase: 'TRANSCRIBING', weight: 0.1 },
} as const satisfies Record<string, StageDefinition>;

/**
 * The pipeline the service runs: audio clean-up, then the speech stages (diarization,
 * transcription, alignment, normalisation, speaker resolution) and the analysis stages, which
 * plug in after the clean-up as they are built. Until the speech stages exist, a call fails
 * after a successful clean-up with a reason that says so.
 */
export function createProductionPipeline(config: Pick<Config, 'MAX_AUDIO_DURATION_SECONDS'>): CallPipeline {
  return async (job, run) => {
    await run.stage(productionStages.cleanup, (context) => cleanAudio({
      sourcePath: job.audioPath,
      outputDir: job.workDir,
      maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS,
    }, context));
    throw new StageFailure('unavailable', 'Speech recognition is not installed in this version of Callscope; the call can be reprocessed after an update');
  };
}
