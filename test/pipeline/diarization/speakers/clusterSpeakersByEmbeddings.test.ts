import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindowSegmentation } from '../../../../src/pipeline/diarization/inference/segmentWindows.js';
import { EmbeddingModel } from '../../../../src/pipeline/diarization/models/EmbeddingModel.js';
import { frameTiming, segmentationGeometry } from '../../../../src/pipeline/diarization/models/SegmentationModel.js';
import { clusterSpeakersByEmbeddings } from '../../../../src/pipeline/diarization/speakers/clusterSpeakersByEmbeddings.js';
import { linkSpeakersAcrossWindows } from '../../../../src/pipeline/diarization/speakers/linkSpeakersAcrossWindows.js';
import { writeToyEmbeddingModel } from '../toyEmbeddingModel.js';

// The embedding path with a small ONNX graph built here (mean fbank → two bands) and synthetic
// segmentation output: "voices" are tones, 400 Hz (low band) and 3 kHz (high band).

const { sampleRate, windowSamples, framesPerWindow, frameStepSamples } = segmentationGeometry;
const options = { clusteringThreshold: 0.7045, minEmbeddingSeconds: 0.5, maxGapSeconds: 0.25, minTurnSeconds: 0.25 };

let folder: string;
let model: EmbeddingModel;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'embedding-clustering-'));
  model = await EmbeddingModel.create(await writeToyEmbeddingModel(join(folder, 'toy-embedding.onnx')));
});
afterAll(async () => {
  await model.dispose();
  await rm(folder, { recursive: true, force: true });
});

interface Turn { voice: number; start: number; end: number }
const voiceHz = [400, 3000, 1000];

/**
 * Windows every 2.5 s over a signal of tones at the turns' times, with each window numbering
 * the voices its own way (voice v is local speaker `(v + window) % 3`), as the segmentation
 * model does.
 */
function windows(turns: Turn[], seconds: number): WindowSegmentation[] {
  const signal = new Float32Array(seconds * sampleRate);
  for (const { voice, start, end } of turns) {
    for (let index = start * sampleRate; index < end * sampleRate; index++) signal[index] = 0.3 * Math.sin((2 * Math.PI * voiceHz[voice]! * index) / sampleRate);
  }
  const result: WindowSegmentation[] = [];
  for (let index = 0, startSample = 0; startSample + windowSamples <= signal.length; index++, startSample += 2.5 * sampleRate) {
    const activity = new Uint8Array(framesPerWindow);
    for (let frame = 0; frame < framesPerWindow; frame++) {
      const time = (startSample + frame * frameStepSamples) / sampleRate + frameTiming.offsetSeconds;
      for (const { voice, start, end } of turns) if (time >= start && time < end) activity[frame]! |= 1 << ((voice + index) % 3);
    }
    result.push({ index, startSample, activity, samples: signal.slice(startSample, startSample + windowSamples), validSamples: windowSamples });
  }
  return result;
}

async function* stream<T>(items: T[]) { yield* items; }
const speakersOf = (runs: { speaker: number }[]) => runs.map((run) => run.speaker);

describe('clusterSpeakersByEmbeddings (embedding ONNX graph built in the test)', () => {
  // Voice 0 is silent for 10 s, longer than the windows overlap: only embeddings can tell it is back.
  const turns = [{ voice: 0, start: 0, end: 3 }, { voice: 1, start: 3.5, end: 13.5 }, { voice: 0, start: 14, end: 20 }];

  it('recognises a voice that returns after a long silence, where window linking cannot', async () => {
    const total = 20 * sampleRate;
    const clustered = await clusterSpeakersByEmbeddings(model, stream(windows(turns, 20)), total, options);
    expect(speakersOf(clustered)).toEqual([0, 1, 0]);
    expect(clustered[1]!.startSeconds).toBeCloseTo(3.5, 1);
    expect(clustered[1]!.endSeconds).toBeCloseTo(13.5, 1);

    const linked = await linkSpeakersAcrossWindows(stream(windows(turns, 20)), total, { minLinkAgreement: 0.3, minNewSpeakerSeconds: 0.5, maxGapSeconds: 0.25, minTurnSeconds: 0.25 });
    expect(speakersOf(linked)).toEqual([0, 1, 2]);
  });

  it('follows a known speaker count over the threshold', async () => {
    const three = [{ voice: 0, start: 0, end: 5 }, { voice: 1, start: 5.5, end: 10 }, { voice: 2, start: 10.5, end: 15 }, { voice: 0, start: 15.5, end: 20 }];
    const free = await clusterSpeakersByEmbeddings(model, stream(windows(three, 20)), 20 * sampleRate, options);
    expect(new Set(speakersOf(free)).size).toBe(3);
    const two = await clusterSpeakersByEmbeddings(model, stream(windows(three, 20)), 20 * sampleRate, { ...options, speakerCount: 2 });
    expect(new Set(speakersOf(two)).size).toBe(2);
  });
});
