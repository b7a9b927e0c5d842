import { basename } from 'node:path';
import * as ort from 'onnxruntime-node';
import { modelDisplayName } from '../../../infrastructure/models/resolveModelPath.js';
import { threadResources } from '../../../infrastructure/workers/WorkerResources.js';
import { unitLength } from '../speakers/clusterEmbeddings.js';
import { diarizationFailures } from '../diarizationFailures.js';
import { createOnnxSession } from './createOnnxSession.js';
import { computeFbank, subtractMean } from './computeFbank.js';
import type { SpeakerEncoder } from './SpeakerEncoder.js';

/**
 * A speaker-embedding ONNX model of the WeSpeaker ResNet34 / 3D-Speaker CAM++ kind: Kaldi fbank
 * features of one utterance in, one embedding vector out. Names, layout and sizes come from
 * the model's own metadata:
 * - input: its first input, `(batch, frames, melBins)`, `(batch, melBins, frames)` or
 *   `(frames, melBins)`; the mel-bin axis is the numeric one (symbolic axes are batch/frames);
 * - output: its first output, `(batch, dimension)` or `(dimension)`.
 */
export class EmbeddingModel implements SpeakerEncoder {
  readonly kind = 'fbank';

  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly inputName: string,
    private readonly outputName: string,
    private readonly layout: InputLayout,
    /** Mel bins per feature frame the model expects (80 for WeSpeaker and CAM++). */
    readonly melBins: number,
    /** Length of the embedding, when the model's metadata states it; otherwise known after the first `embed`. */
    private knownDimension: number | undefined,
    /** The model file's name, for provenance (no path). */
    readonly fileName: string,
  ) {}

  /**
   * Fails with {@link diarizationFailures.embeddingModelUnusable} when onnxruntime cannot load the
   * file, with a plain Error when it loads but is not a model of this kind.
   */
  static async create(path: string, intraOpThreads = 1): Promise<EmbeddingModel> {
    const session = await createOnnxSession(path, intraOpThreads, (error) => diarizationFailures.embeddingModelUnusable(modelDisplayName(path), error));
    try {
      const input = session.inputMetadata[0];
      const output = session.outputMetadata[0];
      if (!input?.isTensor || !output?.isTensor) throw new Error('speaker-embedding model must have a tensor input and output');
      if (session.inputNames.length !== 1) throw new Error(`speaker-embedding model takes ${session.inputNames.length} inputs; only fbank-only models (one input) are supported`);
      const { layout, melBins } = inputLayout(input.shape);
      const last = output.shape.at(-1);
      return new EmbeddingModel(session, input.name, output.name, layout, melBins, typeof last === 'number' ? last : undefined, basename(path));
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** Length of the embedding vectors (known from the metadata, or after the first `embed`). */
  get dimension(): number | undefined {
    return this.knownDimension;
  }

  /**
   * The embedding of one utterance.
   * @param features shape: (frames, melBins), mean-normalised log mel energies
   * @returns shape: (dimension)
   */
  async embed(features: Float32Array, frames: number): Promise<Float32Array> {
    const { melBins } = this;
    const data = this.layout === 'batch-mel-frames' ? transpose(features, frames, melBins) : features.subarray(0, frames * melBins);
    const dims = this.layout === 'batch-frames-mel' ? [1, frames, melBins] : this.layout === 'batch-mel-frames' ? [1, melBins, frames] : [frames, melBins];
    const outputs = await this.session.run({ [this.inputName]: new ort.Tensor('float32', data, dims) });
    const output = outputs[this.outputName];
    if (!output || output.type !== 'float32') throw new Error('speaker-embedding model returned no float32 output');
    const vector = Float32Array.from(output.data as Float32Array);
    if (this.knownDimension !== undefined && vector.length !== this.knownDimension) {
      throw new Error(`speaker-embedding model returned ${vector.length} values, its metadata says ${this.knownDimension}`);
    }
    this.knownDimension = vector.length;
    return vector;
  }

  /**
   * The unit-length embedding of one speaker's speech: its mean-normalised Kaldi fbank, as
   * WeSpeaker's and 3D-Speaker's own wrappers make it.
   * @param samples shape: (samples), floats in −1 … 1 at 16 kHz
   */
  async embedSpeech(samples: Float32Array): Promise<Float32Array> {
    // Kaldi features expect the 16-bit integer scale.
    const { frames, features } = computeFbank(samples.map((sample) => sample * 32768), { melBins: this.melBins });
    if (frames === 0) throw new Error('too little audio to embed (less than one 25 ms frame)');
    subtractMean(features, this.melBins);
    return Float32Array.from(unitLength(await this.embed(features, frames)));
  }

  /** One run per stretch: stretches of different lengths make inputs of different shapes. */
  async embedSpeeches(stretches: readonly Float32Array[]): Promise<Float32Array[]> {
    const embeddings: Float32Array[] = [];
    for (const samples of stretches) embeddings.push(await this.embedSpeech(samples));
    return embeddings;
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

/** The current worker thread's session for the embedding model at `path`, created on first use. */
export function loadEmbeddingModel(path: string): Promise<EmbeddingModel> {
  return threadResources.get(`embedding:${path}`, () => EmbeddingModel.create(path));
}

/** How the model's input tensor is laid out. */
type InputLayout = 'batch-frames-mel' | 'batch-mel-frames' | 'frames-mel';

function inputLayout(shape: ReadonlyArray<number | string>): { layout: InputLayout; melBins: number } {
  const numeric = (axis: number) => (typeof shape[axis] === 'number' && (shape[axis] as number) > 1 ? (shape[axis] as number) : undefined);
  if (shape.length === 3) {
    const last = numeric(2);
    if (last !== undefined) return { layout: 'batch-frames-mel', melBins: last };
    const middle = numeric(1);
    if (middle !== undefined) return { layout: 'batch-mel-frames', melBins: middle };
    return { layout: 'batch-frames-mel', melBins: 80 };
  }
  if (shape.length === 2) return { layout: 'frames-mel', melBins: numeric(1) ?? 80 };
  throw new Error(`speaker-embedding model input has rank ${shape.length}; expected (batch, frames, mel bins)`);
}

/** shape: (frames, melBins) → (melBins, frames) */
function transpose(features: Float32Array, frames: number, melBins: number): Float32Array {
  const transposed = new Float32Array(frames * melBins);
  for (let frame = 0; frame < frames; frame++) {
    for (let mel = 0; mel < melBins; mel++) transposed[mel * frames + frame] = features[frame * melBins + mel]!;
  }
  return transposed;
}
