import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { assertModelUsable } from '../../infrastructure/models/assertModelUsable.js';
import { whileLoadingModels } from '../../infrastructure/models/modelLoadFailures.js';
import { modelDisplayName, resolveModelPath } from '../../infrastructure/models/resolveModelPath.js';
import type { CleanedAudio } from '../cleanup/cleanAudio.js';
import type { WavBeingWritten } from './inference/readWavBlocks.js';
import type { Diarization } from '../speechTypes.js';
import type { StageContext } from '../StageContext.js';
import { StageFailure } from '../StageFailure.js';
import { diarizationFailures } from './diarizationFailures.js';
import type { DiarizationOptions } from './diarizationOptions.js';

/**
 * What the stage reads: clean-up's output, or (on the command line) its mono file while ffmpeg
 * is still writing it, `monoBeingWritten` set and no stereo file (see diarizeRecording).
 */
export type AudioToDiarize = Pick<CleanedAudio, 'monoPath' | 'stereoPath'> & {
  /** Clean-up's levels: the stereo file's channel activity decides whether channels tell the parties apart. */
  levels?: Pick<CleanedAudio['levels'], 'channelActiveFractions'>;
  /** The audio's length, or the container's claim while it is being written; for the progress estimate. */
  durationSeconds?: number;
  monoBeingWritten?: WavBeingWritten;
};

export interface DiarizeAudioOptions extends DiarizationOptions {
  /** The segmentation model as configured (`SEGMENTATION_MODEL`): absolute, or relative to the install folder. */
  segmentationModel: string;
  /** The speaker-embedding model as configured (`EMBEDDING_MODEL`); when the file is missing, speakers are linked across windows instead. */
  embeddingModel?: string;
  /** CPU threads each model's run may use (`DIARIZATION_THREADS`, as effectiveDiarizationThreads makes it); default 1. */
  threads?: number;
}

/**
 * Real-time factor assumed for the progress estimate (the worker reports nothing until it is
 * done): measured 45–60× on 2 cores for the window-linking path, so 30× errs on the slow side.
 */
const ASSUMED_SPEED = 30;
/** How often the estimate is reported, which also tells the stale-job sweep the stage is alive, ms. */
const PROGRESS_INTERVAL_MS = 2000;

/**
 * The diarization stage: who spoke when in the cleaned audio. The work runs on a worker
 * thread (`diarize` task); this checks the models, and reports an estimated progress while it
 * waits. A missing segmentation model fails as `model_missing` (the call waits for it); a missing embedding model only
 * selects the embedding-free path. A model that cannot be loaded fails as `unavailable` too
 * ({@link diarizationFailures}), and readiness reports it until the file changes.
 */
export async function diarizeAudio(cleaned: AudioToDiarize, options: DiarizeAudioOptions, context: StageContext): Promise<Diarization> {
  const { segmentationModel, embeddingModel, threads, ...diarizationOptions } = options;
  const segmentationModelPath = resolveModelPath(segmentationModel);
  if (!existsSync(segmentationModelPath)) {
    throw new StageFailure('model_missing', `The speaker segmentation model ${basename(segmentationModel)} is not installed; set SEGMENTATION_MODEL to the pyannote segmentation-3.0 ONNX file`);
  }
  const configuredEmbeddingPath = embeddingModel === undefined ? undefined : resolveModelPath(embeddingModel);
  const embeddingModelPath = configuredEmbeddingPath !== undefined && existsSync(configuredEmbeddingPath) ? configuredEmbeddingPath : undefined;
  for (const modelPath of [segmentationModelPath, embeddingModelPath]) if (modelPath !== undefined) await assertModelUsable(modelPath);
  context.signal.throwIfAborted();
  context.reportProgress(0);

  const started = Date.now();
  const expectedMs = Math.max(1000, ((cleaned.durationSeconds ?? 0) / ASSUMED_SPEED) * 1000);
  const timer = setInterval(() => context.reportProgress(Math.min(0.95, (Date.now() - started) / expectedMs)), PROGRESS_INTERVAL_MS);
  try {
    // Readiness reports a model no call can load (an own model is verified by nothing else).
    const models = [
      { path: segmentationModelPath, unusable: [diarizationFailures.segmentationModelUnusable(modelDisplayName(segmentationModelPath))] },
      embeddingModelPath === undefined ? undefined : { path: embeddingModelPath, unusable: [diarizationFailures.embeddingModelUnusable(modelDisplayName(embeddingModelPath))] },
    ];
    const result = await whileLoadingModels(models, () => context.runInWorker('diarize', {
      monoPath: cleaned.monoPath,
      stereoPath: cleaned.stereoPath,
      channelActiveFractions: cleaned.levels?.channelActiveFractions,
      monoBeingWritten: cleaned.monoBeingWritten && { ...cleaned.monoBeingWritten, expectedSeconds: cleaned.durationSeconds },
      segmentationModelPath,
      embeddingModelPath,
      threads,
      options: diarizationOptions,
    }), (diarized) => diarized.method !== 'channel'); // a stereo call diarized by channel loads neither model
    context.signal.throwIfAborted();
    context.reportProgress(1);
    return result;
  } finally {
    clearInterval(timer);
  }
}
