import { whisperDtwArguments, type WhisperDtwChoice } from './whisperDtw.js';
import type { WhisperPrompt } from './whisperPrompt.js';
import { whisperVadSettings } from './whisperVadSettings.js';

export interface WhisperCliArgumentsInput {
  modelPath: string;
  /** The 16 kHz mono WAV to transcribe. */
  audioPath: string;
  /** whisper-cli writes `<outputBase>.json`. */
  outputBase: string;
  threads: number;
  /** A whisper language code, or `auto` to detect the language. */
  language: string;
  /** Silero VAD ggml model; undefined runs without VAD. */
  vadModelPath?: string;
  /** False passes `--no-gpu` (GPU=off); a whisper-cli built without CUDA runs on the CPU either way. */
  useGpu?: boolean;
  /** Initial prompt (names and terms said in the call); holds names, so it is never logged. Defaults to none. */
  prompt?: WhisperPrompt | undefined;
  /** DTW word timing with this preset (see whisperDtw.ts). Defaults to none: token timestamps. */
  dtw?: WhisperDtwChoice;
  /** Hypotheses kept while decoding (`WHISPER_BEAM_SIZE`): 1 decodes greedily, more is beam search of that width. */
  beamSize: number;
}

/**
 * The argument array for whisper.cpp's `whisper-cli` (v1.9), spawned without a shell, so no
 * value is ever interpreted. Output is the full JSON file (`-ojf`), whose tokens carry
 * `offsets.from/to` in ms and their probability `p`.
 *
 * Word times come from DTW over the model's alignment heads (`-dtw <preset> -nfa`, a token's
 * `t_dtw`) when `dtw` names a preset, else from whisper's token timestamps (`-ojf` switches
 * them on), which drift by seconds inside a long segment. whisper.cpp 1.9.1 aborted on a
 * window too short for DTW's median filter; the build skips DTW for such a window instead
 * (scripts/buildWhisper.mjs), whose words keep their token timestamps.
 */
export function whisperCliArguments(input: WhisperCliArgumentsInput): string[] {
  const args = [
    '-m', input.modelPath,
    '-f', input.audioPath,
    '-t', String(input.threads),
    '-l', input.language,
    '-ojf',
    '-of', input.outputBase,
    // Progress lines (`progress =  40%`) on stderr.
    '-pp',
    ...whisperDecodingArguments({ maxContext: input.prompt?.maxContext ?? 0, beamSize: input.beamSize }),
    ...(input.prompt ? ['--prompt', input.prompt.text, '--carry-initial-prompt'] : []),
  ];
  if (input.vadModelPath !== undefined) {
    // Only stretches in which Silero VAD hears speech are decoded: silence and line noise,
    // where whisper invents text ("Thank you.", "Subtitles by…"), never reach the decoder.
    args.push('--vad', '--vad-model', input.vadModelPath, ...argumentsOf(whisperVadSettings));
  }
  if (input.useGpu === false) args.push('--no-gpu');
  if (input.dtw) args.push(...whisperDtwArguments(input.dtw));
  return args;
}

/**
 * One decoding setting of the service's whisper.cpp runs, as whisper-cli takes it (`flag`, then
 * the value unless it is a switch) and as whisper-server takes it per request (form `field` of
 * `/inference`, which overrides the server's start flags). Both programs get every setting, with
 * the same value, so that they decode alike: their own defaults differ (whisper-server 1.9
 * decodes greedily, best of 2).
 */
export interface WhisperDecodingSetting {
  flag: string;
  field: string;
  /** `true` is a switch: the flag alone for whisper-cli, `"true"` for the server. */
  value: string | true;
}

/**
 * The search, stated in full so that a new version, or a server's other defaults, cannot change
 * it under us. `beamSize` (WHISPER_BEAM_SIZE) hypotheses are kept at temperature 0: 1, the
 * default, is greedy decoding, the likeliest token at each step (whisper-server's own default,
 * -1, is the same); more is beam search of that width (whisper-cli's own default is 5).
 * whisper.cpp decodes a beam's hypotheses as one batch, each a token's full cost, so a beam of 5
 * took base about twice greedy's time on a 10-minute call on 2 cores (through whisper-server
 * 225.2 s against 110.1 s): greedy meets the 5× real-time target there (5.5×) and a beam of 5
 * does not (2.7×), while the beam spells more of a call's names (88 % against 72 % of
 * eval:hotwords' names, WER 7.3 % against 10.8 %): BENCHMARKS.md, "Greedy decoding or a beam of 5".
 */
export const defaultWhisperBeamSize = 1;

const searchSettings = (beamSize: number): WhisperDecodingSetting[] => [
  { flag: '-bs', field: 'beam_size', value: String(beamSize) },
  // Five samples at each fallback temperature, the likeliest kept (whisper-server's default: 2).
  { flag: '-bo', field: 'best_of', value: '5' },
  { flag: '-tp', field: 'temperature', value: '0' },
  // A window that fails the thresholds below is decoded again at 0.2, 0.4 … 1.0.
  { flag: '-tpi', field: 'temperature_inc', value: '0.2' },
];

/**
 * Settings against hallucination, above all the loops whisper falls into on silence and
 * noise (one phrase repeated for minutes). The thresholds are whisper.cpp's defaults, stated
 * so that a new version cannot change them under us.
 */
const antiHallucinationSettings: readonly WhisperDecodingSetting[] = [
  // Suppress non-speech tokens (♪, [BLANK_AUDIO]-style annotations, brackets): on silence the
  // model would rather emit those than nothing.
  { flag: '--suppress-nst', field: 'suppress_nst', value: true },
  // No previous text as the prompt for the next 30 s window: a hallucinated or repeated phrase
  // fed back as context is what turns one mistake into a loop. A call's initial prompt raises
  // it to exactly the prompt's size (see WhisperPrompt).
  { flag: '-mc', field: 'max_context', value: '0' },
  // A window whose text (over 32 tokens) is repetitive, i.e. the entropy of its token counts is
  // below 2.4 (whisper.cpp's stand-in for OpenAI's compression-ratio test), is decoded again at
  // a higher temperature: fallback stays on (no `-nf`), which is what breaks a loop.
  { flag: '-et', field: 'entropy_thold', value: '2.4' },
  // Likewise when the mean log-probability of its tokens is below -1 (the model was guessing).
  { flag: '-lpt', field: 'logprob_thold', value: '-1.0' },
  // A window whose no-speech probability is above 0.6 while its tokens are unlikely (see -lpt)
  // is taken for silence and yields no text.
  { flag: '-nth', field: 'no_speech_thold', value: '0.6' },
];

/** What varies per call between the decoding settings: the text context and the beam. */
export interface WhisperDecoding {
  /** Tokens of text context (`-mc`, `max_context`): 0 unless a prompt needs room (see WhisperPrompt). */
  maxContext: number;
  /** Hypotheses kept (`-bs`, `beam_size`): 1 is greedy. */
  beamSize: number;
}

/** Every decoding setting for `decoding`. */
function decodingSettings({ maxContext, beamSize }: WhisperDecoding): WhisperDecodingSetting[] {
  return [...searchSettings(beamSize), ...antiHallucinationSettings].map((setting) => (setting.flag === '-mc' ? { ...setting, value: String(maxContext) } : setting));
}

/** Settings as whisper-cli arguments: the flag, then the value unless it is a switch. */
export function argumentsOf(settings: readonly WhisperDecodingSetting[]): string[] {
  return settings.flatMap(({ flag, value }) => (value === true ? [flag] : [flag, value]));
}

/** Settings as whisper-server `/inference` form fields. */
export function fieldsOf(settings: readonly WhisperDecodingSetting[]): [string, string][] {
  return settings.map(({ field, value }) => [field, value === true ? 'true' : value]);
}

/** whisper-cli's decoding arguments. */
export function whisperDecodingArguments(decoding: WhisperDecoding): string[] {
  return argumentsOf(decodingSettings(decoding));
}

/** The same settings as whisper-server's `/inference` form fields. */
export function whisperDecodingFields(decoding: WhisperDecoding): [string, string][] {
  return fieldsOf(decodingSettings(decoding));
}

/** The anti-hallucination settings alone as whisper-cli arguments (for evaluations that choose their own search). */
export const antiHallucinationArguments: readonly string[] = argumentsOf(antiHallucinationSettings);
