import { createHash } from 'node:crypto';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { ge2eCheckpointToOnnx, GE2E_METADATA } from '../../../../src/infrastructure/models/conversion/ge2eCheckpointToOnnx.js';
import { CheckpointFormatError } from '../../../../src/infrastructure/models/conversion/readLegacyTorchCheckpoint.js';
import { readOnnxMetadata } from '../../../../src/pipeline/diarization/models/readOnnxMetadata.js';
import { ge2eTestCheckpoint, ge2eTestEmbedding } from './ge2eTestCheckpoint.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('ge2eCheckpointToOnnx', () => {
  it('makes an ONNX model whose LSTM gates are PyTorch\'s, reordered: its embedding is the one the network computes', async () => {
    const model = ge2eCheckpointToOnnx(ge2eTestCheckpoint());
    const session = await ort.InferenceSession.create(model);
    const frames = 50;
    // The weights are zero but the biases, so the input cannot matter: any mels will do.
    const mels = Float32Array.from({ length: 2 * frames * 40 }, (_, index) => Math.sin(index));
    const { embedding } = await session.run({ mels: new ort.Tensor('float32', mels, [2, frames, 40]) });
    expect(embedding!.dims).toEqual([2, 256]);
    const expected = ge2eTestEmbedding(frames);
    const values = embedding!.data as Float32Array;
    for (const row of [0, 1]) {
      for (let unit = 0; unit < 256; unit++) expect(values[row * 256 + unit]).toBeCloseTo(expected[unit]!, 5);
    }
  });

  it('gives the same bytes every time (the manifest pins their digest), and states the kind the embedding slot reads', async () => {
    const first = ge2eCheckpointToOnnx(ge2eTestCheckpoint());
    const second = ge2eCheckpointToOnnx(ge2eTestCheckpoint());
    expect(createHash('sha256').update(first).digest('hex')).toBe(createHash('sha256').update(second).digest('hex'));
    const folder = await mkdtemp(join(tmpdir(), 'ge2e-convert-'));
    try {
      await writeFile(join(folder, 'model.onnx'), first);
      expect(Object.fromEntries(await readOnnxMetadata(join(folder, 'model.onnx')))).toEqual(GE2E_METADATA);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses a checkpoint without the encoder\'s weights, naming the one missing or misshapen', () => {
    expect(() => ge2eCheckpointToOnnx(ge2eTestCheckpoint({ drop: 'lstm.weight_hh_l1' }))).toThrow(/lstm\.weight_hh_l1 is missing or not of shape \[1024, 256\]/);
    expect(() => ge2eCheckpointToOnnx(ge2eTestCheckpoint({ withoutModelState: true }))).toThrow(CheckpointFormatError);
  });
});
