import { ModelFormatError } from '../ModelFormatError.js';
import { bfloat16Value, float16Bits, float16Value } from '../float16.js';
import { tokenBytes } from './gpt2ByteDecoder.js';
import type { Ct2Model, Ct2Variable } from './readCt2Model.js';
import { slaneyMelFilters } from '../../../src/pipeline/signal/slaneyMelFilters.js';
import type { GgmlTensor, GgmlTensorType, WhisperGgml, WhisperHyperParameters } from './whisperGgml.js';

/**
 * A CTranslate2 Whisper model (faster-whisper's format) as a whisper.cpp model, f16 as
 * whisper.cpp's own converters write it: weight matrices and convolution kernels f16; biases,
 * norms and both positional embeddings f32.
 *
 * The layout it expects (`WhisperSpec` revision 3; S = model width, L = layers):
 * - scalars `encoder/num_heads`, `decoder/num_heads`; `decoder/activation` 3 (GELU),
 *   `decoder/pre_norm` 1, `decoder/scale_embeddings` 0;
 * - `encoder/conv1/weight` [S, n_mels, 3], `encoder/conv2/weight` [S, S, 3] and their biases [S];
 *   `encoder/position_encodings/encodings` [n_audio_ctx, S]; `encoder/layer_norm/{gamma,beta}`;
 * - per encoder layer `encoder/layer_<i>/`: `self_attention/linear_0` [3S, S] (query, key and value
 *   fused in that order; the key's bias part is zero, as Whisper's key has none),
 *   `self_attention/linear_1` [S, S] (out), `ffn/linear_0` [4S, S], `ffn/linear_1` [S, 4S], and a
 *   `layer_norm/{gamma,beta}` in each of `self_attention` and `ffn`;
 * - `decoder/embeddings/weight` [n_vocab, S] (also the output projection: `decoder/projection/weight`
 *   is its alias), `decoder/position_encodings/encodings` [n_text_ctx, S], `decoder/layer_norm`;
 * - per decoder layer the encoder's tensors plus cross-attention `attention/linear_0` [S, S]
 *   (query), `attention/linear_1` [2S, S] (key and value fused) and `attention/linear_2` [S, S] (out);
 * - weights float32, float16, bfloat16 or int8 with a float `<name>_scale` per row (weight / scale).
 * The vocabulary (`vocabulary.json`) holds n_vocab byte-level tokens with Whisper's special tokens
 * at the ids whisper.cpp assumes for that n_vocab. Anything else is refused, naming the field.
 */
export function whisperGgmlFromCt2(model: Ct2Model, vocabulary: readonly string[], file: string): WhisperGgml {
  const source = new Ct2Source(model, file);
  if (model.specName !== 'WhisperSpec') source.fail('spec name', `is ${model.specName}, expected WhisperSpec`);
  if (model.specRevision !== 3) source.fail('spec revision', `is ${model.specRevision}, expected 3`);
  source.expectScalar('decoder/activation', 3, 'GELU');
  source.expectScalar('decoder/pre_norm', 1, 'layer norm before each block');
  source.expectScalar('decoder/scale_embeddings', 0, 'embeddings not scaled');

  const [width, melBands] = source.shapeOf('encoder/conv1/weight', 3);
  const [vocabularySize] = source.shapeOf('decoder/embeddings/weight', 2);
  const [audioContext] = source.shapeOf('encoder/position_encodings/encodings', 2);
  const [textContext] = source.shapeOf('decoder/position_encodings/encodings', 2);
  const hyperParameters: WhisperHyperParameters = {
    n_vocab: vocabularySize,
    n_audio_ctx: audioContext,
    n_audio_state: width,
    n_audio_head: source.scalar('encoder/num_heads'),
    n_audio_layer: source.layerCount('encoder'),
    n_text_ctx: textContext,
    n_text_state: width,
    n_text_head: source.scalar('decoder/num_heads'),
    n_text_layer: source.layerCount('decoder'),
    n_mels: melBands,
    ftype: 1,
  };
  const S = width;
  const tensors: GgmlTensor[] = [];
  /** Rows `rows` (all by default) of `from`, whose shape must be `shape`, as tensor `name`; `fileShape` when whisper.cpp wants another shape. */
  const put = (name: string, from: string, shape: number[], type: GgmlTensorType, rows: [number, number] = [0, shape[0]!], fileShape?: number[]) => {
    const data = source.tensorData(from, shape, type, rows);
    tensors.push({ name, shape: fileShape ?? [rows[1] - rows[0], ...shape.slice(1)], type, data });
  };
  /** A linear layer's weight [outputs, inputs] and bias [outputs], or the rows `rows` of a fused one. */
  const linear = (name: string, from: string, [outputs, inputs]: [number, number], rows: [number, number] = [0, outputs]) => {
    put(`${name}.weight`, `${from}/weight`, [outputs, inputs], 'f16', rows);
    put(`${name}.bias`, `${from}/bias`, [outputs], 'f32', rows);
  };
  const norm = (name: string, from: string) => {
    put(`${name}.weight`, `${from}/gamma`, [S], 'f32');
    put(`${name}.bias`, `${from}/beta`, [S], 'f32');
  };
  /** Query, key and value (or key and value only) fused along the rows of `from`, S rows each. */
  const fusedAttention = (name: string, from: string, parts: readonly ('query' | 'key' | 'value')[]) => {
    const shape: [number, number] = [parts.length * S, S];
    parts.forEach((part, index) => {
      const rows: [number, number] = [index * S, (index + 1) * S];
      if (part !== 'key') return linear(`${name}.${part}`, from, shape, rows);
      put(`${name}.key.weight`, `${from}/weight`, shape, 'f16', rows);
      source.expectZeroRows(`${from}/bias`, [parts.length * S], rows);
    });
  };
  const block = (prefix: string, from: string, withCrossAttention: boolean) => {
    fusedAttention(`${prefix}.attn`, `${from}/self_attention/linear_0`, ['query', 'key', 'value']);
    linear(`${prefix}.attn.out`, `${from}/self_attention/linear_1`, [S, S]);
    norm(`${prefix}.attn_ln`, `${from}/self_attention/layer_norm`);
    if (withCrossAttention) {
      linear(`${prefix}.cross_attn.query`, `${from}/attention/linear_0`, [S, S]);
      fusedAttention(`${prefix}.cross_attn`, `${from}/attention/linear_1`, ['key', 'value']);
      linear(`${prefix}.cross_attn.out`, `${from}/attention/linear_2`, [S, S]);
      norm(`${prefix}.cross_attn_ln`, `${from}/attention/layer_norm`);
    }
    linear(`${prefix}.mlp.0`, `${from}/ffn/linear_0`, [4 * S, S]);
    linear(`${prefix}.mlp.2`, `${from}/ffn/linear_1`, [S, 4 * S]);
    norm(`${prefix}.mlp_ln`, `${from}/ffn/layer_norm`);
  };

  // In the order of OpenAI's checkpoints (module registration order), as whisper.cpp's
  // convert-pt-to-ggml.py writes them; the loader itself finds tensors by name.
  put('encoder.positional_embedding', 'encoder/position_encodings/encodings', [audioContext, S], 'f32');
  put('encoder.conv1.weight', 'encoder/conv1/weight', [S, melBands, 3], 'f16');
  // whisper.cpp adds the convolution biases as [S, 1] columns.
  put('encoder.conv1.bias', 'encoder/conv1/bias', [S], 'f32', [0, S], [S, 1]);
  put('encoder.conv2.weight', 'encoder/conv2/weight', [S, S, 3], 'f16');
  put('encoder.conv2.bias', 'encoder/conv2/bias', [S], 'f32', [0, S], [S, 1]);
  for (let layer = 0; layer < hyperParameters.n_audio_layer; layer += 1) block(`encoder.blocks.${layer}`, `encoder/layer_${layer}`, false);
  norm('encoder.ln_post', 'encoder/layer_norm');
  put('decoder.positional_embedding', 'decoder/position_encodings/encodings', [textContext, S], 'f32');
  put('decoder.token_embedding.weight', 'decoder/embeddings/weight', [vocabularySize, S], 'f16');
  for (let layer = 0; layer < hyperParameters.n_text_layer; layer += 1) block(`decoder.blocks.${layer}`, `decoder/layer_${layer}`, true);
  norm('decoder.ln', 'decoder/layer_norm');
  source.expectTiedProjection('decoder/projection/weight', 'decoder/embeddings/weight');
  source.expectAllRead();

  return { hyperParameters, melFilters: slaneyMelFilters(melBands), tokens: whisperTokens(vocabulary, vocabularySize, file), tensors };
}

/**
 * The special tokens whisper.cpp places by id (its `whisper_vocab` defaults, shifted by one and by
 * the language count for a multilingual vocabulary), and the text the vocabulary must hold there.
 */
function whisperSpecialTokenIds(vocabularySize: number): [number, readonly string[]][] {
  const multilingual = vocabularySize >= 51865;
  const languages = vocabularySize - 51765 - (multilingual ? 1 : 0);
  const shift = multilingual ? 1 : 0;
  const taskShift = multilingual ? languages - 98 : 0;
  return [
    [50256 + shift, ['<|endoftext|>']],
    [50257 + shift, ['<|startoftranscript|>']],
    [50357 + taskShift, ['<|translate|>']],
    [50358 + taskShift, ['<|transcribe|>']],
    [50359 + taskShift, ['<|startoflm|>']],
    [50360 + taskShift, ['<|startofprev|>']],
    [50361 + taskShift, ['<|nocaptions|>', '<|nospeech|>']],
    [50362 + taskShift, ['<|notimestamps|>']],
    [50363 + taskShift, ['<|0.00|>']],
  ];
}

/**
 * The tokens whisper.cpp's file holds: the byte-level BPE tokens before `<|endoftext|>`, as raw
 * bytes, which is what convert-pt-to-ggml.py writes today from OpenAI's tiktoken files (the
 * published multilingual base has this form too: the same size to the byte). whisper.cpp's
 * loader names `<|endoftext|>` and the special tokens after it itself. (The published tiny.en is
 * of 2022's converter: it also holds `<|endoftext|>`, and writes the 344 tokens that are part of a
 * UTF-8 character as U+FFFD.)
 */
function whisperTokens(vocabulary: readonly string[], vocabularySize: number, file: string): Buffer[] {
  if (vocabulary.length !== vocabularySize) throw new ModelFormatError(file, 'vocabulary', `holds ${vocabulary.length} tokens, but decoder/embeddings/weight has ${vocabularySize} rows`);
  for (const [id, texts] of whisperSpecialTokenIds(vocabularySize)) {
    if (!texts.includes(vocabulary[id]!)) throw new ModelFormatError(file, `vocabulary token ${id}`, `is ${JSON.stringify(vocabulary[id])}, but whisper.cpp takes id ${id} for ${texts.join(' or ')} with n_vocab ${vocabularySize}`);
  }
  const endOfText = vocabulary.indexOf('<|endoftext|>');
  return vocabulary.slice(0, endOfText).map((token, id) => {
    const bytes = tokenBytes(token);
    if (bytes === undefined) throw new ModelFormatError(file, `vocabulary token ${id}`, `${JSON.stringify(token)} is not in GPT-2's byte-level form`);
    return bytes;
  });
}

/** A shape of `Rank` dimensions. */
type Shape<Rank extends number, Sizes extends number[] = []> = Sizes['length'] extends Rank ? Sizes : Shape<Rank, [...Sizes, number]>;

/** The variables of a CTranslate2 model, each taken at most once, with its shape checked where taken. */
class Ct2Source {
  private readonly read = new Set<string>();

  constructor(private readonly model: Ct2Model, private readonly file: string) {}

  fail(field: string, detail: string): never {
    throw new ModelFormatError(this.file, field, detail);
  }

  private variable(name: string): Ct2Variable {
    const variable = this.model.variables.get(name);
    if (!variable) this.fail(`variable ${name}`, this.model.aliases.has(name) ? `is an alias of ${this.model.aliases.get(name)}, expected its own data` : 'missing');
    this.read.add(name);
    return variable;
  }

  scalar(name: string): number {
    const variable = this.variable(name);
    if (variable.shape.length !== 0) this.fail(`variable ${name}`, `has shape [${variable.shape.join(', ')}], expected a scalar`);
    switch (variable.dataType) {
      case 'int8': return variable.data.readInt8(0);
      case 'int16': return variable.data.readInt16LE(0);
      case 'int32': return variable.data.readInt32LE(0);
      default: return this.fail(`variable ${name}`, `is ${variable.dataType}, expected an integer scalar`);
    }
  }

  expectScalar(name: string, expected: number, meaning: string): void {
    const value = this.scalar(name);
    if (value !== expected) this.fail(`variable ${name}`, `is ${value}, expected ${expected} (${meaning})`);
  }

  /** The shape of `name`, which must have `rank` dimensions (and equal `expected` when given). */
  shapeOf<Rank extends number>(name: string, rank: Rank, expected?: number[]): Shape<Rank> {
    const { shape } = this.variable(name);
    if (shape.length !== rank || (expected && shape.some((size, axis) => size !== expected[axis]))) {
      this.fail(`variable ${name}`, `has shape [${shape.join(', ')}], expected ${expected ? `[${expected.join(', ')}]` : `${rank} dimensions`}`);
    }
    return shape as Shape<Rank>;
  }

  /** How many `<stack>/layer_<i>/` layers the model has, numbered from 0 without gaps. */
  layerCount(stack: 'encoder' | 'decoder'): number {
    const layers = new Set<number>();
    for (const name of this.model.variables.keys()) {
      const match = new RegExp(`^${stack}/layer_(\\d+)/`).exec(name);
      if (match) layers.add(Number(match[1]));
    }
    if (layers.size === 0 || Math.max(...layers) !== layers.size - 1) this.fail(`${stack} layers`, `are numbered ${[...layers].sort((a, b) => a - b).join(', ') || '(none)'}, expected 0 to n−1`);
    return layers.size;
  }

  /**
   * Rows `rows` of `name`, which must have `shape`, as little-endian values of `type`: float16
   * copied bit for bit, the rest converted (int8 dequantised with its per-row `_scale`).
   */
  tensorData(name: string, shape: number[], type: GgmlTensorType, [first, last]: [number, number]): Buffer {
    const variable = this.variable(name);
    this.shapeOf(name, shape.length, shape);
    const rowLength = shape.slice(1).reduce((product, size) => product * size, 1);
    if (type === 'f16' && variable.dataType === 'float16') return variable.data.subarray(first * rowLength * 2, last * rowLength * 2);
    const valueAt = this.valueReader(variable, rowLength);
    const count = (last - first) * rowLength;
    const data = Buffer.alloc(count * (type === 'f16' ? 2 : 4));
    for (let index = 0; index < count; index += 1) {
      const value = valueAt(first * rowLength + index);
      if (type === 'f16') data.writeUInt16LE(float16Bits(value), index * 2);
      else data.writeFloatLE(value, index * 4);
    }
    return data;
  }

  /** Reads value `index` (row-major) of a float or int8-quantised variable. */
  private valueReader(variable: Ct2Variable, rowLength: number): (index: number) => number {
    const { data } = variable;
    switch (variable.dataType) {
      case 'float32': return (index) => data.readFloatLE(index * 4);
      case 'float16': return (index) => float16Value(data.readUInt16LE(index * 2));
      case 'bfloat16': return (index) => bfloat16Value(data.readUInt16LE(index * 2));
      case 'int8': {
        const scaleName = `${variable.name}_scale`;
        const [rowCount] = this.shapeOf(scaleName, 1, [variable.shape[0]!]);
        const scales = this.model.variables.get(scaleName)!;
        if (scales.dataType === 'int8' || scales.dataType === 'int16' || scales.dataType === 'int32') this.fail(`variable ${scaleName}`, `is ${scales.dataType}, expected a float per row`);
        const scaleReader = this.valueReader(scales, 1);
        const scaleOf = Array.from({ length: rowCount! }, (_, row) => scaleReader(row));
        // CTranslate2 stores round(w · scale) with scale = 127 / max|row|.
        return (index) => data.readInt8(index) / scaleOf[Math.floor(index / rowLength)]!;
      }
      default: return this.fail(`variable ${variable.name}`, `is ${variable.dataType}, expected float32, float16, bfloat16 or int8 with a scale`);
    }
  }

  /** Whisper's attention key has no bias: the fused bias's key rows must be zero (else the fusion is not in the expected order). */
  expectZeroRows(name: string, shape: number[], [first, last]: [number, number]): void {
    const variable = this.variable(name);
    this.shapeOf(name, shape.length, shape);
    const valueAt = this.valueReader(variable, 1);
    for (let index = first; index < last; index += 1) {
      if (valueAt(index) !== 0) this.fail(`variable ${name}`, `rows ${first} to ${last - 1} (the key's bias) are not zero: the fusion is not query, key, value in that order`);
    }
  }

  /** whisper.cpp projects onto the vocabulary with the token embedding, so the projection must be that matrix. */
  expectTiedProjection(projection: string, embedding: string): void {
    const alias = this.model.aliases.get(projection);
    if (alias === embedding) return;
    const own = this.model.variables.get(projection);
    if (own && own.data.equals(this.model.variables.get(embedding)!.data)) {
      this.read.add(projection);
      return;
    }
    this.fail(`variable ${projection}`, `is ${alias ? `an alias of ${alias}` : own ? 'a matrix of its own' : 'missing'}, expected the token embedding (${embedding}), as whisper.cpp ties them`);
  }

  /** Every tensor of the file was converted: a variable this layout does not know means a model it does not describe. */
  expectAllRead(): void {
    for (const [name, variable] of this.model.variables) {
      if (variable.shape.length > 0 && !this.read.has(name)) this.fail(`variable ${name}`, 'is not part of the Whisper layout this converter knows');
    }
  }
}
