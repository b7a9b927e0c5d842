import { access, constants, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { assertModelUsable } from '../../infrastructure/models/assertModelUsable.js';
import { whileLoadingModels } from '../../infrastructure/models/modelLoadFailures.js';
import { modelDisplayName } from '../../infrastructure/models/resolveModelPath.js';
import { packageRoot } from '../../infrastructure/packageRoot.js';
import type { StageContext } from '../StageContext.js';
import type { Transcription } from '../speechTypes.js';
import { parseWhisperJson, whisperLanguage } from './parseWhisperJson.js';
import { runWhisperCli, type WhisperCliOutcome } from './runWhisperCli.js';
import { transcriptionFailures } from './transcriptionFailures.js';
import { VadTimeMap } from './VadTimeMap.js';
import { defaultWhisperBeamSize, whisperCliArguments } from './whisperCliArguments.js';
import { whisperDtwFor, type WhisperDtwSetting } from './whisperDtw.js';
import { whisperPromptFor, type WhisperPrompt } from './whisperPrompt.js';
import { whisperServerFields } from './whisperServerFields.js';
import { wordsFromWhisperJson } from './wordsFromWhisperJson.js';
import { VerboseJsonError, wordsFromVerboseJson } from './verboseJson.js';
import { WhisperServerFailure, type WhisperServerProcess } from './WhisperServerProcess.js';
import { serverMessageOf } from '../../infrastructure/inference/inferenceRequests.js';

export interface TranscriptionInput {
  /** The cleaned 16 kHz mono s16le WAV (`CleanedAudio.monoPath`). */
  audioPath: string;
  /** Its length in seconds (`CleanedAudio.durationSeconds`): word times are clamped to it, progress measured against it. */
  durationSeconds: number;
  /**
   * Initial prompt: names and terms the call likely contains, to steer whisper's spelling
   * (see transcriptionPrompt.ts). Holds names: sent to the transcriber only, never logged.
   * Defaults to none (no prompt at all).
   */
  prompt?: string | undefined;
}

export interface TranscriptionOptions {
  /** whisper.cpp ggml model file (e.g. `ggml-base.en.bin`). Required. */
  modelPath: string;
  /** Silero VAD ggml model for whisper.cpp's `--vad`; used when the file exists. Defaults to none (no VAD). */
  vadModelPath?: string;
  /** CPU threads whisper.cpp uses; 0 = one per core. Defaults to `0`. */
  threads?: number;
  /** A whisper language code (`en`, `de`…), or `auto` to detect it. Defaults to `"auto"`. */
  language?: string;
  /** Hypotheses kept while decoding (`WHISPER_BEAM_SIZE`): 1 greedy (the default), more is beam search. */
  beamSize?: number;
  /** The whisper-cli binary. Defaults to `native/bin/whisper-cli` in the install folder (built by `npm run build:native`). */
  whisperCliPath?: string;
  /** Folder in which a private folder for whisper's output is made, and removed when done. Defaults to the OS temp folder. */
  tempDir?: string;
  /** False keeps a CUDA-built whisper-cli on the CPU (GPU=off). Defaults to `true` (the GPU when the binary has one). */
  useGpu?: boolean;
  /**
   * Resident memory above which whisper-cli is killed, bytes. Defaults to twice the model file
   * plus 2 GiB: whisper.cpp holds the model and compute buffers of a few hundred MB (large-v3,
   * 3.1 GB, runs in about 4 GB), while a damaged model can make it allocate without bound.
   */
  maxMemoryBytes?: number;
  /**
   * How words are timed (`WHISPER_DTW`): DTW with the preset the model file's header names
   * (`auto`), with a named preset, or whisper's token timestamps (`off`). Defaults to `"auto"`.
   */
  dtw?: WhisperDtwSetting;
  /**
   * A persistent whisper-server to send the audio to (the model stays loaded between calls),
   * in place of a whisper-cli run per call. Its settings (binary, model, VAD, threads) are its
   * own; this stage still checks the model files first. Defaults to none: whisper-cli.
   */
  server?: WhisperServerProcess;
}

/** See {@link TranscriptionOptions.maxMemoryBytes}. */
function defaultMaxMemoryBytes(modelBytes: number): number {
  return 2 * modelBytes + 2 * 1024 ** 3;
}

/** Where `npm run build:native` (scripts/buildWhisper.mjs) puts whisper-cli. */
export const defaultWhisperCliPath = join(packageRoot, 'native', 'bin', 'whisper-cli');

/**
 * The transcription stage: the cleaned audio → recognised words with times and confidence,
 * by whisper.cpp's `whisper-cli` in a child process (so no worker thread: the model's memory
 * and CPU are the child's). Words are sorted by start time; a recording without speech gives
 * none.
 *
 * Fails with `model_missing` when the model is not installed (the call waits for it),
 * `unavailable` when whisper-cli is not built or the model is unusable (one whisper cannot load
 * is then reported by readiness until the file changes or loads),
 * `bad_input` when whisper cannot read the audio, a plain Error (internal) for the rest. Kills
 * whisper-cli and throws the signal's reason on abort. Its output folder is always removed.
 */
export async function transcribeAudio(input: TranscriptionInput, options: TranscriptionOptions, context: StageContext): Promise<Transcription> {
  context.signal.throwIfAborted();
  const whisperCliPath = options.whisperCliPath ?? defaultWhisperCliPath;
  if (!options.server && !(await isExecutableFile(whisperCliPath))) throw transcriptionFailures.notBuilt();
  if (!(await isFile(options.modelPath))) throw transcriptionFailures.modelMissing(modelDisplayName(options.modelPath));
  const vadModelPath = options.vadModelPath !== undefined && (await isFile(options.vadModelPath)) ? options.vadModelPath : undefined;
  for (const modelPath of [options.modelPath, vadModelPath]) if (modelPath !== undefined) await assertModelUsable(modelPath);
  const maxMemoryBytes = options.maxMemoryBytes ?? defaultMaxMemoryBytes((await stat(options.modelPath)).size);
  const language = options.language ?? 'auto';
  const prompt = input.prompt === undefined ? undefined : await whisperPromptFor(input.prompt, options.modelPath);
  if (options.server) return transcribeOnServer(options.server, input, { ...options, language, vadModelPath, maxMemoryBytes, prompt }, context);

  const outputDir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'whisper-'));
  try {
    const outputBase = join(outputDir, 'transcript');
    const dtw = await whisperDtwFor(options.dtw ?? 'auto', options.modelPath);
    const args = whisperCliArguments({
      dtw,
      modelPath: options.modelPath,
      audioPath: input.audioPath,
      outputBase,
      threads: options.threads || availableParallelism(),
      language,
      vadModelPath,
      useGpu: options.useGpu ?? true,
      prompt,
      beamSize: options.beamSize ?? defaultWhisperBeamSize,
    });
    // Readiness reports a model whisper cannot load (an own model is verified by nothing else), until it changes or loads.
    const modelName = modelDisplayName(options.modelPath);
    const models = [
      { path: options.modelPath, unusable: [transcriptionFailures.modelUnusable(modelName), transcriptionFailures.memoryExceeded(modelName, maxMemoryBytes)] },
      vadModelPath === undefined ? undefined : { path: vadModelPath, unusable: [transcriptionFailures.vadModelUnusable(modelDisplayName(vadModelPath))] },
    ];
    const { outcome, output } = await whileLoadingModels(models, async () => {
      const ran = await runWhisperCli(whisperCliPath, args, input.durationSeconds, context, maxMemoryBytes);
      const written = await readFile(`${outputBase}.json`, 'utf8').catch(() => undefined);
      const failure = failureOf(ran, written !== undefined, { ...options, language, vadModelPath, maxMemoryBytes });
      if (failure) throw failure;
      return { outcome: ran, output: written! };
    });

    const json = parseWhisperJson(output);
    const detected = whisperLanguage(json);
    if (detected === undefined) throw new Error('whisper-cli reported no language');
    const words = wordsFromWhisperJson(json, {
      durationSeconds: input.durationSeconds,
      vadTimeMap: VadTimeMap.fromWhisperLog(outcome.diagnosticLines),
      language: detected,
    });
    context.reportProgress(1);
    return { language: detected, words, provider: 'whisper.cpp', model: basename(options.modelPath) };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/**
 * The same stage on the persistent whisper-server: the same decoding settings (sent with each
 * request), its verbose_json tokens read by the same rules as whisper-cli's JSON, and the VAD
 * mapping from the lines it logged during this request, so the words are the ones whisper-cli
 * gives. Failures are worded as whisper-cli's are.
 */
async function transcribeOnServer(
  server: WhisperServerProcess,
  input: TranscriptionInput,
  options: TranscriptionOptions & { language: string; vadModelPath: string | undefined; maxMemoryBytes: number; prompt: WhisperPrompt | undefined },
  context: StageContext,
): Promise<Transcription> {
  const modelName = modelDisplayName(options.modelPath);
  const models = [
    { path: options.modelPath, unusable: [transcriptionFailures.modelUnusable(modelName), transcriptionFailures.memoryExceeded(modelName, options.maxMemoryBytes)] },
    options.vadModelPath === undefined ? undefined : { path: options.vadModelPath, unusable: [transcriptionFailures.vadModelUnusable(modelDisplayName(options.vadModelPath))] },
  ];
  const fields = whisperServerFields({ language: options.language, prompt: options.prompt, beamSize: options.beamSize ?? defaultWhisperBeamSize });
  const { answer, diagnosticLines } = await whileLoadingModels(models, async () => {
    try {
      return await server.transcribe(input.audioPath, fields, input.durationSeconds, context);
    } catch (error) {
      if (!(error instanceof WhisperServerFailure)) throw error;
      const printed = (pattern: RegExp) => error.diagnosticLines.some((line) => pattern.test(line));
      if (error.exceededMemory) throw transcriptionFailures.memoryExceeded(modelName, options.maxMemoryBytes);
      if (printed(/failed to initialize whisper context|failed to load model/)) throw transcriptionFailures.modelUnusable(modelName);
      if (options.vadModelPath !== undefined && printed(/failed to (initialize|load) VAD/i)) throw transcriptionFailures.vadModelUnusable(modelDisplayName(options.vadModelPath));
      throw new Error(error.message);
    }
  });
  if (answer.status < 200 || answer.status >= 300) {
    const message = serverMessageOf(answer);
    if (/unknown language/i.test(message)) throw transcriptionFailures.unknownLanguage(options.language);
    if (/read (the )?audio|audio file|WAV/i.test(message)) throw transcriptionFailures.unreadableAudio();
    throw new Error(`whisper-server answered HTTP ${answer.status}`);
  }
  let read;
  try {
    read = wordsFromVerboseJson(answer.body, { durationSeconds: input.durationSeconds, configuredLanguage: options.language, vadTimeMap: VadTimeMap.fromWhisperLog(diagnosticLines) });
  } catch (error) {
    if (error instanceof VerboseJsonError) throw new Error(`whisper-server answered with something else than a transcription: ${error.message}`);
    throw error;
  }
  const { language: detected, words } = read;
  if (detected === undefined) throw new Error('whisper-server reported no language');
  context.reportProgress(1);
  return { language: detected, words, provider: 'whisper.cpp', model: basename(options.modelPath) };
}

/**
 * Why whisper-cli failed, from its exit and the error lines it printed, or undefined when it
 * succeeded. whisper-cli 1.9 exits 0 without output for an unknown language or an unreadable
 * audio file, 3 when the model cannot be loaded, 10 when decoding failed (VAD model included).
 */
function failureOf(
  outcome: WhisperCliOutcome,
  wroteOutput: boolean,
  options: TranscriptionOptions & { language: string; vadModelPath: string | undefined; maxMemoryBytes: number },
): Error | undefined {
  const printed = (pattern: RegExp) => outcome.diagnosticLines.some((line) => pattern.test(line));
  if (outcome.exceededMemory) return transcriptionFailures.memoryExceeded(modelDisplayName(options.modelPath), options.maxMemoryBytes);
  // SIGKILL not sent by us is most likely the OOM killer; SIGABRT is a failed assertion in ggml,
  // seen with a ggml file of another kind given as WHISPER_MODEL or VAD_MODEL.
  if (outcome.signal === 'SIGKILL') return new Error('whisper-cli was killed (SIGKILL; out of memory?)');
  if (outcome.signal) return new Error(`whisper-cli crashed (${outcome.signal}); if every call fails so, check the files WHISPER_MODEL and VAD_MODEL name`);
  if (printed(/^error: unknown language/)) return transcriptionFailures.unknownLanguage(options.language);
  if (printed(/^error: failed to initialize whisper context/)) return transcriptionFailures.modelUnusable(modelDisplayName(options.modelPath));
  if (options.vadModelPath !== undefined && printed(/failed to (initialize|load) VAD/i)) {
    return transcriptionFailures.vadModelUnusable(modelDisplayName(options.vadModelPath));
  }
  if (printed(/^error: failed to read audio file/)) return transcriptionFailures.unreadableAudio();
  if (outcome.exitCode !== 0) return new Error(`whisper-cli failed with exit code ${outcome.exitCode}`);
  if (!wroteOutput) return new Error('whisper-cli wrote no transcript');
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((stats) => stats.isFile(), () => false);
}

async function isExecutableFile(path: string): Promise<boolean> {
  return (await isFile(path)) && access(path, constants.X_OK).then(() => true, () => false);
}
