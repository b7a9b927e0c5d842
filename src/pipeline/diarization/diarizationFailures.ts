import { StageFailure } from '../StageFailure.js';

/**
 * The diarization stage's model failures, worded for the operator who reads the call's
 * `errorReason`: what to install or fix, never the recording's path. `modelName` is the
 * configured path relative to the install folder, or the file name (`modelDisplayName`).
 */
export const diarizationFailures = {
  /** Thrown on the worker thread; only its kind and reason cross to the stage (`cause` stays behind). */
  segmentationModelUnusable: (modelName: string, cause?: unknown) =>
    new StageFailure(
      'unavailable',
      `The speaker segmentation model at SEGMENTATION_MODEL (now ${modelName}) could not be loaded: it is damaged or not an ONNX model; `
        + 'replace it with the pyannote segmentation-3.0 ONNX file (callscope models fetch --slot segmentation, or callscope models import <folder>)',
      { cause },
    ),
  /** Thrown on the worker thread; only its kind and reason cross to the stage (`cause` stays behind). */
  embeddingModelUnusable: (modelName: string, cause?: unknown) =>
    new StageFailure(
      'unavailable',
      `The speaker-embedding model at EMBEDDING_MODEL (now ${modelName}) could not be loaded: it is damaged or not an ONNX model; replace it, or remove it to diarize without speaker embeddings`,
      { cause },
    ),
};
