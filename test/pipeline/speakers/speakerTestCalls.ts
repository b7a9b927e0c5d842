import type { AlignedWord } from '../../../src/pipeline/alignment/alignWordsToSpeakers.js';
import { buildTranscript } from '../../../src/pipeline/normalization/buildTranscript.js';
import type { Transcript } from '../../../src/domain/transcripts/transcriptSchema.js';

/** One turn of a test call: raw speaker id, text, and optionally its start in seconds. */
export type Turn = [speaker: string, text: string, startSeconds?: number];

/**
 * A transcript built the way the pipeline builds it, from turns laid out one after another
 * (0.3 s per word, 3 s apart so every turn is its own segment). `diarizedByChannel` gives it the
 * provenance of a stereo file diarized per channel (left `SPEAKER_00`, right `SPEAKER_01`).
 */
export function callOf(turns: readonly Turn[], { diarizedByChannel = false }: { diarizedByChannel?: boolean } = {}): Transcript {
  const words: AlignedWord[] = [];
  let time = 0;
  for (const [speaker, text, startSeconds] of turns) {
    time = startSeconds ?? time;
    for (const part of text.split(' ')) {
      words.push({ text: part, speaker, startSeconds: time, endSeconds: time + 0.3, probability: 0.9, confidence: 'HIGH' });
      time += 0.3;
    }
    time += 3;
  }
  return buildTranscript({
    callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b',
    createdAt: Date.UTC(2026, 10, 22, 10, 0, 0),
    durationSeconds: time,
    words,
    diarization: {
      ...(diarizedByChannel ? { provider: 'callscope', model: 'stereo-channels' } : { provider: 'onnxruntime', model: 'segmentation.onnx' }),
      speakerCount: new Set(turns.map(([speaker]) => speaker)).size,
    },
    transcription: { language: 'en', provider: 'whisper.cpp', model: 'whisper.bin' },
  });
}
