import { basename } from 'node:path';
import * as ort from 'onnxruntime-node';
import { threadResources, type Disposable } from '../../../infrastructure/workers/WorkerResources.js';
import { modelDisplayName } from '../../../infrastructure/models/resolveModelPath.js';
import { diarizationFailures } from '../diarizationFailures.js';
import { createOnnxSession } from './createOnnxSession.js';

/**
 * pyannote segmentation-3.0 (PyanNet: SincNet + LSTM) exported to ONNX: 10 s of 16 kHz audio
 * in, per-frame powerset log-probabilities over at most 3 local speakers out.
 * The frame geometry is the architecture's (SincNet's strides and kernel sizes), not the file's.
 */
export const segmentationGeometry = {
  sampleRate: 16000,
  /** 10 s. */
  windowSamples: 160_000,
  /** Output frames per window, shape: (batch, framesPerWindow, powersetClasses). */
  framesPerWindow: 589,
  /** A new frame every 270 samples (16.875 ms)... */
  frameStepSamples: 270,
  /** ...each seeing 991 samples (61.9 ms); frame f covers samples [270 f, 270 f + 991) of its window. */
  frameSpanSamples: 991,
  powersetClasses: 7,
} as const;

/** The ONNX session of a segmentation model; one per worker thread (see {@link loadSegmentationModel}). */
export class SegmentationModel implements Disposable {
  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly inputName: string,
    private readonly outputName: string,
    /** The model file's name, for provenance (no path). */
    readonly fileName: string,
  ) {}

  /**
   * Fails with {@link diarizationFailures.segmentationModelUnusable} when onnxruntime cannot load the file (truncated, overwritten, not ONNX).
   * @param intraOpThreads CPU threads one batch of windows may use (see {@link createOnnxSession})
   */
  static async create(path: string, intraOpThreads = 1): Promise<SegmentationModel> {
    const session = await createOnnxSession(path, intraOpThreads, (error) => diarizationFailures.segmentationModelUnusable(modelDisplayName(path), error));
    const [inputName] = session.inputNames;
    const [outputName] = session.outputNames;
    if (inputName === undefined || outputName === undefined) throw new Error('segmentation model has no input or output');
    return new SegmentationModel(session, inputName, outputName, basename(path));
  }

  /**
   * Powerset log-probabilities of `windows` windows of `windowSamples` samples each.
   * @param audio shape: (windows, windowSamples), -1..1
   * @returns shape: (windows, framesPerWindow, powersetClasses)
   */
  async segment(audio: Float32Array, windows: number): Promise<Float32Array> {
    const { windowSamples, framesPerWindow, powersetClasses } = segmentationGeometry;
    const input = new ort.Tensor('float32', audio.subarray(0, windows * windowSamples), [windows, 1, windowSamples]);
    const outputs = await this.session.run({ [this.inputName]: input });
    const logits = outputs[this.outputName];
    if (!logits) throw new Error('segmentation model returned no output');
    const [batch, frames, classes] = logits.dims;
    if (batch !== windows || frames !== framesPerWindow || classes !== powersetClasses) {
      throw new Error(`segmentation model output has shape [${logits.dims.join(', ')}], expected [${windows}, ${framesPerWindow}, ${powersetClasses}]: not pyannote segmentation-3.0`);
    }
    return logits.data as Float32Array;
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

/** The current worker thread's session for the model at `path` with `intraOpThreads` threads, created on first use. */
export function loadSegmentationModel(path: string, intraOpThreads = 1): Promise<SegmentationModel> {
  return threadResources.get(`segmentation:${path}:${intraOpThreads}`, () => SegmentationModel.create(path, intraOpThreads));
}

/** Recording frame (on the model's 270-sample grid) of a window's first frame. */
export function windowStartFrame(startSample: number): number {
  return Math.round(startSample / segmentationGeometry.frameStepSamples);
}

/** Frames of a recording of `totalSamples` samples: those whose centre lies inside it. */
export function recordingFrameCount(totalSamples: number): number {
  const { frameStepSamples, frameSpanSamples } = segmentationGeometry;
  return Math.max(0, Math.ceil((totalSamples - frameSpanSamples / 2) / frameStepSamples));
}

/** Frame f stands for the 270 samples around its centre: seconds per frame, and where frame 0's stretch starts. */
export const frameTiming = {
  frameSeconds: segmentationGeometry.frameStepSamples / segmentationGeometry.sampleRate,
  offsetSeconds: (segmentationGeometry.frameSpanSamples - segmentationGeometry.frameStepSamples) / 2 / segmentationGeometry.sampleRate,
} as const;
