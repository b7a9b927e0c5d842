import { float16Bits } from '../../../scripts/models/float16.js';
import { ct2DataTypes, type Ct2DataType } from '../../../scripts/models/whisper/readCt2Model.js';

/**
 * A tiny Whisper in CTranslate2's `model.bin` layout, written here byte by byte (no weights, no
 * CTranslate2): width 4, one head, one encoder and one decoder layer, 2 mel bands, English
 * vocabulary size (51864) with Whisper's special tokens where whisper.cpp expects them. Every
 * value is distinct, so a tensor taken from the wrong place shows.
 */

export interface SyntheticVariable {
  name: string;
  shape: number[];
  dataType: Ct2DataType;
  data: Buffer;
}

export interface SyntheticCt2 {
  binaryVersion: number;
  specName: string;
  specRevision: number;
  variables: SyntheticVariable[];
  aliases: [string, string][];
}

export const width = 4;
export const melBands = 2;
export const vocabularySize = 51864;
export const audioContext = 6;
export const textContext = 5;

function ct2String(text: string): Buffer {
  const bytes = Buffer.from(`${text}\0`, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16LE(bytes.length);
  return Buffer.concat([length, bytes]);
}

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};

/** The bytes of a `model.bin` holding `model`. */
export function ct2ModelBytes(model: SyntheticCt2): Buffer {
  const parts = [u32(model.binaryVersion), ct2String(model.specName), u32(model.specRevision), u32(model.variables.length)];
  for (const variable of model.variables) {
    parts.push(ct2String(variable.name), Buffer.from([variable.shape.length]), ...variable.shape.map(u32));
    parts.push(Buffer.from([ct2DataTypes.indexOf(variable.dataType)]), u32(variable.data.length), variable.data);
  }
  parts.push(u32(model.aliases.length));
  for (const [alias, target] of model.aliases) parts.push(ct2String(alias), ct2String(target));
  return Buffer.concat(parts);
}

let nextValue = 1;
/** float16 values −2000/64 … 1999/64 in turn (exact in float16), so that neighbouring tensors differ. */
function float16Tensor(shape: number[]): Buffer {
  const count = shape.reduce((product, size) => product * size, 1);
  const data = Buffer.alloc(count * 2);
  for (let index = 0; index < count; index += 1) data.writeUInt16LE(float16Bits(((nextValue++ % 4000) - 2000) / 64), index * 2);
  return data;
}

const scalar = (name: string, dataType: 'int8' | 'int16', value: number): SyntheticVariable => {
  const data = Buffer.alloc(dataType === 'int8' ? 1 : 2);
  if (dataType === 'int8') data.writeInt8(value);
  else data.writeInt16LE(value);
  return { name, shape: [], dataType, data };
};

const tensor = (name: string, shape: number[]): SyntheticVariable => ({ name, shape, dataType: 'float16', data: float16Tensor(shape) });

/** A linear layer of `outputs` × `inputs`; `zeroRows` of the bias are zero (an attention key's part of a fused bias). */
function linear(name: string, outputs: number, inputs: number, zeroRows?: [number, number]): SyntheticVariable[] {
  const bias = tensor(`${name}/bias`, [outputs]);
  if (zeroRows) bias.data.fill(0, zeroRows[0] * 2, zeroRows[1] * 2);
  return [tensor(`${name}/weight`, [outputs, inputs]), bias];
}

const layerNorm = (name: string) => [tensor(`${name}/gamma`, [width]), tensor(`${name}/beta`, [width])];

/** The synthetic model as CTranslate2 4.x writes Whisper (variables in name order, the projection an alias). */
export function syntheticWhisperCt2(): SyntheticCt2 {
  // The same values on every call.
  nextValue = 1;
  const S = width;
  const sharedLayer = (prefix: string) => [
    ...linear(`${prefix}/self_attention/linear_0`, 3 * S, S, [S, 2 * S]),
    ...linear(`${prefix}/self_attention/linear_1`, S, S),
    ...layerNorm(`${prefix}/self_attention/layer_norm`),
    ...linear(`${prefix}/ffn/linear_0`, 4 * S, S),
    ...linear(`${prefix}/ffn/linear_1`, S, 4 * S),
    ...layerNorm(`${prefix}/ffn/layer_norm`),
  ];
  const variables: SyntheticVariable[] = [
    scalar('decoder/activation', 'int8', 3),
    scalar('decoder/alibi', 'int8', 0),
    tensor('decoder/embeddings/weight', [vocabularySize, S]),
    ...sharedLayer('decoder/layer_0'),
    ...linear('decoder/layer_0/attention/linear_0', S, S),
    ...linear('decoder/layer_0/attention/linear_1', 2 * S, S, [0, S]),
    ...linear('decoder/layer_0/attention/linear_2', S, S),
    ...layerNorm('decoder/layer_0/attention/layer_norm'),
    ...layerNorm('decoder/layer_norm'),
    scalar('decoder/num_heads', 'int16', 1),
    tensor('decoder/position_encodings/encodings', [textContext, S]),
    scalar('decoder/pre_norm', 'int8', 1),
    scalar('decoder/scale_embeddings', 'int8', 0),
    ...linear('encoder/conv1', S, melBands * 3).map((variable) => (variable.name.endsWith('weight') ? { ...variable, shape: [S, melBands, 3] } : variable)),
    ...linear('encoder/conv2', S, S * 3).map((variable) => (variable.name.endsWith('weight') ? { ...variable, shape: [S, S, 3] } : variable)),
    ...sharedLayer('encoder/layer_0'),
    ...layerNorm('encoder/layer_norm'),
    scalar('encoder/num_heads', 'int16', 1),
    tensor('encoder/position_encodings/encodings', [audioContext, S]),
  ];
  variables.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { binaryVersion: 6, specName: 'WhisperSpec', specRevision: 3, variables, aliases: [['decoder/projection/weight', 'decoder/embeddings/weight']] };
}

/**
 * An English Whisper vocabulary in GPT-2 byte-level form: a few tokens that show the byte
 * mapping (`Ġ` is a space, `Ċ` a newline, `Ã©` the two bytes of "é", `¡` the byte 0xa1), fillers,
 * then the special tokens at their ids.
 */
export function syntheticVocabulary(): string[] {
  const tokens = ['Ġthe', 'Ã©', 'Ċ', '¡'];
  while (tokens.length < 50256) tokens.push(`tok${tokens.length}`);
  tokens.push('<|endoftext|>', '<|startoftranscript|>');
  while (tokens.length < 50357) tokens.push(`<|lang${tokens.length}|>`);
  tokens.push('<|translate|>', '<|transcribe|>', '<|startoflm|>', '<|startofprev|>', '<|nocaptions|>', '<|notimestamps|>');
  while (tokens.length < vocabularySize) tokens.push(`<|${((tokens.length - 50363) * 0.02).toFixed(2)}|>`);
  return tokens;
}

export function variableOf(model: SyntheticCt2, name: string): SyntheticVariable {
  const variable = model.variables.find((candidate) => candidate.name === name);
  if (!variable) throw new Error(`no ${name} in the synthetic model`);
  return variable;
}
