import { open, type FileHandle } from 'node:fs/promises';
import { ggmlMagic, whisperHeaderBytes } from './whisperModelHeader.js';

/**
 * A prompt as whisper.cpp is given it: the text, and the text context (`-mc`, `max_context`)
 * that holds exactly it.
 *
 * Why the context matters: whisper.cpp uses a prompt only when its text context is above 0,
 * and Callscope runs it with `-mc 0` (see antiHallucinationArguments) so that decoded text is
 * never fed back. With `--carry-initial-prompt` the prompt is put before every 30 s window,
 * and the context budget left after it (minus one slot for the `[_PREV_]` marker) is filled
 * with the text decoded so far: a context of the prompt's tokens + 1 leaves none for that.
 *
 * The text starts with a space, as OpenAI's whisper and faster-whisper give a prompt to the
 * model (`" " + prompt.strip()`); whisper.cpp tokenizes the prompt as it is given. The model
 * reads a prompt as the end of the previous window's text, whose words begin with a space
 * (" Daniel"); without it the first name is another token ("Daniel"). Measured with base on
 * the five-minute support call, greedy: 13.9 % WER without the space, 10.1 % with it
 * (BENCHMARKS.md, "Where base's time goes").
 */
export interface WhisperPrompt {
  /** The prompt as whisper.cpp is given it: `" " + ` the call's prompt. */
  text: string;
  /** Tokens of text context: the prompt's tokens plus one (whisper.cpp caps it at half its text context, 224). */
  maxContext: number;
}

/** The prompt for a call transcribed by the whisper.cpp model at `modelPath` (its vocabulary counts the tokens). */
export async function whisperPromptFor(prompt: string, modelPath: string): Promise<WhisperPrompt> {
  const vocabulary = await WhisperVocabulary.fromModelFile(modelPath).catch(() => undefined);
  if (!vocabulary) return whisperPromptWithoutVocabulary(prompt);
  const text = asPreviousText(prompt);
  return { text, maxContext: vocabulary.tokenCount(text) + 1 };
}

/**
 * The prompt for a model whose vocabulary is not at hand (unreadable, or a site's server): the
 * prompt's bytes bound its tokens (each takes at least one), so the whole prompt is kept, and at
 * most the difference in decoded text rides along.
 */
export function whisperPromptWithoutVocabulary(prompt: string): WhisperPrompt {
  const text = asPreviousText(prompt);
  return { text, maxContext: Buffer.byteLength(text, 'utf8') + 1 };
}

/** The prompt as the previous text the model was trained on: led by a space (see {@link WhisperPrompt}). */
function asPreviousText(prompt: string): string {
  return ` ${prompt.trim()}`;
}

/** After the magic and the hyperparameters: the mel filters' two int32 dimensions, bytes. */
const melDimensionsOffset = whisperHeaderBytes;
/** Bounds that tell a vocabulary from a damaged file. */
const maxVocabularySize = 1_000_000;
const maxTokenBytes = 4096;
const maxMelFilterFloats = 1_000_000;

/**
 * The text tokens of a whisper.cpp ggml model, and whisper.cpp's own way (v1.9,
 * `whisper_tokenize`) of cutting text into them, to count a prompt's tokens exactly:
 * the UTF-8 bytes are split by GPT-2's word pattern (ASCII letters and digits only: C++
 * `std::regex` in the C locale), then each word greedily into the longest tokens that form it;
 * a byte no token covers is skipped.
 */
export class WhisperVocabulary {
  private readonly longestToken: number;

  private constructor(
    /** Each token's bytes as a latin1 string (one character per byte). */
    private readonly tokens: ReadonlySet<string>,
  ) {
    let longest = 1;
    for (const token of tokens) longest = Math.max(longest, token.length);
    this.longestToken = longest;
  }

  /**
   * Reads the vocabulary of a ggml model: header, mel filters (skipped), then the token count
   * and each token as a length-prefixed byte string (whisper_model_load's order). Reads well
   * under a megabyte, never the weights. Throws for a file that is not such a model.
   */
  static async fromModelFile(path: string): Promise<WhisperVocabulary> {
    const file = await open(path, 'r');
    try {
      const header = await readAt(file, 0, melDimensionsOffset + 8);
      if (header.length < melDimensionsOffset + 8 || header.readUInt32LE(0) !== ggmlMagic) throw new Error('not a whisper.cpp ggml model');
      const melFilterFloats = header.readInt32LE(melDimensionsOffset) * header.readInt32LE(melDimensionsOffset + 4);
      if (melFilterFloats < 0 || melFilterFloats > maxMelFilterFloats) throw new Error('not a whisper.cpp ggml model (mel filters)');
      const vocabularyOffset = melDimensionsOffset + 8 + melFilterFloats * 4;
      // A vocabulary of 51,864 tokens takes about 0.6 MB; read more only when it is larger.
      for (let window = 1 << 20; ; window *= 2) {
        const bytes = await readAt(file, vocabularyOffset, window);
        const tokens = parseTokens(bytes);
        if (tokens) return new WhisperVocabulary(tokens);
        if (bytes.length < window || window >= 64 << 20) throw new Error('not a whisper.cpp ggml model (vocabulary)');
      }
    } finally {
      await file.close();
    }
  }

  /** The number of tokens whisper.cpp makes of `text`. */
  tokenCount(text: string): number {
    const bytes = Buffer.from(text, 'utf8').toString('latin1');
    let count = 0;
    for (const [word] of bytes.matchAll(gpt2WordPattern)) {
      let start = 0;
      while (start < word.length) {
        let end = Math.min(word.length, start + this.longestToken);
        while (end > start && !this.tokens.has(word.slice(start, end))) end -= 1;
        if (end > start) {
          count += 1;
          start = end;
        } else {
          start += 1;
        }
      }
    }
    return count;
  }
}

/**
 * whisper.cpp's `'s|'t|'re|'ve|'m|'ll|'d| ?[[:alpha:]]+| ?[[:digit:]]+| ?[^\s[:alpha:][:digit:]]+|\s+(?!\S)|\s+`
 * over bytes in the C locale: `[[:alpha:]]` is ASCII letters, `\s` the six ASCII spaces.
 */
const gpt2WordPattern = /'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^ \t\n\v\f\rA-Za-z0-9]+|[ \t\n\v\f\r]+(?![^ \t\n\v\f\r])|[ \t\n\v\f\r]+/g;

/** The tokens in `bytes` (count, then length-prefixed strings), or undefined when `bytes` ends before they do. */
function parseTokens(bytes: Buffer): Set<string> | undefined {
  if (bytes.length < 4) return undefined;
  const count = bytes.readInt32LE(0);
  if (count <= 0 || count > maxVocabularySize) throw new Error('not a whisper.cpp ggml model (vocabulary size)');
  const tokens = new Set<string>();
  let offset = 4;
  for (let index = 0; index < count; index++) {
    if (offset + 4 > bytes.length) return undefined;
    const length = bytes.readUInt32LE(offset);
    if (length > maxTokenBytes) throw new Error('not a whisper.cpp ggml model (token length)');
    if (offset + 4 + length > bytes.length) return undefined;
    // An empty token (multilingual models have one) matches nothing.
    if (length > 0) tokens.add(bytes.toString('latin1', offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return tokens;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
