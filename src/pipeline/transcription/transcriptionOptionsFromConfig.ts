import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Config } from '../../config/configSchema.js';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import type { StageContext } from '../StageContext.js';
import type { Transcription } from '../speechTypes.js';
import { transcribeAudio, type TranscriptionInput, type TranscriptionOptions } from './transcribeAudio.js';
import { maxPieceSeconds, transcribeInPieces } from './transcribeInPieces.js';
import { transcribeOverHttp, type HttpTranscriptionOptions } from './transcribeOverHttp.js';
import { defaultWhisperServerPath, WhisperServerProcess } from './WhisperServerProcess.js';
import { whisperDtwFor } from './whisperDtw.js';

/** The transcription stage's options from the service's configuration (model paths resolved from the install folder). */
export function transcriptionOptionsFromConfig(
  config: Pick<Config, 'WHISPER_MODEL' | 'VAD_MODEL' | 'WHISPER_THREADS' | 'WHISPER_LANGUAGE'> & Partial<Pick<Config, 'GPU' | 'WHISPER_CLI' | 'WHISPER_DTW' | 'WHISPER_BEAM_SIZE'>>,
  extra: Pick<TranscriptionOptions, 'tempDir' | 'whisperCliPath'> = {},
): TranscriptionOptions {
  return {
    modelPath: resolveModelPath(config.WHISPER_MODEL),
    vadModelPath: resolveModelPath(config.VAD_MODEL),
    threads: config.WHISPER_THREADS,
    language: config.WHISPER_LANGUAGE,
    dtw: config.WHISPER_DTW ?? 'auto',
    ...(config.WHISPER_BEAM_SIZE === undefined ? {} : { beamSize: config.WHISPER_BEAM_SIZE }),
    ...(config.GPU === 'off' ? { useGpu: false } : {}),
    ...(config.WHISPER_CLI ? { whisperCliPath: resolveModelPath(config.WHISPER_CLI) } : {}),
    ...extra,
  };
}

/** Who transcribes (`TRANSCRIPTION_PROVIDER`), with that provider's options. */
export type TranscriptionSettings =
  | { provider: 'local'; local: TranscriptionOptions }
  | { provider: 'openai'; http: HttpTranscriptionOptions }
  /** The provider answers later with a callback to `callbackUrl` (the pipeline's callback transcription submits and resumes). */
  | { provider: 'callback'; http: HttpTranscriptionOptions; callbackUrl: string };

export type TranscriptionConfig = Parameters<typeof transcriptionOptionsFromConfig>[0]
  & Pick<Config, 'TRANSCRIPTION_PROVIDER' | 'TRANSCRIPTION_TIMEOUT_SECONDS'>
  & Partial<Pick<Config, 'TRANSCRIPTION_URL' | 'TRANSCRIPTION_API_KEY' | 'TRANSCRIPTION_MODEL_NAME' | 'PUBLIC_URL'>>;

export function transcriptionSettingsFromConfig(config: TranscriptionConfig): TranscriptionSettings {
  if (config.TRANSCRIPTION_PROVIDER === 'local') return { provider: 'local', local: transcriptionOptionsFromConfig(config) };
  // loadConfig refuses openai and callback without a URL, and callback without PUBLIC_URL.
  const http: HttpTranscriptionOptions = {
    url: config.TRANSCRIPTION_URL!,
    language: config.WHISPER_LANGUAGE,
    ...(config.WHISPER_BEAM_SIZE === undefined ? {} : { beamSize: config.WHISPER_BEAM_SIZE }),
    timeoutMs: config.TRANSCRIPTION_TIMEOUT_SECONDS * 1000,
    ...(config.TRANSCRIPTION_API_KEY ? { apiKey: config.TRANSCRIPTION_API_KEY } : {}),
    ...(config.TRANSCRIPTION_MODEL_NAME ? { modelName: config.TRANSCRIPTION_MODEL_NAME } : {}),
  };
  return config.TRANSCRIPTION_PROVIDER === 'callback' ? { provider: 'callback', http, callbackUrl: callbackUrlOf(config.PUBLIC_URL!) } : { provider: 'openai', http };
}

/** Where the provider sends its callback: `PUBLIC_URL` + `/api/callbacks/transcription`. */
export function callbackUrlOf(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/callbacks/transcription`;
}

/**
 * Runs the transcription stage with the configured provider; `workDir` holds any working files.
 * A call longer than {@link maxPieceSeconds} goes to the transcriber in pieces (see
 * transcribeInPieces.ts), so that whisper.cpp holds ten minutes of audio at a time, not hours.
 * Callback mode is not a stage function: the pipeline's callback transcription submits and resumes.
 */
export function transcribeWith(settings: TranscriptionSettings, input: TranscriptionInput, workDir: string, context: StageContext): Promise<Transcription> {
  if (settings.provider === 'callback') return Promise.reject(new Error('callback transcription runs through the pipeline\'s CallbackTranscription'));
  return transcribeInPieces(input, workDir, context, (piece, pieceContext) => (settings.provider === 'local'
    ? transcribeAudio(piece, { ...settings.local, tempDir: workDir }, pieceContext)
    : transcribeOverHttp(piece, settings.http, pieceContext)));
}

/**
 * The persistent whisper-server the service sends local transcription to, or undefined for
 * whisper-cli per call: `TRANSCRIPTION_PROVIDER=openai`, `WHISPER_SERVER=off`, a `WHISPER_CLI`
 * of the operator's, or no whisper-server binary (an older build: `onMissingBinary` is told).
 * Nothing is started until the first call needs it.
 */
export function whisperServerFromConfig(
  config: TranscriptionConfig & Pick<Config, 'WHISPER_SERVER'>,
  onMissingBinary: (path: string) => void = () => undefined,
  binaryPath: string = defaultWhisperServerPath,
): WhisperServerProcess | undefined {
  if (config.TRANSCRIPTION_PROVIDER !== 'local' || config.WHISPER_SERVER === 'off' || config.WHISPER_CLI) return undefined;
  if (!existsSync(binaryPath)) {
    onMissingBinary(binaryPath);
    return undefined;
  }
  const local = transcriptionOptionsFromConfig(config);
  return new WhisperServerProcess({
    binaryPath,
    modelPath: local.modelPath,
    ...(local.dtw !== undefined ? { dtw: local.dtw } : {}),
    ...(local.vadModelPath !== undefined ? { vadModelPath: local.vadModelPath } : {}),
    threads: local.threads || availableParallelism(),
    useGpu: local.useGpu ?? true,
  });
}

/**
 * Why local transcription times words by whisper's token timestamps although `WHISPER_DTW`
 * asks for DTW (the model file's header names no preset), for the log at the service's start;
 * undefined when DTW runs, is off, transcription is not local, or the model is not there yet.
 */
export async function whisperDtwUnavailableReason(config: TranscriptionConfig): Promise<string | undefined> {
  if (config.TRANSCRIPTION_PROVIDER !== 'local') return undefined;
  const { modelPath, dtw } = transcriptionOptionsFromConfig(config);
  if (!existsSync(modelPath)) return undefined;
  const choice = await whisperDtwFor(dtw ?? 'auto', modelPath);
  return choice.preset === undefined ? choice.reason : undefined;
}
