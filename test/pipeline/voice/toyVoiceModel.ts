import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { computeFbank, subtractMean } from '../../../src/pipeline/diarization/models/computeFbank.js';
import { onnxModel } from '../../../src/infrastructure/models/conversion/onnxModelProto.js';

const speakers = resolve(import.meta.dirname, '../../../../shared/audio/speakers');

/** The real recordings of `../shared/audio/speakers`: two clips of one speaker, one of another (16 kHz mono WAV). */
export const speakerClips = {
  speaker1a: `${speakers}/speaker1_a_en_16k.wav`,
  speaker1b: `${speakers}/speaker1_b_en_16k.wav`,
  speaker2a: `${speakers}/speaker2_a_en_16k.wav`,
} as const;

/** Mel bins pooled into each output value of the toy model. */
const BANDS = 4;
const MEL_BINS = 80;

/**
 * A stand-in speaker-embedding model for voice-profile tests (real ones are not available
 * offline): per utterance, the log of each mel bin's variance over time (the features arrive
 * mean-normalised, so this is their spread), summed into 4 bands and centred on the mean of
 * the three reference clips. On those clips it behaves like a real model: the two clips of
 * speaker 1 point the same way (cosine ≈ 0.85), speaker 2 the opposite way.
 * Input `feats` (batch, frames, 80), output `embs` (batch, 4), as WeSpeaker's export.
 */
export async function writeToyVoiceModel(path: string): Promise<string> {
  const projection = new Float32Array(MEL_BINS * BANDS);
  for (let bin = 0; bin < MEL_BINS; bin++) projection[bin * BANDS + Math.floor((bin * BANDS) / MEL_BINS)] = 1;
  await writeFile(path, onnxModel({
    inputs: [{ name: 'feats', shape: ['batch', 'frames', MEL_BINS] }],
    outputs: [{ name: 'embs', shape: ['batch', BANDS] }],
    nodes: [
      { opType: 'Mul', inputs: ['feats', 'feats'], outputs: ['squared'] },
      { opType: 'ReduceMean', inputs: ['squared'], outputs: ['variance'], attributes: { axes: [1], keepdims: 0 } },
      { opType: 'Log', inputs: ['variance'], outputs: ['logVariance'] },
      { opType: 'MatMul', inputs: ['logVariance', 'projection'], outputs: ['banded'] },
      { opType: 'Sub', inputs: ['banded', 'centre'], outputs: ['embs'] },
    ],
    initializers: [
      { name: 'projection', dims: [MEL_BINS, BANDS], values: projection },
      { name: 'centre', dims: [BANDS], values: referenceCentre() },
    ],
  }));
  return path;
}

/** Mean over the reference clips of their banded log-variances (the model's output before centring). */
function referenceCentre(): Float32Array {
  const centre = new Float32Array(BANDS);
  const clips = Object.values(speakerClips);
  for (const clip of clips) {
    const { frames, features } = computeFbank(readPcm(clip), { melBins: MEL_BINS });
    subtractMean(features, MEL_BINS);
    const variance = new Float64Array(MEL_BINS);
    for (let index = 0; index < features.length; index++) variance[index % MEL_BINS]! += features[index]! ** 2 / frames;
    for (let bin = 0; bin < MEL_BINS; bin++) centre[Math.floor((bin * BANDS) / MEL_BINS)]! += Math.log(variance[bin]!) / clips.length;
  }
  return centre;
}

/** Samples of a canonical 44-byte-header 16-bit mono WAV on the integer scale. */
function readPcm(path: string): Float32Array {
  const data = readFileSync(path).subarray(44);
  return Float32Array.from({ length: data.length >> 1 }, (_, index) => data.readInt16LE(index * 2));
}
