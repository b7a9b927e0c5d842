import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Config } from '../../config/configSchema.js';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { modelDisplayName, resolveModelPath } from '../../infrastructure/models/resolveModelPath.js';
import { requestChatCompletion } from '../../pipeline/analysis/llm/chatCompletion.js';
import { LlmRuntime } from '../../pipeline/analysis/llm/LlmRuntime.js';
import type { StageContext } from '../../pipeline/StageContext.js';
import { pcm16MonoWav } from '../../pipeline/signal/pcm16Wav.js';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { transcribeWith, transcriptionSettingsFromConfig, type TranscriptionConfig } from '../../pipeline/transcription/transcriptionOptionsFromConfig.js';

/** What the admin page shows after a test: the answer (or the failure) and the time it took. */
export type InferenceTestResult = {
  provider: string;
  /** The server's host, for a provider that is one. */
  host: string | null;
  seconds: number;
} & ({ ok: true; answer: string } | { ok: false; problem: string });

/** Longest a test may take, ms: it is one second of audio or one short prompt. */
const testTimeoutMs = 60_000;

/**
 * Speech recognition as calls use it now (`TRANSCRIPTION_PROVIDER` and its settings, whisper-cli
 * for local), on one second of a tone: the answer is the language and the words heard (a tone
 * has none), or why it failed, with the time taken.
 */
export async function testTranscription(config: TranscriptionConfig): Promise<InferenceTestResult> {
  const settings = transcriptionSettingsFromConfig(config);
  const host = settings.provider === 'openai' ? new URL(settings.http.url).host : null;
  const folder = await mkdtemp(join(tmpdir(), 'callscope-inference-test-'));
  const started = Date.now();
  try {
    const audioPath = join(folder, 'test.wav');
    await writeFile(audioPath, oneSecondTone());
    const transcription = await transcribeWith(settings, { audioPath, durationSeconds: 1 }, folder, testContext());
    const words = transcription.words.map((word) => word.text).join(' ');
    return { provider: config.TRANSCRIPTION_PROVIDER, host, seconds: secondsSince(started), ok: true, answer: `language ${transcription.language}, model ${transcription.model}, ${transcription.words.length} word(s)${words ? `: ${words}` : ''}` };
  } catch (error) {
    return { provider: config.TRANSCRIPTION_PROVIDER, host, seconds: secondsSince(started), ok: false, problem: problemOf(error) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The one short question of the language model test, asked as analyses ask theirs: under a JSON schema. */
const readinessQuestion = {
  systemPrompt: 'You check that a service can reach you. Answer with JSON only.',
  userPrompt: 'Say that you are ready: {"ready": true}.',
  schema: { type: 'object', properties: { ready: { type: 'boolean' } }, required: ['ready'], additionalProperties: false },
  maxOutputTokens: 32,
};

/**
 * The language model asked one short question under a tiny JSON schema: the site's chat server
 * (`LLM_PROVIDER=openai`), or the local GGUF model, loaded for the test in this process and
 * freed after it (the calls' copies live on the worker threads).
 */
export async function testLanguageModel(
  config: Pick<Config, 'LLM_PROVIDER' | 'LLM_TIMEOUT_SECONDS' | 'LLM_MODEL' | 'GPU'> & Partial<Pick<Config, 'LLM_URL' | 'LLM_MODEL_NAME' | 'LLM_API_KEY'>>,
): Promise<InferenceTestResult> {
  const started = Date.now();
  if (config.LLM_PROVIDER !== 'openai' || !config.LLM_URL || !config.LLM_MODEL_NAME) return testLocalLanguageModel(config, started);
  const host = new URL(config.LLM_URL).host;
  try {
    const generation = await requestChatCompletion(
      { url: config.LLM_URL, modelName: config.LLM_MODEL_NAME, timeoutMs: Math.min(testTimeoutMs, config.LLM_TIMEOUT_SECONDS * 1000), ...(config.LLM_API_KEY ? { apiKey: config.LLM_API_KEY } : {}) },
      readinessQuestion,
      AbortSignal.timeout(testTimeoutMs),
    );
    if (generation.kind === 'too_long') return { provider: 'openai', host, seconds: secondsSince(started), ok: false, problem: 'The server says even a short prompt does not fit its context' };
    return { provider: 'openai', host, seconds: secondsSince(started), ok: true, answer: `${generation.text.trim().slice(0, 200)} (${generation.promptTokens} prompt and ${generation.answerTokens} answer tokens)` };
  } catch (error) {
    return { provider: 'openai', host, seconds: secondsSince(started), ok: false, problem: problemOf(error) };
  }
}

async function testLocalLanguageModel(config: Pick<Config, 'LLM_MODEL' | 'GPU'>, started: number): Promise<InferenceTestResult> {
  const modelPath = resolveModelPath(config.LLM_MODEL);
  const result = { provider: 'local', host: null };
  if (!existsSync(modelPath)) {
    return { ...result, seconds: 0, ok: false, problem: `The language model is not installed (LLM_MODEL, now ${modelDisplayName(modelPath)}): download or import it on the Models page; without it the built-in analyser runs.` };
  }
  let runtime: LlmRuntime | undefined;
  try {
    runtime = await LlmRuntime.load({ modelPath, gpu: config.GPU === 'off' ? false : 'auto' });
    const generation = await runtime.generate({ ...readinessQuestion, contextSize: 512, threads: 1 });
    if (generation.kind === 'too_long') return { ...result, seconds: secondsSince(started), ok: false, problem: 'Even a short prompt does not fit the model\'s context' };
    return { ...result, seconds: secondsSince(started), ok: true, answer: `${generation.text.trim().slice(0, 200)} (${basename(modelPath)}, ${generation.promptTokens} prompt and ${generation.answerTokens} answer tokens)` };
  } catch (error) {
    return { ...result, seconds: secondsSince(started), ok: false, problem: problemOf(error) };
  } finally {
    await runtime?.dispose();
  }
}

/** A stage context for a test: bounded in time, no progress shown, no worker pool. */
function testContext(): StageContext {
  return {
    signal: AbortSignal.timeout(testTimeoutMs),
    reportProgress: () => undefined,
    runInWorker: (() => Promise.reject(new Error('no worker pool in an inference test'))) as StageContext['runInWorker'],
  };
}

function problemOf(error: unknown): string {
  if (error instanceof StageFailure) return error.reason;
  if ((error as Error).name === 'TimeoutError') return `No answer within ${testTimeoutMs / 1000} s`;
  return (error as Error).message;
}

function secondsSince(started: number): number {
  return Math.round((Date.now() - started) / 10) / 100;
}

/** One second of a quiet 440 Hz tone as a 16 kHz mono 16-bit WAV (what the clean-up stage hands on). */
export function oneSecondTone(): Buffer {
  const sampleRate = 16_000;
  const samples = Float32Array.from({ length: sampleRate }, (_, index) => Math.round(Math.sin((2 * Math.PI * 440 * index) / sampleRate) * 3000) / 32768);
  return pcm16MonoWav(samples, sampleRate);
}
