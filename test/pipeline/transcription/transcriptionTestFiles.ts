import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { defaultWhisperCliPath } from '../../../src/pipeline/transcription/transcribeAudio.js';

/** The path of a file in ./fixtures. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** A file of ./fixtures as text. */
export function fixture(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

const sharedModels = resolve(packageRoot, '../shared/models');
/** whisper.cpp tiny.en header and vocabulary, no weights: loads, runs, transcribes to empty text. */
export const stubWhisperModel = join(sharedModels, 'whisper-test-stub-tiny.en.bin');
/** The real Silero VAD v6.2.0 for whisper.cpp. */
export const sileroVadModel = join(sharedModels, 'silero-vad-v6.2.0-ggml.bin');
/** 11 s of one speaker; speech from 0.32 s. */
export const jfkWav = resolve(packageRoot, '../shared/audio/jfk/jfk.wav');

/**
 * For a `beforeAll` of tests that need the real whisper-cli: CI builds it during `npm ci` (the
 * prepare script), so a missing binary fails them with the advice, never skips them.
 */
export function requireWhisperCli(): void {
  if (!existsSync(defaultWhisperCliPath)) {
    throw new Error(`whisper-cli is not built (${defaultWhisperCliPath}): run \`npm run build:native\` (needs cmake and g++), or \`npm ci\`.`);
  }
}

/** The words of jfk.wav ("And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."), as {@link plainWords} writes them. */
export const jfkWords = 'and so my fellow americans ask not what your country can do for you ask what you can do for your country';

/** A transcription's words, lower case, without punctuation, joined by spaces. */
export const plainWords = (words: readonly { text: string }[]) => words.map((word) => word.text.toLowerCase().replace(/[^a-z']/g, '')).filter(Boolean).join(' ');
