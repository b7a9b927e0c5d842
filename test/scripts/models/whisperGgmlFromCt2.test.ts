import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { float16Bits, float16Value } from '../../../scripts/models/float16.js';
import { ModelFormatError } from '../../../scripts/models/ModelFormatError.js';
import { convertCt2WhisperToGgml } from '../../../scripts/models/whisper/convertCt2WhisperToGgml.js';
import { readCt2Model } from '../../../scripts/models/whisper/readCt2Model.js';
import { slaneyMelFilters } from '../../../src/pipeline/signal/slaneyMelFilters.js';
import { readWhisperGgml, type WhisperGgml } from '../../../scripts/models/whisper/whisperGgml.js';
import { whisperGgmlFromCt2 } from '../../../scripts/models/whisper/whisperGgmlFromCt2.js';
import {
  audioContext, ct2ModelBytes, melBands, syntheticVocabulary, syntheticWhisperCt2, textContext, variableOf, vocabularySize, width, type SyntheticCt2,
} from './syntheticCt2Whisper.js';

// The CTranslate2 → whisper.cpp converter on a synthetic model written byte by byte in the test
// (no weights): what it reads, what it writes, and what it refuses. The real models are
// converted and checked against faster-whisper in convertCt2WhisperToGgml.realModel.test.ts and
// `npm run eval:conversion`.

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'ct2-whisper-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

const file = 'model.bin';
const convert = (model: SyntheticCt2, vocabulary = syntheticVocabulary()) => whisperGgmlFromCt2(readCt2Model(ct2ModelBytes(model), file), vocabulary, file);

/** The ggml tensor `name` of a converted model. */
function tensorOf(model: WhisperGgml, name: string) {
  const tensor = model.tensors.find((candidate) => candidate.name === name);
  if (!tensor) throw new Error(`no tensor ${name}`);
  return tensor;
}

/** float16 values as numbers. */
const halves = (data: Buffer) => Array.from({ length: data.length / 2 }, (_, index) => float16Value(data.readUInt16LE(index * 2)));
const floats = (data: Buffer) => Array.from({ length: data.length / 4 }, (_, index) => data.readFloatLE(index * 4));

/** The tensors whisper.cpp 1.9's loader creates for one encoder and one decoder layer (src/whisper-arch.h). */
const whisperCppTensorNames = [
  'encoder.positional_embedding', 'encoder.conv1.weight', 'encoder.conv1.bias', 'encoder.conv2.weight', 'encoder.conv2.bias',
  'encoder.ln_post.weight', 'encoder.ln_post.bias',
  ...['mlp_ln.weight', 'mlp_ln.bias', 'mlp.0.weight', 'mlp.0.bias', 'mlp.2.weight', 'mlp.2.bias', 'attn_ln.weight', 'attn_ln.bias',
    'attn.query.weight', 'attn.query.bias', 'attn.key.weight', 'attn.value.weight', 'attn.value.bias', 'attn.out.weight', 'attn.out.bias'].flatMap((name) => [`encoder.blocks.0.${name}`, `decoder.blocks.0.${name}`]),
  'decoder.positional_embedding', 'decoder.token_embedding.weight', 'decoder.ln.weight', 'decoder.ln.bias',
  ...['cross_attn_ln.weight', 'cross_attn_ln.bias', 'cross_attn.query.weight', 'cross_attn.query.bias', 'cross_attn.key.weight',
    'cross_attn.value.weight', 'cross_attn.value.bias', 'cross_attn.out.weight', 'cross_attn.out.bias'].map((name) => `decoder.blocks.0.${name}`),
];

describe('reading CTranslate2 model.bin', () => {
  it('reads the header, every variable (name, shape, type, bytes) and the aliases', () => {
    const model = syntheticWhisperCt2();
    const read = readCt2Model(ct2ModelBytes(model), file);
    expect(read).toMatchObject({ binaryVersion: 6, specName: 'WhisperSpec', specRevision: 3 });
    expect([...read.variables.keys()]).toEqual(model.variables.map((variable) => variable.name));
    for (const variable of model.variables) expect(read.variables.get(variable.name)).toEqual(variable);
    expect([...read.aliases]).toEqual([['decoder/projection/weight', 'decoder/embeddings/weight']]);
  });
});

describe('converting to whisper.cpp ggml f16', () => {
  it('writes the hyper-parameters whisper.cpp reads, from the shapes and scalars', () => {
    expect(convert(syntheticWhisperCt2()).hyperParameters).toEqual({
      n_vocab: vocabularySize, n_audio_ctx: audioContext, n_audio_state: width, n_audio_head: 1, n_audio_layer: 1,
      n_text_ctx: textContext, n_text_state: width, n_text_head: 1, n_text_layer: 1, n_mels: melBands, ftype: 1,
    });
  });

  it('writes exactly the tensors whisper.cpp loads: matrices and kernels f16, biases, norms and positional embeddings f32, convolution biases as [S, 1]', () => {
    const converted = convert(syntheticWhisperCt2());
    expect(converted.tensors.map((tensor) => tensor.name).sort()).toEqual([...whisperCppTensorNames].sort());
    for (const tensor of converted.tensors) {
      const isMatrix = tensor.shape.length >= 2 && !tensor.name.endsWith('positional_embedding') && !tensor.name.endsWith('.bias');
      expect(tensor.type, tensor.name).toBe(isMatrix ? 'f16' : 'f32');
    }
    expect(tensorOf(converted, 'encoder.conv1.weight').shape).toEqual([width, melBands, 3]);
    expect(tensorOf(converted, 'encoder.conv1.bias').shape).toEqual([width, 1]);
    expect(tensorOf(converted, 'decoder.token_embedding.weight').shape).toEqual([vocabularySize, width]);
  });

  it('splits fused attention: self-attention rows are query, key, value; cross-attention linear_0 is the query and linear_1 key then value', () => {
    const model = syntheticWhisperCt2();
    const converted = convert(model);
    const S = width;
    const fused = halves(variableOf(model, 'encoder/layer_0/self_attention/linear_0/weight').data);
    const fusedBias = halves(variableOf(model, 'encoder/layer_0/self_attention/linear_0/bias').data);
    expect(halves(tensorOf(converted, 'encoder.blocks.0.attn.query.weight').data)).toEqual(fused.slice(0, S * S));
    expect(halves(tensorOf(converted, 'encoder.blocks.0.attn.key.weight').data)).toEqual(fused.slice(S * S, 2 * S * S));
    expect(halves(tensorOf(converted, 'encoder.blocks.0.attn.value.weight').data)).toEqual(fused.slice(2 * S * S));
    expect(floats(tensorOf(converted, 'encoder.blocks.0.attn.query.bias').data)).toEqual(fusedBias.slice(0, S));
    expect(floats(tensorOf(converted, 'encoder.blocks.0.attn.value.bias').data)).toEqual(fusedBias.slice(2 * S));
    const crossKeyValue = halves(variableOf(model, 'decoder/layer_0/attention/linear_1/weight').data);
    expect(halves(tensorOf(converted, 'decoder.blocks.0.cross_attn.key.weight').data)).toEqual(crossKeyValue.slice(0, S * S));
    expect(halves(tensorOf(converted, 'decoder.blocks.0.cross_attn.value.weight').data)).toEqual(crossKeyValue.slice(S * S));
    expect(tensorOf(converted, 'decoder.blocks.0.cross_attn.query.weight').data).toEqual(variableOf(model, 'decoder/layer_0/attention/linear_0/weight').data);
    expect(floats(tensorOf(converted, 'decoder.positional_embedding').data)).toEqual(halves(variableOf(model, 'decoder/position_encodings/encodings').data));
  });

  it('dequantises int8 weights with their per-row scale, and rounds float32 weights to float16', () => {
    const model = syntheticWhisperCt2();
    const quantised = variableOf(model, 'encoder/layer_0/ffn/linear_1/weight');
    const [rows, columns] = quantised.shape as [number, number];
    quantised.dataType = 'int8';
    quantised.data = Buffer.from(Array.from({ length: rows * columns }, (_, index) => ((index * 7) % 255) - 127));
    const scales = Buffer.alloc(rows * 4);
    for (let row = 0; row < rows; row += 1) scales.writeFloatLE(127 / (row + 1), row * 4);
    model.variables.push({ name: 'encoder/layer_0/ffn/linear_1/weight_scale', shape: [rows], dataType: 'float32', data: scales });
    const precise = variableOf(model, 'encoder/layer_0/ffn/linear_0/weight');
    precise.dataType = 'float32';
    precise.data = Buffer.alloc(precise.data.length * 2);
    for (let index = 0; index < precise.data.length / 4; index += 1) precise.data.writeFloatLE(Math.fround(index / 3), index * 4);

    const converted = convert(model);
    const expectedQuantised = Array.from({ length: rows * columns }, (_, index) => float16Value(float16Bits(quantised.data.readInt8(index) / scales.readFloatLE(Math.floor(index / columns) * 4))));
    expect(halves(tensorOf(converted, 'encoder.blocks.0.mlp.2.weight').data)).toEqual(expectedQuantised);
    expect(halves(tensorOf(converted, 'encoder.blocks.0.mlp.0.weight').data)).toEqual(floats(precise.data).map((value) => float16Value(float16Bits(value))));
  });

  it('keeps the byte-level tokens up to <|endoftext|> as raw bytes (today\'s convert-pt-to-ggml.py form); whisper.cpp adds the special tokens', () => {
    const { tokens } = convert(syntheticWhisperCt2());
    expect(tokens).toHaveLength(50256);
    expect(tokens.slice(0, 4)).toEqual([Buffer.from(' the'), Buffer.from('é'), Buffer.from('\n'), Buffer.from([0xa1])]);
    expect(tokens[50255]).toEqual(Buffer.from('tok50255'));
  });

  it('carries Whisper\'s mel filterbank: the published one bit for bit (the tiny.en header of ../shared/models)', async () => {
    const published = readWhisperGgml(await readFile(resolve(packageRoot, '../shared/models/whisper-test-stub-tiny.en.bin')), 'stub');
    expect(published.tensors).toEqual([]);
    const computed = slaneyMelFilters(published.hyperParameters.n_mels);
    expect({ bands: computed.melBands, bins: computed.frequencyBins }).toEqual({ bands: 80, bins: 201 });
    expect(Buffer.from(computed.weights.buffer).equals(Buffer.from(published.melFilters.weights.buffer))).toBe(true);
    expect(convert(syntheticWhisperCt2()).melFilters).toEqual(slaneyMelFilters(melBands));
  });

  it('writes a file whisper.cpp\'s layout reads back as the same model', async () => {
    const modelDirectory = join(folder, 'round-trip');
    await mkdir(modelDirectory);
    await writeFile(join(modelDirectory, 'model.bin'), ct2ModelBytes(syntheticWhisperCt2()));
    await writeFile(join(modelDirectory, 'vocabulary.txt'), `${syntheticVocabulary().join('\n')}\n`);
    const output = join(folder, 'converted.bin');
    const hyperParameters = await convertCt2WhisperToGgml(modelDirectory, output);
    const written = readWhisperGgml(await readFile(output), output);
    const expected = convert(syntheticWhisperCt2());
    expect(written.hyperParameters).toEqual(hyperParameters);
    expect(written.melFilters).toEqual(expected.melFilters);
    expect(written.tokens).toEqual(expected.tokens);
    expect(written.tensors.map(({ name, shape, type }) => ({ name, shape, type }))).toEqual(expected.tensors.map(({ name, shape, type }) => ({ name, shape, type })));
    expect(written.tensors.every((tensor, index) => tensor.data.equals(expected.tensors[index]!.data))).toBe(true);
  });
});

describe('refusing a file whose layout is not the expected one, naming the field', () => {
  const refusal = (action: () => unknown) => {
    try {
      action();
    } catch (error) {
      expect(error).toBeInstanceOf(ModelFormatError);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it('a truncated model.bin: the variable whose data is cut short', () => {
    const bytes = ct2ModelBytes(syntheticWhisperCt2());
    expect(refusal(() => readCt2Model(bytes.subarray(0, 300_000), file))).toMatch(/^model\.bin: variable \d+ \(decoder\/embeddings\/weight\) data: the file ends after \d+ of its 414912 bytes .*truncated/);
  });

  it('another binary version, or no Whisper', () => {
    expect(refusal(() => readCt2Model(ct2ModelBytes({ ...syntheticWhisperCt2(), binaryVersion: 3 }), file))).toMatch(/binary version: is 3, expected one of 4, 5, 6/);
    expect(refusal(() => convert({ ...syntheticWhisperCt2(), specName: 'TransformerSpec' }))).toMatch(/spec name: is TransformerSpec, expected WhisperSpec/);
  });

  it('a missing variable, a wrong shape, or one the layout does not know', () => {
    const missing = syntheticWhisperCt2();
    missing.variables = missing.variables.filter((variable) => variable.name !== 'encoder/layer_norm/gamma');
    expect(refusal(() => convert(missing))).toMatch(/variable encoder\/layer_norm\/gamma: missing/);

    const misshapen = syntheticWhisperCt2();
    variableOf(misshapen, 'decoder/layer_0/ffn/linear_0/weight').shape = [width, 4 * width];
    expect(refusal(() => convert(misshapen))).toMatch(/variable decoder\/layer_0\/ffn\/linear_0\/weight: has shape \[4, 16\], expected \[16, 4\]/);

    const extra = syntheticWhisperCt2();
    extra.variables.push({ name: 'encoder/layer_0/adapter/weight', shape: [width], dataType: 'float16', data: Buffer.alloc(width * 2) });
    expect(refusal(() => convert(extra))).toMatch(/variable encoder\/layer_0\/adapter\/weight: is not part of the Whisper layout/);
  });

  it('a fused attention bias whose key part is not zero (not query, key, value)', () => {
    const model = syntheticWhisperCt2();
    variableOf(model, 'decoder/layer_0/self_attention/linear_0/bias').data.writeUInt16LE(float16Bits(0.5), width * 2);
    expect(refusal(() => convert(model))).toMatch(/decoder\/layer_0\/self_attention\/linear_0\/bias: rows 4 to 7 \(the key's bias\) are not zero/);
  });

  it('an output projection of its own (whisper.cpp ties it to the token embedding)', () => {
    const model = syntheticWhisperCt2();
    model.aliases = [];
    expect(refusal(() => convert(model))).toMatch(/variable decoder\/projection\/weight: is missing, expected the token embedding/);
  });

  it('a vocabulary that is not the model\'s, or whose special tokens are not where whisper.cpp takes them', () => {
    expect(refusal(() => convert(syntheticWhisperCt2(), syntheticVocabulary().slice(0, -1)))).toMatch(/vocabulary: holds 51863 tokens, but decoder\/embeddings\/weight has 51864 rows/);
    const shifted = syntheticVocabulary();
    shifted[50358] = '<|translate|>';
    expect(refusal(() => convert(syntheticWhisperCt2(), shifted))).toMatch(/vocabulary token 50358: is "<\|translate\|>", but whisper.cpp takes id 50358 for <\|transcribe\|> with n_vocab 51864/);
  });
});

describe('float16', () => {
  it('rounds to the nearest float16, ties to even, and reads every bit pattern back', () => {
    expect([1, 65504, 65520, 2 ** -24, 2 ** -26, 1 + 2 ** -11, 1 + 3 * 2 ** -11, -2].map(float16Bits)).toEqual([0x3c00, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x3c00, 0x3c02, 0xc000]);
    for (let bits = 0; bits < 0x10000; bits += 1) {
      const value = float16Value(bits);
      if (!Number.isNaN(value)) expect(float16Bits(value)).toBe(bits);
    }
  });
});
