import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveModelPath } from '../../infrastructure/health/readinessChecks.js';
import { assertModelUsable } from '../../infrastructure/models/assertModelUsable.js';
import { cleanAudio } from '../cleanup/cleanAudio.js';
import { RecordingTooLong, RecordingWithoutSound } from '../cleanup/cleanupFailures.js';
import type { StageContext } from '../StageContext.js';
import { StageFailure } from '../StageFailure.js';

export interface VoiceSampleLimits {
  /** Shortest accepted sample, seconds of decoded audio. */
  minSeconds: number;
  /** Longest accepted sample, seconds of decoded audio. */
  maxSeconds: number;
}

export interface VoiceSampleInput {
  /** The uploaded sample (WAV, MP3 or M4A). */
  samplePath: string;
  /** An empty folder for the decoded audio; the caller removes it. */
  workDir: string;
  /** `EMBEDDING_MODEL` as configured. */
  embeddingModel: string;
  limits: VoiceSampleLimits;
}

export interface SampleEmbedding {
  /** Unit-length embedding; shape: (dimension). */
  vector: Float32Array;
  /** File name of the model that produced it. */
  model: string;
  /** Length of the decoded sample, seconds. */
  durationSeconds: number;
  /** Seconds of it loud enough to be speech. */
  speechSeconds: number;
}

/**
 * Why a sample gives no embedding: the sample's fault (`too_short`, `too_long`, `not_audio`)
 * or the provider's (`provider`: no model installed, or the model failed).
 */
export class VoiceSampleRejected extends Error {
  constructor(
    readonly kind: 'too_short' | 'too_long' | 'not_audio' | 'provider',
    message: string,
    readonly details?: Record<string, number>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'VoiceSampleRejected';
  }
}

/**
 * A voice sample → its speaker embedding: decoded and cleaned exactly as call recordings are
 * (so profile and call speakers are embedded alike), its length checked against the limits,
 * then embedded from its speech (at least half the minimum length must be speech, so a sample
 * of mostly silence is refused as too short). The decoded audio stays in `workDir`.
 */
export async function embedVoiceSample(input: VoiceSampleInput, context: StageContext): Promise<SampleEmbedding> {
  const { limits } = input;
  const modelPath = resolveModelPath(input.embeddingModel);
  if (!existsSync(modelPath)) {
    throw new VoiceSampleRejected('provider', `No speaker-embedding model is installed on this server (${basename(input.embeddingModel)}); an administrator must install one`);
  }
  await assertModelUsable(modelPath).catch((error: unknown) => { throw error instanceof StageFailure ? new VoiceSampleRejected('provider', error.reason) : error; });
  const cleaned = await cleanSample(input, context);
  const durationSeconds = Math.round(cleaned.durationSeconds * 10) / 10;
  if (cleaned.durationSeconds < limits.minSeconds) {
    throw new VoiceSampleRejected('too_short', `The voice sample is ${durationSeconds} s long; at least ${limits.minSeconds} s are needed`, { durationSeconds, minSeconds: limits.minSeconds });
  }
  if (cleaned.durationSeconds > limits.maxSeconds) {
    throw new VoiceSampleRejected('too_long', `The voice sample is ${durationSeconds} s long; at most ${limits.maxSeconds} s are accepted`, { durationSeconds, maxSeconds: limits.maxSeconds });
  }
  let embedded;
  try {
    embedded = await context.runInWorker('embedVoices', {
      audioPath: cleaned.monoPath, embeddingModelPath: modelPath, voices: { sample: [{ startSeconds: 0, endSeconds: cleaned.durationSeconds }] },
    });
  } catch (error) {
    throw new VoiceSampleRejected('provider', 'The speaker-embedding model failed on this sample', undefined, { cause: error });
  }
  const sample = embedded.voices.sample;
  const minSpeechSeconds = limits.minSeconds / 2;
  if (!sample || sample.speechSeconds < minSpeechSeconds) {
    const speechSeconds = sample?.speechSeconds ?? 0;
    throw new VoiceSampleRejected('too_short', `The voice sample holds only ${speechSeconds} s of speech; at least ${minSpeechSeconds} s are needed`, { speechSeconds, minSpeechSeconds });
  }
  return { vector: sample.vector, model: embedded.model, durationSeconds, speechSeconds: sample.speechSeconds };
}

/** The clean-up stage's result, its refusals turned into the sample's. */
async function cleanSample(input: VoiceSampleInput, context: StageContext) {
  try {
    return await cleanAudio({ sourcePath: input.samplePath, outputDir: input.workDir, maxDurationSeconds: input.limits.maxSeconds }, context);
  } catch (error) {
    if (error instanceof RecordingTooLong) {
      throw new VoiceSampleRejected('too_long', `The voice sample is longer than ${input.limits.maxSeconds} s`, { maxSeconds: input.limits.maxSeconds });
    }
    if (error instanceof RecordingWithoutSound) {
      throw new VoiceSampleRejected('too_short', 'The voice sample holds no speech', { speechSeconds: 0, minSeconds: input.limits.minSeconds });
    }
    if (error instanceof StageFailure && error.kind === 'bad_input') throw new VoiceSampleRejected('not_audio', error.reason);
    if (error instanceof StageFailure) throw new VoiceSampleRejected('provider', error.reason);
    throw error;
  }
}
