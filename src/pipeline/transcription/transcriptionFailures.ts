import { StageFailure } from '../StageFailure.js';

/**
 * The transcription stage's failures, worded for the operator who reads the call's
 * `errorReason`: what to install or fix, never the recording's path or its text.
 */
export const transcriptionFailures = {
  notBuilt: () =>
    new StageFailure('unavailable', 'Speech recognition is not built: run `npm run build:native` in the Callscope folder (it needs cmake and g++: `apt-get install -y cmake g++`)'),
  /** `modelName`: the configured path relative to the install folder, or the file name: never an absolute path. */
  modelMissing: (modelName: string) =>
    new StageFailure(
      'model_missing',
      `The speech recognition model is not installed: put a whisper.cpp ggml model (e.g. ggml-base.en.bin or ggml-small.bin from https://huggingface.co/ggerganov/whisper.cpp) at WHISPER_MODEL (now ${modelName})`,
    ),
  modelUnusable: (modelName: string) =>
    new StageFailure('unavailable', `The speech recognition model at WHISPER_MODEL (now ${modelName}) could not be loaded: it is damaged or not a whisper.cpp ggml model; replace it`),
  /** whisper-cli was stopped for holding more than `limitBytes`: seen with a model damaged inside its tensor headers. */
  memoryExceeded: (modelName: string, limitBytes: number) =>
    new StageFailure(
      'unavailable',
      `Speech recognition was stopped when it needed more than ${Math.round(limitBytes / 1024 ** 2)} MB of memory with the model at WHISPER_MODEL (now ${modelName}): the model is probably damaged; replace it`,
    ),
  vadModelUnusable: (modelName: string) =>
    new StageFailure('unavailable', `The voice activity model at VAD_MODEL (now ${modelName}) could not be loaded: replace it with a Silero VAD ggml model, or remove it`),
  unknownLanguage: (language: string) =>
    new StageFailure('unavailable', `WHISPER_LANGUAGE=${language} is not a language whisper knows; use a whisper language code (en, de, fr…) or auto`),
  unreadableAudio: () => new StageFailure('bad_input', 'The cleaned audio could not be read for speech recognition'),
};
