import '../../../infrastructure/inference/onnxRuntimeTelemetry.js';
import * as ort from 'onnxruntime-node';
import { createSessionWithFallback } from '../../../infrastructure/gpu/onnxExecutionProviders.js';

/**
 * An onnxruntime session for one of the diarization models, on the best provider that starts.
 * @param intraOpThreads CPU threads one run may use: 1 where worker threads run calls side by
 *   side; more when one call has the cores to itself (the segmentation model on 2 cores: 51 ms
 *   per 10 s window with one thread, 36 ms with two, batches of 8). The threads spin between
 *   runs (onnxruntime's default): without it a 10-minute call's diarization took 16–21 s
 *   instead of 17–19 s, three runs each on 2 cores.
 * @param unusable the failure to throw when onnxruntime cannot load the file (its own message
 *   names the absolute path, which is not for a call's reason)
 */
export function createOnnxSession(path: string, intraOpThreads: number, unusable: (error: unknown) => Error): Promise<ort.InferenceSession> {
  return createSessionWithFallback((executionProviders) => ort.InferenceSession.create(path, {
    // 'all' (onnxruntime's default) segfaults on the segmentation model with onnxruntime-node 1.30.
    graphOptimizationLevel: 'extended',
    intraOpNumThreads: intraOpThreads,
    interOpNumThreads: 1,
    executionProviders,
  })).catch((error: unknown) => {
    throw unusable(error);
  });
}
