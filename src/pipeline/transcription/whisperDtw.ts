import { readWhisperHyperParameters, type WhisperHyperParameters } from './whisperModelHeader.js';

/**
 * whisper.cpp 1.9's alignment-head presets (`-dtw <preset>`, `g_aheads` in whisper.cpp): for each
 * released Whisper model, the cross-attention heads of its decoder that follow the audio, from
 * which DTW (dynamic time warping) finds where each token was said.
 */
export const whisperDtwPresets = [
  'tiny', 'tiny.en', 'base', 'base.en', 'small', 'small.en', 'medium', 'medium.en',
  'large.v1', 'large.v2', 'large.v3', 'large.v3.turbo',
] as const;
export type WhisperDtwPreset = (typeof whisperDtwPresets)[number];

/** `WHISPER_DTW`: `auto` (the preset the model file's shape names), `off`, or a preset for a fine-tuned model. */
export const whisperDtwSettings = ['auto', 'off', ...whisperDtwPresets] as const;
export type WhisperDtwSetting = (typeof whisperDtwSettings)[number];

/** The preset DTW runs with, or none (words then take whisper's token timestamps), with why when DTW was wanted. */
export type WhisperDtwChoice = { preset: WhisperDtwPreset } | { preset: undefined; reason?: string };

/** The released sizes' shapes: encoder width (= decoder width), attention heads, encoder and decoder layers. */
const sizes = [
  { name: 'tiny', width: 384, heads: 6, audioLayers: 4, textLayers: 4 },
  { name: 'base', width: 512, heads: 8, audioLayers: 6, textLayers: 6 },
  { name: 'small', width: 768, heads: 12, audioLayers: 12, textLayers: 12 },
  { name: 'medium', width: 1024, heads: 16, audioLayers: 24, textLayers: 24 },
  { name: 'large', width: 1280, heads: 20, audioLayers: 32, textLayers: 32 },
  { name: 'turbo', width: 1280, heads: 20, audioLayers: 32, textLayers: 4 },
] as const;

/** Vocabulary sizes: English-only models, multilingual ones up to large-v2, and large-v3 (one more token, Cantonese). */
const englishOnlyVocabulary = 51864;
const multilingualVocabulary = 51865;
const largeV3Vocabulary = 51866;

/**
 * The preset for a model of this shape, or why there is none. The header tells the size (widths,
 * heads, layers), English-only or not (vocabulary size) and v3 (128 mel bands, one more token),
 * but not large-v1 from large-v2 (the same shape, other heads), nor a fine-tune from the model it
 * was tuned from (whose heads it keeps mostly, not surely: name the preset in WHISPER_DTW).
 */
export function whisperDtwPresetOf(header: WhisperHyperParameters): WhisperDtwChoice {
  const shape = `n_vocab ${header.n_vocab}, ${header.n_audio_layer}+${header.n_text_layer} layers of width ${header.n_audio_state}, ${header.n_mels} mel bands`;
  const size = sizes.find((candidate) => header.n_audio_state === candidate.width && header.n_text_state === candidate.width
    && header.n_audio_head === candidate.heads && header.n_text_head === candidate.heads
    && header.n_audio_layer === candidate.audioLayers && header.n_text_layer === candidate.textLayers);
  const standardWindows = header.n_audio_ctx === 1500 && header.n_text_ctx === 448;
  const notStandard = { preset: undefined, reason: `the model's shape (${shape}) is none of the released Whisper models': set WHISPER_DTW to the preset of the model it was made from` };
  if (!size || !standardWindows) return notStandard;
  if (header.n_mels === 128 && header.n_vocab === largeV3Vocabulary) {
    return size.name === 'large' ? { preset: 'large.v3' } : size.name === 'turbo' ? { preset: 'large.v3.turbo' } : notStandard;
  }
  if (header.n_mels !== 80 || size.name === 'turbo') return notStandard;
  if (size.name === 'large') {
    return header.n_vocab === multilingualVocabulary
      ? { preset: undefined, reason: `the model's shape (${shape}) is both large-v1's and large-v2's, whose alignment heads differ: set WHISPER_DTW=large.v1 or large.v2` }
      : notStandard;
  }
  if (header.n_vocab === englishOnlyVocabulary) return { preset: `${size.name}.en` };
  if (header.n_vocab === multilingualVocabulary) return { preset: size.name };
  return notStandard;
}

/** The DTW preset for `setting` and the model file at `modelPath` (its header is read for `auto`). */
export async function whisperDtwFor(setting: WhisperDtwSetting, modelPath: string): Promise<WhisperDtwChoice> {
  if (setting === 'off') return { preset: undefined };
  if (setting !== 'auto') return { preset: setting };
  const header = await readWhisperHyperParameters(modelPath).catch(() => undefined);
  return header ? whisperDtwPresetOf(header) : { preset: undefined, reason: 'the model file\'s header could not be read' };
}

/**
 * Arguments that switch DTW on in whisper-cli and whisper-server (start flags for the server:
 * whisper.cpp fixes DTW when it loads the model). Flash attention goes off with it: whisper.cpp
 * 1.9 turns DTW off, with only a warning, when flash attention is on (its default).
 */
export function whisperDtwArguments(choice: WhisperDtwChoice): string[] {
  return choice.preset === undefined ? [] : ['-dtw', choice.preset, '-nfa'];
}
