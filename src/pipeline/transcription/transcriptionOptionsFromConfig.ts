import type { Config } from '../../config/configSchema.js';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import type { TranscriptionOptions } from './transcribeAudio.js';

/** The transcription stage's options from the service's configuration (model paths resolved from the install folder). */
export function transcriptionOptionsFromConfig(
  config: Pick<Config, 'WHISPER_MODEL' | 'VAD_MODEL' | 'WHISPER_THREADS' | 'WHISPER_LANGUAGE'> & Partial<Pick<Config, 'GPU' | 'WHISPER_CLI'>>,
  extra: Pick<TranscriptionOptions, 'tempDir' | 'whisperCliPath'> = {},
): TranscriptionOptions {
  return {
    modelPath: resolveModelPath(config.WHISPER_MODEL),
    vadModelPath: resolveModelPath(config.VAD_MODEL),
    threads: config.WHISPER_THREADS,
    language: config.WHISPER_LANGUAGE,
    ...(config.GPU === 'off' ? { useGpu: false } : {}),
    ...(config.WHISPER_CLI ? { whisperCliPath: resolveModelPath(config.WHISPER_CLI) } : {}),
    ...extra,
  };
}
