import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingModel } from '../../../../src/pipeline/diarization/models/EmbeddingModel.js';
import { onnxModel } from '../../../../src/infrastructure/models/conversion/onnxModelProto.js';

// Small ONNX graphs written here (see src/infrastructure/models/conversion/onnxModelProto.ts) stand in for WeSpeaker / CAM++ models.

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'embedding-model-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

/** Mean over frames of mel bins 0, 1 and 2, with the model's own input/output names and layout. */
async function meanOfFirstBins(name: string, layout: 'frames-last' | 'mel-last'): Promise<string> {
  const projection = new Float32Array(80 * 3);
  for (let bin = 0; bin < 3; bin++) projection[bin * 3 + bin] = 1;
  const path = join(folder, name);
  await writeFile(path, onnxModel({
    inputs: [{ name: 'fbank', shape: layout === 'mel-last' ? ['B', 'T', 80] : ['B', 80, 'T'] }],
    outputs: [{ name: 'vector', shape: ['B', 3] }],
    nodes: [
      { opType: 'ReduceMean', inputs: ['fbank'], outputs: ['pooled'], attributes: { axes: [layout === 'mel-last' ? 1 : 2], keepdims: 0 } },
      { opType: 'MatMul', inputs: ['pooled', 'projection'], outputs: ['vector'] },
    ],
    initializers: [{ name: 'projection', dims: [80, 3], values: projection }],
  }));
  return path;
}

/** shape: (frames, 80): frame f has value f + 1 in bin 0, 10 in bin 1, -bin elsewhere. */
function features(frames: number): Float32Array {
  return Float32Array.from({ length: frames * 80 }, (_, index) => {
    const [frame, bin] = [Math.floor(index / 80), index % 80];
    return bin === 0 ? frame + 1 : bin === 1 ? 10 : -bin;
  });
}

describe('EmbeddingModel with ONNX graphs built in the test', () => {
  it.each(['mel-last', 'frames-last'] as const)('reads names, layout and sizes from the model: input laid out %s', async (layout) => {
    const model = await EmbeddingModel.create(await meanOfFirstBins(`${layout}.onnx`, layout));
    try {
      expect(model).toMatchObject({ melBins: 80, dimension: 3, fileName: `${layout}.onnx` });
      // Bin 0 averages 1..4 = 2.5; bin 1 is 10; bin 2 is -2.
      expect(Array.from(await model.embed(features(4), 4))).toEqual([2.5, 10, -2]);
    } finally {
      await model.dispose();
    }
  });

  it('refuses a model that needs more than the fbank input', async () => {
    const path = join(folder, 'two-inputs.onnx');
    await writeFile(path, onnxModel({
      inputs: [{ name: 'feats', shape: ['B', 'T', 80] }, { name: 'lengths', shape: ['B', 'T', 80] }],
      outputs: [{ name: 'sum', shape: ['B', 'T', 80] }],
      nodes: [{ opType: 'Add', inputs: ['feats', 'lengths'], outputs: ['sum'] }],
    }));
    await expect(EmbeddingModel.create(path)).rejects.toThrow(/takes 2 inputs/);
  });
});
