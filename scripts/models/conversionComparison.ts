import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { defaultWhisperCliPath } from '../../src/pipeline/transcription/transcribeAudio.js';
import { antiHallucinationArguments, defaultWhisperBeamSize } from '../../src/pipeline/transcription/whisperCliArguments.js';
import { evalModelsDir } from './evalModels.js';
import { runCommand } from './runCommand.js';
import { runPythonReference } from './runPythonReference.js';

/**
 * The two readings `npm run eval:conversion` compares: a converted model in whisper.cpp
 * (whisper-cli) and its original CTranslate2 model in faster-whisper
 * (`fasterWhisperReference.py`), with matching decoding settings, both texts through Whisper's
 * English normaliser.
 */

/** Thresholds of the service's whisper-cli (whisperCliArguments.ts), in faster-whisper's terms; whisper.cpp's repetition test (entropy 2.4) stands where faster-whisper has its compression ratio 2.4. */
const sharedThresholds = {
  compression_ratio_threshold: 2.4,
  log_prob_threshold: -1,
  no_speech_threshold: 0.6,
  condition_on_previous_text: false,
  suppress_tokens: [-1],
  suppress_blank: true,
  vad_filter: false,
};

export const conversionDecodings = {
  /** Temperature 0 without fallback or timestamps: each model's choice of the next token, and nothing else. */
  greedy: {
    whisperCliArguments: ['-nf', '-bs', '1', '-bo', '1', '-nt'],
    fasterWhisper: { ...sharedThresholds, beam_size: 1, best_of: 1, temperature: [0], without_timestamps: true },
  },
  /** The service's decoding: the beam of WHISPER_BEAM_SIZE's default (greedy), best of 5 when sampling, temperatures 0 to 1 in steps of 0.2, timestamps. */
  service: {
    whisperCliArguments: [],
    fasterWhisper: { ...sharedThresholds, beam_size: defaultWhisperBeamSize, best_of: 5, temperature: [0, 0.2, 0.4, 0.6, 0.8, 1], without_timestamps: false },
  },
} as const;
export type ConversionDecoding = keyof typeof conversionDecodings;

/** whisper.cpp's words scored against one reading by faster-whisper. */
const againstFasterWhisper = (description: string) => Type.Object({
  fasterWhisper: Type.String({ description: 'faster-whisper\'s text, normalised.' }),
  referenceWords: Type.Integer({ description: 'Words in faster-whisper\'s text.' }),
  wer: Type.Number({ description: '(substitutions + deletions + insertions) / referenceWords.' }),
  substitutions: Type.Integer(),
  deletions: Type.Integer(),
  insertions: Type.Integer(),
}, { additionalProperties: false, description });

export const ConversionScoreSchema = Type.Object({
  model: Type.String(),
  recording: Type.String(),
  whisperCpp: Type.String({ description: 'whisper.cpp\'s text, normalised.' }),
  samePadding: againstFasterWhisper('faster-whisper filling the 30 s window that ends the recording as whisper.cpp does (with the log-mel of zero samples after the audio), so that both models read the same log-mel: the conversion\'s proof.'),
  ownPadding: againstFasterWhisper('faster-whisper as shipped, which fills that window with 0 (as openai-whisper\'s transcribe does).'),
  fasterWhisperSeconds: Type.Number({ description: 'faster-whisper\'s time for its own reading.' }),
}, { additionalProperties: false });
export type ConversionScore = Static<typeof ConversionScoreSchema>;
export type AgainstFasterWhisper = ConversionScore['samePadding'];

export interface ConversionCase {
  /** The evaluation model's id (scripts/models/evalModels.json). */
  model: string;
  /** Its original CTranslate2 model, for faster-whisper. */
  ct2Directory: string;
  language: string;
  recording: string;
  audioPath: string;
  /** What whisper.cpp read on the converted model, as it wrote it. */
  whisperCpp: string;
}

/** faster-whisper's readings of each case with `decoding`'s settings, each scored against whisper.cpp's text (fasterWhisperReference.py). */
export async function scoreAgainstFasterWhisper(decoding: ConversionDecoding, cases: readonly ConversionCase[], threads: number, directory = evalModelsDir()): Promise<ConversionScore[]> {
  const output = await runPythonReference('fasterWhisperReference.py', { settings: conversionDecodings[decoding].fasterWhisper, threads, cases }, directory);
  return output.trim().split('\n').filter(Boolean).map((line) => Value.Parse(ConversionScoreSchema, JSON.parse(line)));
}

/** whisper.cpp's text for `audioPath` with `decoding`'s flags and the service's thresholds: whisper-cli's plain-text output. */
export async function whisperCliText(modelPath: string, audioPath: string, decoding: ConversionDecoding, threads: number): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'eval-conversion-'));
  try {
    const outputBase = join(folder, 'text');
    const args = ['-m', modelPath, '-f', audioPath, '-t', String(threads), '-l', 'en', '-np', '-otxt', '-of', outputBase, ...antiHallucinationArguments, ...conversionDecodings[decoding].whisperCliArguments];
    const { exitCode, output } = await runCommand(defaultWhisperCliPath, args);
    if (exitCode !== 0) throw new Error(`whisper-cli failed (exit ${exitCode}): ${output.trim().split('\n').slice(-3).join(' / ')}`);
    return await readFile(`${outputBase}.txt`, 'utf8');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
