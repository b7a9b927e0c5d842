import { writeFile } from 'node:fs/promises';
import { onnxModel } from '../../../src/infrastructure/models/conversion/onnxModelProto.js';

/** Centre of Kaldi mel bin `bin` (of 80, 20 Hz–8 kHz), Hz. */
export function melBinCentreHz(bin: number): number {
  const mel = (hz: number) => 1127 * Math.log(1 + hz / 700);
  const low = mel(20);
  const delta = (mel(8000) - low) / 81;
  return 700 * (Math.exp((low + (bin + 1) * delta) / 1127) - 1);
}

/**
 * A stand-in speaker-embedding model: the mean of the fbank frames over time (ReduceMean) projected
 * (MatMul) onto two bands, below 800 Hz and above 1200 Hz, so voices with different spectra point
 * different ways. Input `feats` (batch, frames, 80), output `embs` (batch, 2), as WeSpeaker's export.
 */
export async function writeToyEmbeddingModel(path: string, metadata?: Record<string, string>): Promise<string> {
  const bands = new Float32Array(80 * 2);
  for (let bin = 0; bin < 80; bin++) {
    const hz = melBinCentreHz(bin);
    if (hz < 800) bands[bin * 2] = 1;
    if (hz > 1200) bands[bin * 2 + 1] = 1;
  }
  await writeFile(path, onnxModel({
    inputs: [{ name: 'feats', shape: ['batch', 'frames', 80] }],
    outputs: [{ name: 'embs', shape: ['batch', 2] }],
    nodes: [
      { opType: 'ReduceMean', inputs: ['feats'], outputs: ['pooled'], attributes: { axes: [1], keepdims: 0 } },
      { opType: 'MatMul', inputs: ['pooled', 'bands'], outputs: ['embs'] },
    ],
    initializers: [{ name: 'bands', dims: [80, 2], values: bands }],
    metadata,
  }));
  return path;
}
