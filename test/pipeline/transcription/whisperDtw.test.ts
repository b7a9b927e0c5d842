import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whisperDtwFor, whisperDtwPresetOf } from '../../../src/pipeline/transcription/whisperDtw.js';
import { readWhisperHyperParameters, type WhisperHyperParameters } from '../../../src/pipeline/transcription/whisperModelHeader.js';
import { whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';
import { whisperDtwUnavailableReason } from '../../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { ggmlMagic, whisperHyperParameterNames } from '../../../src/pipeline/transcription/whisperModelHeader.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { stubWhisperModel } from './transcriptionTestFiles.js';

/** The headers of OpenAI's released Whisper models (whisper.cpp's `ggml-*.bin`), ftype f16. */
const released = {
  tiny: { n_vocab: 51865, n_audio_ctx: 1500, n_audio_state: 384, n_audio_head: 6, n_audio_layer: 4, n_text_ctx: 448, n_text_state: 384, n_text_head: 6, n_text_layer: 4, n_mels: 80, ftype: 1 },
  base: { n_vocab: 51865, n_audio_ctx: 1500, n_audio_state: 512, n_audio_head: 8, n_audio_layer: 6, n_text_ctx: 448, n_text_state: 512, n_text_head: 8, n_text_layer: 6, n_mels: 80, ftype: 1 },
  small: { n_vocab: 51865, n_audio_ctx: 1500, n_audio_state: 768, n_audio_head: 12, n_audio_layer: 12, n_text_ctx: 448, n_text_state: 768, n_text_head: 12, n_text_layer: 12, n_mels: 80, ftype: 1 },
  medium: { n_vocab: 51865, n_audio_ctx: 1500, n_audio_state: 1024, n_audio_head: 16, n_audio_layer: 24, n_text_ctx: 448, n_text_state: 1024, n_text_head: 16, n_text_layer: 24, n_mels: 80, ftype: 1 },
  large: { n_vocab: 51865, n_audio_ctx: 1500, n_audio_state: 1280, n_audio_head: 20, n_audio_layer: 32, n_text_ctx: 448, n_text_state: 1280, n_text_head: 20, n_text_layer: 32, n_mels: 80, ftype: 1 },
} satisfies Record<string, WhisperHyperParameters>;

describe('the DTW preset from a ggml model\'s header', () => {
  // Only tiny.en is fetched for the tests (`npm test` runs models:eval for it alone); base's shape is checked below.
  it('names tiny.en for the converted real tiny.en (its header as the converter writes it)', async () => {
    expect(await whisperDtwFor('auto', requireEvalModelFile('whisper-tiny.en', 'whisperGgml'))).toEqual({ preset: 'tiny.en' });
  });

  it('names tiny.en for the structure-only stub, whose header is tiny.en\'s', async () => {
    expect(await readWhisperHyperParameters(stubWhisperModel)).toMatchObject({ n_vocab: 51864, n_audio_state: 384, n_audio_layer: 4, n_text_layer: 4 });
    expect(await whisperDtwFor('auto', stubWhisperModel)).toEqual({ preset: 'tiny.en' });
  });

  it('tells English-only from multilingual by the vocabulary, and each size by its shape', () => {
    expect(whisperDtwPresetOf(released.tiny)).toEqual({ preset: 'tiny' });
    expect(whisperDtwPresetOf(released.base)).toEqual({ preset: 'base' });
    expect(whisperDtwPresetOf({ ...released.base, n_vocab: 51864 })).toEqual({ preset: 'base.en' });
    expect(whisperDtwPresetOf({ ...released.small, n_vocab: 51864 })).toEqual({ preset: 'small.en' });
    expect(whisperDtwPresetOf(released.medium)).toEqual({ preset: 'medium' });
    expect(whisperDtwPresetOf({ ...released.medium, n_vocab: 51864, ftype: 2 })).toEqual({ preset: 'medium.en' });
  });

  it('names large v3 and v3 turbo (128 mel bands, one more token; turbo has 4 decoder layers)', () => {
    expect(whisperDtwPresetOf({ ...released.large, n_vocab: 51866, n_mels: 128 })).toEqual({ preset: 'large.v3' });
    expect(whisperDtwPresetOf({ ...released.large, n_vocab: 51866, n_mels: 128, n_text_layer: 4 })).toEqual({ preset: 'large.v3.turbo' });
  });

  it('names none where the header cannot tell: large v1 and v2 share a shape; a model of another shape (distil-whisper)', () => {
    const largeV1OrV2 = whisperDtwPresetOf(released.large);
    expect(largeV1OrV2.preset).toBeUndefined();
    expect(largeV1OrV2).toMatchObject({ reason: expect.stringContaining('WHISPER_DTW=large.v1 or large.v2') });
    const distilLargeV3 = whisperDtwPresetOf({ ...released.large, n_vocab: 51866, n_mels: 128, n_text_layer: 2 });
    expect(distilLargeV3).toMatchObject({ preset: undefined, reason: expect.stringContaining('32+2 layers') });
    expect(whisperDtwPresetOf({ ...released.tiny, n_audio_ctx: 750 }).preset).toBeUndefined();
  });

  describe('WHISPER_DTW', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'callscope-dtw-'));
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    it('takes a named preset as given (a fine-tuned model), and `off` as none without a reason to log', async () => {
      expect(await whisperDtwFor('large.v2', stubWhisperModel)).toEqual({ preset: 'large.v2' });
      expect(await whisperDtwFor('off', stubWhisperModel)).toEqual({ preset: undefined });
    });

    it('is said at the service\'s start when the local model\'s header names no preset, and only then', async () => {
      const largeV1OrV2 = join(folder, 'ggml-large.bin');
      const header = Buffer.alloc(4 + 4 * whisperHyperParameterNames.length);
      header.writeUInt32LE(ggmlMagic, 0);
      whisperHyperParameterNames.forEach((name, index) => header.writeInt32LE(released.large[name], 4 + 4 * index));
      await writeFile(largeV1OrV2, header);
      expect(await whisperDtwUnavailableReason(loadConfig({ WHISPER_MODEL: largeV1OrV2 }))).toMatch(/large-v1's and large-v2's/);
      expect(await whisperDtwUnavailableReason(loadConfig({ WHISPER_MODEL: largeV1OrV2, WHISPER_DTW: 'large.v2' }))).toBeUndefined();
      expect(await whisperDtwUnavailableReason(loadConfig({ WHISPER_MODEL: largeV1OrV2, WHISPER_DTW: 'off' }))).toBeUndefined();
      expect(await whisperDtwUnavailableReason(loadConfig({ WHISPER_MODEL: stubWhisperModel }))).toBeUndefined();
      // A model not there yet (fetched in the background) is reported as missing elsewhere, not here.
      expect(await whisperDtwUnavailableReason(loadConfig({ WHISPER_MODEL: join(folder, 'not-yet.bin') }))).toBeUndefined();
    });

    it('gives a reason, not an error, for a file that is not a ggml model', async () => {
      const notGgml = join(folder, 'model.gguf');
      await writeFile(notGgml, Buffer.from('GGUF\u0003\u0000\u0000\u0000'));
      expect(await whisperDtwFor('auto', notGgml)).toEqual({ preset: undefined, reason: 'the model file\'s header could not be read' });
    });
  });
});

describe('whisper-cli\'s arguments for DTW', () => {
  const base = { modelPath: '/m/whisper.bin', audioPath: '/w/cleaned.wav', outputBase: '/t/transcript', threads: 3, language: 'auto', beamSize: 5 };

  it('passes the preset with flash attention off (whisper.cpp 1.9 drops DTW silently with it on)', () => {
    const args = whisperCliArguments({ ...base, dtw: { preset: 'base.en' } });
    expect(args.slice(args.indexOf('-dtw'))).toEqual(['-dtw', 'base.en', '-nfa']);
  });

  it('passes neither without a preset: token timestamps', () => {
    for (const dtw of [undefined, { preset: undefined, reason: 'large v1 or v2' }]) {
      const args = whisperCliArguments({ ...base, ...(dtw ? { dtw } : {}) });
      expect(args).not.toContain('-dtw');
      expect(args).not.toContain('-nfa');
    }
  });
});
