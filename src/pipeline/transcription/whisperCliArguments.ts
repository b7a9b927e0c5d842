import type { WhisperPrompt } from './whisperPrompt.js';

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
}

/**
 * The argument array for whisper.cpp's `whisper-cli` (v1.9), spawned without a shell, so no
 * value is ever interpreted. Output is the full JSON file (`-ojf`), whose tokens carry
 * `offsets.from/to` in ms and their probability `p`.
 *
 * Word times come from whisper's token timestamps (`-ojf` switches them on), not from DTW
 * (`-dtw <preset>`): DTW needs the alignment-head preset of the exact model in use (which a
 * configurable WHISPER_MODEL cannot promise), turns flash attention off, and aborts on decode
 * windows shorter than ~140 ms in this version; its maintainers call it experimental.
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
    ...(input.prompt ? withMaxContext(antiHallucinationArguments, input.prompt.maxContext) : antiHallucinationArguments),
    ...(input.prompt ? ['--prompt', input.prompt.text, '--carry-initial-prompt'] : []),
  ];
  if (input.vadModelPath !== undefined) {
    // Only stretches in which Silero VAD hears speech are decoded: silence and line noise,
    // where whisper invents text ("Thank you.", "Subtitles by…"), never reach the decoder.
    args.push('--vad', '--vad-model', input.vadModelPath);
  }
  if (input.useGpu === false) args.push('--no-gpu');
  return args;
}

/** `args` with the value after `-mc` replaced (a prompt needs the text context `-mc 0` turns off). */
function withMaxContext(args: readonly string[], maxContext: number): string[] {
  return args.map((value, index) => (args[index - 1] === '-mc' ? String(maxContext) : value));
}

/**
 * Settings against hallucination, above all the loops whisper falls into on silence and
 * noise (one phrase repeated for minutes). The thresholds are whisper.cpp's defaults, stated
 * so that a new version cannot change them under us.
 */
export const antiHallucinationArguments: readonly string[] = [
  // Suppress non-speech tokens (♪, [BLANK_AUDIO]-style annotations, brackets): on silence the
  // model would rather emit those than nothing.
  '--suppress-nst',
  // No previous text as the prompt for the next 30 s window: a hallucinated or repeated phrase
  // fed back as context is what turns one mistake into a loop. A call's initial prompt raises
  // it to exactly the prompt's size (see WhisperPrompt).
  '-mc', '0',
  // A window whose text (over 32 tokens) is repetitive, i.e. the entropy of its token counts is
  // below 2.4 (whisper.cpp's stand-in for OpenAI's compression-ratio test), is decoded again at
  // a higher temperature: fallback stays on (no `-nf`), which is what breaks a loop.
  '-et', '2.4',
  // Likewise when the mean log-probability of its tokens is below -1 (the model was guessing).
  '-lpt', '-1.0',
  // A window whose no-speech probability is above 0.6 while its tokens are unlikely (see -lpt)
  // is taken for silence and yields no text.
  '-nth', '0.6',
];
