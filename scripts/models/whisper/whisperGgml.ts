import { open } from 'node:fs/promises';
import { ByteReader } from '../ByteReader.js';
import type { MelFilterbank } from '../../../src/pipeline/signal/slaneyMelFilters.js';
import { ggmlMagic, whisperHyperParameterNames, type WhisperHyperParameters } from '../../../src/pipeline/transcription/whisperModelHeader.js';

/**
 * whisper.cpp's model file (`ggml-base.en.bin` and kin), as its loader (`whisper_model_load`,
 * whisper.cpp 1.9) reads it, all little-endian:
 *
 *   u32 magic 0x67676d6c ("ggml")
 *   i32 × 11 hyper-parameters, in the order of {@link whisperHyperParameterNames}
 *   i32 mel bands, i32 frequency bins, f32 filterbank [bands × bins]
 *   i32 token count, then per token: u32 byte length, its bytes (GPT-2 byte-level BPE, raw bytes)
 *   tensors to the end of the file, each: i32 rank, i32 name length, i32 type (0 f32, 1 f16),
 *   i32 dims[rank] innermost first (ggml's ne0, ne1…), the name, the data
 *
 * The loader adds the special tokens after the written ones itself (`[_EOT_]`, `[_SOT_]`…), finds
 * tensors by name, and checks each one's shape and byte size.
 */
export { ggmlMagic, whisperHyperParameterNames, type WhisperHyperParameters } from '../../../src/pipeline/transcription/whisperModelHeader.js';

export const ggmlTensorTypes = ['f32', 'f16'] as const;
export type GgmlTensorType = (typeof ggmlTensorTypes)[number];
const bytesPerValue: Record<GgmlTensorType, number> = { f32: 4, f16: 2 };

export interface GgmlTensor {
  /** whisper.cpp's name (`decoder.blocks.0.cross_attn.key.weight`). */
  name: string;
  /** Dimensions outermost first (PyTorch order); the file stores them reversed. */
  shape: number[];
  type: GgmlTensorType;
  /** Little-endian values of `type`, row-major. */
  data: Buffer;
}

export interface WhisperGgml {
  hyperParameters: WhisperHyperParameters;
  melFilters: MelFilterbank;
  /** Token texts as bytes, by id; ids after the last one are the loader's special tokens. */
  tokens: Buffer[];
  tensors: GgmlTensor[];
}

/** The file's bytes, in order: the header, filterbank and vocabulary in one buffer, then each tensor's header and data. */
export function* whisperGgmlChunks(model: WhisperGgml): Generator<Buffer> {
  const { melBands, frequencyBins, weights } = model.melFilters;
  const tokenBytes = model.tokens.reduce((sum, token) => sum + 4 + token.length, 0);
  const head = Buffer.alloc(4 + 4 * whisperHyperParameterNames.length + 8 + weights.length * 4 + 4 + tokenBytes);
  let offset = head.writeUInt32LE(ggmlMagic, 0);
  for (const name of whisperHyperParameterNames) offset = head.writeInt32LE(model.hyperParameters[name], offset);
  offset = head.writeInt32LE(melBands, offset);
  offset = head.writeInt32LE(frequencyBins, offset);
  for (const weight of weights) offset = head.writeFloatLE(weight, offset);
  offset = head.writeInt32LE(model.tokens.length, offset);
  for (const token of model.tokens) {
    offset = head.writeUInt32LE(token.length, offset);
    offset += token.copy(head, offset);
  }
  yield head;
  for (const tensor of model.tensors) {
    const name = Buffer.from(tensor.name, 'utf8');
    const header = Buffer.alloc(12 + 4 * tensor.shape.length);
    header.writeInt32LE(tensor.shape.length, 0);
    header.writeInt32LE(name.length, 4);
    header.writeInt32LE(ggmlTensorTypes.indexOf(tensor.type), 8);
    tensor.shape.toReversed().forEach((size, axis) => header.writeInt32LE(size, 12 + 4 * axis));
    yield Buffer.concat([header, name]);
    yield tensor.data;
  }
}

/** Writes `model` to `path` (replacing it). */
export async function writeWhisperGgml(path: string, model: WhisperGgml): Promise<void> {
  const file = await open(path, 'w');
  try {
    for (const chunk of whisperGgmlChunks(model)) await file.write(chunk);
  } finally {
    await file.close();
  }
}

/**
 * Reads a whisper.cpp model file held in memory (tensors as views into it), checking the layout
 * above: the magic, positive hyper-parameters, a filterbank of `n_mels` bands, token lengths that
 * fit, and tensors of known type whose data fits. A file without tensors (a structure-only
 * stub) reads with none.
 */
export function readWhisperGgml(bytes: Buffer, file: string): WhisperGgml {
  // Annotated, so that its `fail` (returning never) narrows the values checked before it.
  const reader: ByteReader = new ByteReader(bytes, file);
  const magic = reader.u32('magic');
  if (magic !== ggmlMagic) reader.fail('magic', `is 0x${magic.toString(16)}, expected 0x${ggmlMagic.toString(16)} ("ggml")`);
  const hyperParameters = {} as WhisperHyperParameters;
  for (const name of whisperHyperParameterNames) {
    hyperParameters[name] = reader.i32(name);
    if (hyperParameters[name] < (name === 'ftype' ? 0 : 1)) reader.fail(name, `is ${hyperParameters[name]}, expected a positive count`);
  }
  const melBands = reader.i32('filterbank mel bands');
  if (melBands !== hyperParameters.n_mels) reader.fail('filterbank mel bands', `is ${melBands}, but n_mels is ${hyperParameters.n_mels}`);
  const frequencyBins = reader.i32('filterbank frequency bins');
  if (frequencyBins < 1) reader.fail('filterbank frequency bins', `is ${frequencyBins}, expected a positive count`);
  const filterBytes = reader.take(melBands * frequencyBins * 4, 'filterbank');
  const weights = new Float32Array(melBands * frequencyBins);
  for (let index = 0; index < weights.length; index += 1) weights[index] = filterBytes.readFloatLE(index * 4);
  const tokenCount = reader.i32('token count');
  if (tokenCount < 1 || tokenCount > hyperParameters.n_vocab) reader.fail('token count', `is ${tokenCount}, expected 1 to n_vocab (${hyperParameters.n_vocab})`);
  const tokens = Array.from({ length: tokenCount }, (_, id) => Buffer.from(reader.take(reader.u32(`token ${id} length`), `token ${id}`)));
  const tensors: GgmlTensor[] = [];
  while (reader.remaining > 0) {
    const field = `tensor ${tensors.length}`;
    const rank = reader.i32(`${field} rank`);
    if (rank < 1 || rank > 4) reader.fail(`${field} rank`, `is ${rank}, expected 1 to 4`);
    const nameLength = reader.i32(`${field} name length`);
    const typeId = reader.i32(`${field} type`);
    const type = ggmlTensorTypes[typeId];
    if (type === undefined) reader.fail(`${field} type`, `is ${typeId}, expected 0 (f32) or 1 (f16)`);
    const reversedShape = Array.from({ length: rank }, (_, axis) => reader.i32(`${field} dimension ${axis}`));
    const name = reader.take(nameLength, `${field} name`).toString('utf8');
    const valueCount = reversedShape.reduce((product, size) => product * size, 1);
    tensors.push({ name, shape: reversedShape.toReversed(), type, data: reader.take(valueCount * bytesPerValue[type], `${field} (${name}) data`) });
  }
  return { hyperParameters, melFilters: { melBands, frequencyBins, weights }, tokens, tensors };
}
