/**
 * The transcribers `npm run eval:hotwords` measures: the one the service's settings configure,
 * or each real evaluation model (scripts/models/evalModels.ts) on each way the service can
 * reach whisper, built from the same configuration functions the service uses.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Config } from '../../src/config/configSchema.js';
import { modelDisplayName } from '../../src/infrastructure/models/resolveModelPath.js';
import { transcriptionSettingsFromConfig, whisperServerFromConfig, type TranscriptionSettings } from '../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { requireEvalModelFile } from '../models/evalModels.js';
import { startFasterWhisperServer } from '../models/fasterWhisperServer.js';

/** How the service reaches whisper: whisper-cli per call, its persistent whisper-server, or a site's OpenAI-compatible server. */
export const transcriberPaths = ['cli', 'server', 'openai'] as const;
export type TranscriberPath = (typeof transcriberPaths)[number];

/** A transcriber ready to take calls: the stage's settings, a line saying what runs, and what ends it. */
export interface OpenTranscriber {
  /** `model/path`, or `configured` for the service's own settings. */
  label: string;
  description: string;
  settings: Exclude<TranscriptionSettings, { provider: 'callback' }>;
  close(): Promise<void>;
}

/** The transcriber the service's settings (`TRANSCRIPTION_PROVIDER`, `WHISPER_MODEL`…) configure; throws with what to set when they cannot run here. */
export function configuredTranscriber(config: Config): OpenTranscriber {
  const settings = transcriptionSettingsFromConfig(config);
  if (settings.provider === 'callback') throw new Error('eval:hotwords cannot wait for callbacks: run it with TRANSCRIPTION_PROVIDER=openai and the provider\'s TRANSCRIPTION_URL');
  if (settings.provider === 'local' && !existsSync(settings.local.modelPath)) {
    throw new Error(`No whisper model at WHISPER_MODEL (now ${modelDisplayName(settings.local.modelPath)}): install one (callscope models fetch), name one with WHISPER_MODEL=<file>, or measure the evaluation models with --models`);
  }
  const description = settings.provider === 'local'
    ? `whisper.cpp (whisper-cli) with ${modelDisplayName(settings.local.modelPath)}, language ${settings.local.language ?? 'auto'}`
    : `the transcription server at ${new URL(settings.http.url).host}`;
  return { label: 'configured', description, settings, close: () => Promise.resolve() };
}

/**
 * Evaluation model `modelId` on `path`, with the service's other settings from `config`
 * (VAD_MODEL, WHISPER_THREADS, GPU) and `language`:
 * - `cli`: its converted ggml file, whisper-cli per call (`WHISPER_SERVER=off`);
 * - `server`: the same file on the persistent whisper-server, made by the service's own
 *   `whisperServerFromConfig`, started by the first call and stopped by `close()`;
 * - `openai`: `TRANSCRIPTION_PROVIDER=openai` against faster-whisper-server on the package's
 *   original CTranslate2 model (scripts/models/fasterWhisperServer.ts; its own decoding, no VAD),
 *   started here and stopped by `close()`.
 */
export async function openEvalModelTranscriber(modelId: string, path: TranscriberPath, config: Config, language: string): Promise<OpenTranscriber> {
  const label = `${modelId}/${path}`;
  if (path === 'openai') {
    const server = await startFasterWhisperServer({ modelDirectory: requireEvalModelFile(modelId, 'ct2Directory'), threads: config.WHISPER_THREADS || availableParallelism() });
    const settings = transcriptionSettingsFromConfig({ ...config, TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: server.url, WHISPER_LANGUAGE: language });
    if (settings.provider !== 'openai') throw new Error('unreachable: TRANSCRIPTION_PROVIDER is openai');
    return { label, description: `TRANSCRIPTION_PROVIDER=openai on faster-whisper-server with ${modelId}'s CTranslate2 original, language ${language}`, settings, close: () => server.stop() };
  }
  const { WHISPER_CLI: _operatorsCli, ...withoutCli } = config;
  const modelConfig: Config = { ...withoutCli, TRANSCRIPTION_PROVIDER: 'local', WHISPER_MODEL: requireEvalModelFile(modelId, 'whisperGgml'), WHISPER_LANGUAGE: language };
  const settings = transcriptionSettingsFromConfig(modelConfig);
  if (settings.provider !== 'local') throw new Error('unreachable: TRANSCRIPTION_PROVIDER is local');
  const vad = settings.local.vadModelPath !== undefined && existsSync(settings.local.vadModelPath) ? 'VAD on' : 'no VAD';
  if (path === 'cli') return { label, description: `whisper-cli per call with ${modelId}, language ${language}, ${vad}`, settings, close: () => Promise.resolve() };

  const server = whisperServerFromConfig({ ...modelConfig, WHISPER_SERVER: 'on' }, (binary) => {
    throw new Error(`No whisper-server at ${binary}: run \`npm run build:native\``);
  });
  if (!server) throw new Error('unreachable: the whisper-server is on for TRANSCRIPTION_PROVIDER=local');
  return {
    label,
    description: `the persistent whisper-server with ${modelId}, language ${language}, ${vad}`,
    settings: { provider: 'local', local: { ...settings.local, server } },
    close: () => server.stop(),
  };
}
