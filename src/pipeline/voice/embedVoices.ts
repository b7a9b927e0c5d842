import { open, type FileHandle } from 'node:fs/promises';
import { readWavLayout, type WavLayout } from '../cleanup/readWavLayout.js';
import { loadSpeakerEncoder, speakerEncoderIdentity, type SpeakerEncoder } from '../diarization/models/SpeakerEncoder.js';
import { unitLength } from '../diarization/speakers/clusterEmbeddings.js';

/** A stretch of a recording, seconds from its start. */
export interface TimeSpan {
  startSeconds: number;
  endSeconds: number;
}

export interface EmbedVoicesInput {
  /** 16 kHz mono 16-bit WAV (the clean-up stage's `cleaned.wav`). */
  audioPath: string;
  /** The speaker-embedding ONNX model (absolute path). */
  embeddingModelPath: string;
  /** Per voice (a speaker id, or `sample`), the spans in which only that voice is heard. */
  voices: Record<string, TimeSpan[]>;
  /** CPU threads of the model's runs: a call's voices take the diarization's (and so its session); default 1. */
  threads?: number;
}

export interface VoiceEmbedding {
  /** Unit-length embedding; shape: (dimension). */
  vector: Float32Array;
  /** Seconds of speech the embedding was computed from (loud frames of the spans, capped). */
  speechSeconds: number;
}

export interface EmbeddedVoices {
  /** The model's {@link speakerEncoderIdentity} (its file's name, no path): embeddings of different models are not comparable. */
  model: string;
  /** Per voice of the input; a voice with less than {@link voiceEmbeddingLimits}`.minSpeechSeconds` of speech is left out. */
  voices: Record<string, VoiceEmbedding>;
}

export const voiceEmbeddingLimits = {
  /** Speech embedded per voice at most, seconds: more adds time, not accuracy. */
  maxSpeechSeconds: 60,
  /** Less speech than this gives no usable embedding, seconds. */
  minSpeechSeconds: 2,
  /** Length of the pieces embedded one by one and averaged, seconds (WeSpeaker and CAM++ are trained on 2–6 s). */
  chunkSeconds: 6,
  /** A trailing piece shorter than this is dropped unless it is the only one, seconds. */
  minChunkSeconds: 1.5,
  /**
   * A 30 ms frame counts as speech when its level is within this many dB of the loudest
   * frames (the 95th percentile): pauses and breaths between words are left out, as the
   * models were trained on voiced audio.
   */
  speechRangeDb: 30,
} as const;

const SAMPLE_RATE = 16000;
const FRAME_SAMPLES = Math.round(0.03 * SAMPLE_RATE);

/**
 * One embedding per voice: the voice's spans are read from the file, stripped of quiet frames,
 * cut into {@link voiceEmbeddingLimits}`.chunkSeconds` pieces, each embedded by the installed
 * encoder with its own front end, and the unit-length results averaged. Used for
 * the voice-profile sample and for each speaker of a call, so both are embedded alike.
 * Memory: at most `maxSpeechSeconds` of samples per voice (~4 MB).
 */
export async function embedVoices(input: EmbedVoicesInput): Promise<EmbeddedVoices> {
  const model = await loadSpeakerEncoder(input.embeddingModelPath, input.threads);
  const handle = await open(input.audioPath, 'r');
  try {
    const layout = await readWavLayout(handle);
    if (layout.channels !== 1 || layout.sampleRate !== SAMPLE_RATE) throw new Error(`voice embedding needs 16 kHz mono audio, got ${layout.sampleRate} Hz × ${layout.channels}`);
    const voices: Record<string, VoiceEmbedding> = {};
    for (const [voice, spans] of Object.entries(input.voices)) {
      const speech = keepSpeech(await readSpans(handle, layout, spans, voiceEmbeddingLimits.maxSpeechSeconds * 3));
      const capped = speech.subarray(0, voiceEmbeddingLimits.maxSpeechSeconds * SAMPLE_RATE);
      const speechSeconds = capped.length / SAMPLE_RATE;
      if (speechSeconds < voiceEmbeddingLimits.minSpeechSeconds) continue;
      voices[voice] = { vector: await embedSpeech(model, capped), speechSeconds: Math.round(speechSeconds * 10) / 10 };
    }
    return { model: speakerEncoderIdentity(model.fileName, model.kind), voices };
  } finally {
    await handle.close();
  }
}

/** The samples of `spans`, concatenated in order, up to `maxSeconds` in all; scaled to -1..1. */
async function readSpans(handle: FileHandle, layout: WavLayout, spans: readonly TimeSpan[], maxSeconds: number): Promise<Float32Array> {
  const totalSamples = layout.dataBytes / 2;
  const budget = Math.round(maxSeconds * SAMPLE_RATE);
  const output = new Float32Array(Math.min(budget, totalSamples));
  let filled = 0;
  for (const span of spans) {
    if (filled >= output.length) break;
    const start = Math.max(0, Math.floor(span.startSeconds * SAMPLE_RATE));
    const end = Math.min(totalSamples, Math.ceil(span.endSeconds * SAMPLE_RATE), start + output.length - filled);
    if (end <= start) continue;
    const bytes = Buffer.alloc((end - start) * 2);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, layout.dataOffset + start * 2);
    for (let index = 0; index < bytesRead >> 1; index++) output[filled++] = bytes.readInt16LE(index * 2) / 32768;
  }
  return output.subarray(0, filled);
}

/** The 30 ms frames within {@link voiceEmbeddingLimits}`.speechRangeDb` of the loudest, joined. */
function keepSpeech(samples: Float32Array): Float32Array {
  const frames = Math.floor(samples.length / FRAME_SAMPLES);
  if (frames === 0) return samples.subarray(0, 0);
  const levels = new Float64Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let energy = 0;
    for (let index = frame * FRAME_SAMPLES; index < (frame + 1) * FRAME_SAMPLES; index++) energy += samples[index]! * samples[index]!;
    levels[frame] = 10 * Math.log10(energy / FRAME_SAMPLES + 1e-12);
  }
  const sorted = Float64Array.from(levels).sort();
  const loud = sorted[Math.min(frames - 1, Math.floor(frames * 0.95))]!;
  const floor = loud - voiceEmbeddingLimits.speechRangeDb;
  const kept = new Float32Array(frames * FRAME_SAMPLES);
  let length = 0;
  for (let frame = 0; frame < frames; frame++) {
    if (levels[frame]! < floor) continue;
    kept.set(samples.subarray(frame * FRAME_SAMPLES, (frame + 1) * FRAME_SAMPLES), length);
    length += FRAME_SAMPLES;
  }
  return kept.subarray(0, length);
}

/** Mean of the unit-length embeddings of the speech's pieces, made unit-length again. */
async function embedSpeech(model: SpeakerEncoder, speech: Float32Array): Promise<Float32Array> {
  const { chunkSeconds, minChunkSeconds } = voiceEmbeddingLimits;
  const chunkSamples = chunkSeconds * SAMPLE_RATE;
  let sum: Float64Array | undefined;
  for (let start = 0; start < speech.length; start += chunkSamples) {
    const chunk = speech.subarray(start, start + chunkSamples);
    if (start > 0 && chunk.length < minChunkSeconds * SAMPLE_RATE) break;
    if (chunk.length < FRAME_SAMPLES) continue;
    const vector = await model.embedSpeech(chunk);
    sum ??= new Float64Array(vector.length);
    for (let axis = 0; axis < vector.length; axis++) sum[axis]! += vector[axis]!;
  }
  if (!sum) throw new Error('no speech frames to embed');
  return Float32Array.from(unitLength(sum));
}
