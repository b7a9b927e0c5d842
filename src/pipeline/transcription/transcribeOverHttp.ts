import { postMultipart, serverMessageOf, transportFailure, type HttpAnswer } from '../../infrastructure/inference/inferenceRequests.js';
import { StageFailure } from '../StageFailure.js';
import type { StageContext } from '../StageContext.js';
import type { Transcription } from '../speechTypes.js';
import type { TranscriptionInput } from './transcribeAudio.js';
import { VerboseJsonError, wordsFromVerboseJson } from './verboseJson.js';
import { whisperPromptWithoutVocabulary } from './whisperPrompt.js';
import { defaultWhisperBeamSize } from './whisperCliArguments.js';
import { whisperServerFields } from './whisperServerFields.js';

/** The site's own transcription server (`TRANSCRIPTION_PROVIDER=openai`). */
export interface HttpTranscriptionOptions {
  /** The endpoint that takes the audio: whisper.cpp's `…/inference` or OpenAI's `…/v1/audio/transcriptions`. */
  url: string;
  /** Sent as `Authorization: Bearer`. Defaults to none. */
  apiKey?: string;
  /** Sent as `model`. Defaults to `whisper-1` for an OpenAI-compatible server, none for whisper.cpp's. */
  modelName?: string;
  /**
   * A whisper language code, or `auto`: then left out for OpenAI's API (which detects the
   * language unless told) and sent as `auto` to whisper.cpp's server (whose default is `en`).
   * Defaults to `"auto"`.
   */
  language?: string;
  /** Hypotheses kept while decoding, sent to a whisper.cpp server only (`WHISPER_BEAM_SIZE`; OpenAI's API has no such field). Defaults to `1`, greedy. */
  beamSize?: number;
  /** Longest wait for the answer, ms. */
  timeoutMs: number;
}

/** How the two kinds of server are spoken to. */
export type TranscriptionApi = 'whisper.cpp' | 'openai';

/** whisper.cpp's server takes `/inference`; anything else is spoken to as OpenAI's API. */
export function transcriptionApiOf(url: string): TranscriptionApi {
  return /\/inference\/?$/.test(new URL(url).pathname) ? 'whisper.cpp' : 'openai';
}

/** How often progress is reported while the server works (it reports none), which also tells the stale sweep the stage is alive, ms. */
const progressIntervalMs = 5000;
/** Real-time multiple assumed for the progress estimate: a GPU server is far faster, a CPU one slower; the bar never claims done. */
const assumedSpeed = 10;

/**
 * The transcription stage over HTTP: the cleaned audio (16 kHz mono WAV) to the site's own
 * server, its `verbose_json` answer (either shape, see verboseJson.ts) → words, by the same
 * rules as whisper-cli's output. The audio goes only to `url`.
 *
 * Failures, in the spec's terms: a 4xx answer is `rejected` (the call fails, no retry); a 5xx,
 * a network error or a timeout is `transient` (the stage is retried once); an answer that is
 * not a transcription is an internal error. Reasons name the host and status, never the audio
 * or the key.
 */
export async function transcribeOverHttp(input: TranscriptionInput, options: HttpTranscriptionOptions, context: StageContext): Promise<Transcription> {
  context.signal.throwIfAborted();
  const host = new URL(options.url).host;
  const language = options.language ?? 'auto';
  const modelName = modelNameOf(options);
  const fields = transcriptionRequestFields(options, input.prompt);

  const started = Date.now();
  const expectedMs = Math.max(5000, (input.durationSeconds / assumedSpeed) * 1000);
  const timer = setInterval(() => context.reportProgress(Math.min(0.95, (Date.now() - started) / expectedMs)), progressIntervalMs);
  let answer: HttpAnswer;
  try {
    answer = await postMultipart(options.url, {
      fields,
      file: { field: 'file', path: input.audioPath, fileName: 'call.wav', contentType: 'audio/wav' },
      ...(options.apiKey ? { headers: { authorization: `Bearer ${options.apiKey}` } } : {}),
      timeoutMs: options.timeoutMs,
      signal: context.signal,
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw transportFailure('transcription server', host, error, 'TRANSCRIPTION_TIMEOUT_SECONDS');
  } finally {
    clearInterval(timer);
  }

  if (answer.status >= 400 && answer.status < 500) {
    throw new StageFailure('rejected', `The transcription server at ${host} refused the call (HTTP ${answer.status}${detailOf(answer, options.apiKey)})`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new StageFailure('transient', `The transcription server at ${host} failed (HTTP ${answer.status}${detailOf(answer, options.apiKey)}); the call can be reprocessed`);
  }
  let read;
  try {
    read = wordsFromVerboseJson(answer.body, { durationSeconds: input.durationSeconds, configuredLanguage: language });
  } catch (error) {
    if (error instanceof VerboseJsonError) throw new Error(`The transcription server at ${host} answered with something else than a transcription: ${error.message}`);
    throw error;
  }
  const { language: detected, words } = read;
  if (detected === undefined) throw new Error(`The transcription server at ${host} reported no language`);
  context.reportProgress(1);
  // Provenance for the transcript (served to the app): the provider setting and the model, never the server's address.
  return { language: detected, words, provider: 'openai', model: modelName ?? 'whisper.cpp-server' };
}

/** `": <the server's message>"`, or nothing when it gave none. */
function detailOf(answer: HttpAnswer, apiKey: string | undefined): string {
  const message = serverMessageOf(answer, [apiKey]);
  return message ? `: ${message}` : '';
}

/**
 * The form fields of a transcription request (the file aside), by the server's protocol:
 * OpenAI's (`model`, `timestamp_granularities[]`, `language` unless auto, `prompt` when there
 * is one) or whisper.cpp's ({@link whisperServerFields}, plus `model` when one is configured).
 */
export function transcriptionRequestFields(options: Pick<HttpTranscriptionOptions, 'url' | 'language' | 'modelName' | 'beamSize'>, prompt?: string): [string, string][] {
  const language = options.language ?? 'auto';
  const modelName = modelNameOf(options);
  const model: [string, string][] = modelName ? [['model', modelName]] : [];
  if (transcriptionApiOf(options.url) === 'whisper.cpp') {
    // The site's model is not at hand to count the prompt's tokens: its bytes bound them.
    return [...model, ...whisperServerFields({ language, prompt: prompt === undefined ? undefined : whisperPromptWithoutVocabulary(prompt), beamSize: options.beamSize ?? defaultWhisperBeamSize })];
  }
  return [
    ['response_format', 'verbose_json'],
    ...model,
    ...(language !== 'auto' ? [['language', language] as [string, string]] : []),
    ['timestamp_granularities[]', 'word'], ['timestamp_granularities[]', 'segment'],
    // OpenAI's API reads the last 224 tokens of it.
    ...(prompt !== undefined ? [['prompt', prompt] as [string, string]] : []),
  ];
}

/** `model` as sent: the configured name, `whisper-1` to an OpenAI-compatible server, none to whisper.cpp's. */
export function modelNameOf(options: Pick<HttpTranscriptionOptions, 'url' | 'modelName'>): string | undefined {
  return options.modelName ?? (transcriptionApiOf(options.url) === 'openai' ? 'whisper-1' : undefined);
}
