import { basename } from 'node:path';
import * as ort from 'onnxruntime-node';
import { modelDisplayName } from '../../../infrastructure/models/resolveModelPath.js';
import { diarizationFailures } from '../diarizationFailures.js';
import { createOnnxSession } from './createOnnxSession.js';
import { ge2eFrontEnd, ge2ePartials } from './ge2eFrontEnd.js';
import type { SpeakerEncoder } from './SpeakerEncoder.js';

/**
 * The GE2E voice encoder (Resemblyzer's, converted to ONNX by ge2eCheckpointToOnnx) with
 * its own front end: an utterance's embedding is the L2-normalised mean of its partials'
 * embeddings, as Resemblyzer's `embed_utterance` makes it. Input `mels` (partials, 160, 40), output
 * `embedding` (partials, 256), each row already of unit length.
 */
export class Ge2eEncoder implements SpeakerEncoder {
  readonly kind = 'ge2e';

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly fileName: string,
  ) {}

  /**
   * Fails with {@link diarizationFailures.embeddingModelUnusable} when onnxruntime cannot load the
   * file, with a plain Error when it loads but is not this encoder.
   */
  static async create(path: string, intraOpThreads = 1): Promise<Ge2eEncoder> {
    const session = await createOnnxSession(path, intraOpThreads, (error) => diarizationFailures.embeddingModelUnusable(modelDisplayName(path), error));
    const input = session.inputMetadata[0];
    if (session.inputNames.length !== 1 || !input?.isTensor || input.shape.at(-1) !== ge2eFrontEnd.melBands) {
      await session.release();
      throw new Error(`not a GE2E voice encoder: expected one input of (partials, frames, ${ge2eFrontEnd.melBands})`);
    }
    return new Ge2eEncoder(session, basename(path));
  }

  /**
   * @param samples shape: (samples), floats in −1 … 1 at 16 kHz, speech only
   * @returns shape: (256), unit length
   */
  async embedSpeech(samples: Float32Array): Promise<Float32Array> {
    const [embedding] = await this.embedSpeeches([samples]);
    return embedding!;
  }

  /**
   * The stretches' partials go through the encoder in one run (on 2 cores with two threads:
   * 3.4 ms a partial in runs of 12, 6 ms in runs of 3, one 3 s piece's worth).
   * @param stretches each shape: (samples), floats in −1 … 1 at 16 kHz, speech only
   * @returns shape: (stretches) of (256), each unit length
   */
  async embedSpeeches(stretches: readonly Float32Array[]): Promise<Float32Array[]> {
    if (stretches.length === 0) return [];
    const { partialFrames, melBands } = ge2eFrontEnd;
    const inputs = stretches.map((samples) => ge2ePartials(samples));
    const partials = inputs.reduce((sum, input) => sum + input.partials, 0);
    const mels = new Float32Array(partials * partialFrames * melBands);
    inputs.reduce((offset, input) => {
      mels.set(input.mels, offset);
      return offset + input.mels.length;
    }, 0);
    const outputs = await this.session.run({ [this.session.inputNames[0]!]: new ort.Tensor('float32', mels, [partials, partialFrames, melBands]) });
    const output = outputs[this.session.outputNames[0]!];
    if (!output || output.type !== 'float32') throw new Error('GE2E voice encoder returned no float32 output');
    // shape: (partials, dimension)
    const rows = output.data as Float32Array;
    const dimension = rows.length / partials;
    let row = 0;
    return inputs.map((input) => {
      const mean = new Float64Array(dimension);
      for (let partial = 0; partial < input.partials; partial++, row++) {
        for (let index = 0; index < dimension; index++) mean[index]! += rows[row * dimension + index]!;
      }
      const norm = Math.hypot(...mean);
      return Float32Array.from(mean, (value) => value / norm);
    });
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
