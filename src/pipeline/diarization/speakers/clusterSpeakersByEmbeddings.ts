import { isActive, LOCAL_SPEAKERS } from '../inference/decodePowerset.js';
import { FrameAggregator, type PlacedWindow } from '../inference/FrameAggregator.js';
import type { WindowSegmentation } from '../inference/segmentWindows.js';
import { maximizeAssignment } from '../maximizeAssignment.js';
import { computeFbank, subtractMean } from '../models/computeFbank.js';
import type { EmbeddingModel } from '../models/EmbeddingModel.js';
import { frameTiming, recordingFrameCount, segmentationGeometry, windowStartFrame } from '../models/SegmentationModel.js';
import { clusterEmbeddings, cosine } from './clusterEmbeddings.js';
import { TurnBuilder, type SpeakerRun } from './TurnBuilder.js';

export interface EmbeddingClusteringOptions {
  clusteringThreshold: number;
  minEmbeddingSeconds: number;
  speakerCount?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
  maxGapSeconds: number;
  minTurnSeconds: number;
}

/**
 * pyannote's share of a window a local speaker must hold alone (no overlap) for its embedding
 * to train the clustering (2 s of a 10 s window); other embeddings are only assigned.
 */
const MIN_TRAINING_CLEAN_RATIO = 0.2;

/** The embedding of one (window, local speaker). */
interface LocalEmbedding {
  window: number;
  local: number;
  vector: Float32Array;
  trainsClustering: boolean;
}

/**
 * The embedding path, as pyannote's speaker-diarization pipeline: an embedding per (window,
 * active local speaker) from the fbank frames where that speaker talks alone (all its frames
 * when it never does long enough), agglomerative clustering of the clean ones, then each
 * window's local speakers assigned one-to-one to clusters (Hungarian on cosine similarity, so
 * two local speakers of a window never share a cluster), and the windows aggregated.
 * Holds each window's activity (589 bytes) and embeddings until the clustering, then replays
 * them: memory grows with the call by ~1 KB per window plus its embeddings, never frames².
 * `totalSamples` (the recording's length) is needed only once the windows are all read, as in
 * linkSpeakersAcrossWindows.
 */
export async function clusterSpeakersByEmbeddings(
  model: EmbeddingModel,
  windows: AsyncIterable<WindowSegmentation>,
  totalSamples: number | PromiseLike<number>,
  options: EmbeddingClusteringOptions,
  onEmbeddingsDone?: (embeddings: number) => void,
): Promise<SpeakerRun[]> {
  const { framesPerWindow, windowSamples } = segmentationGeometry;
  const placed: PlacedWindow[] = [];
  const embeddings: LocalEmbedding[] = [];
  const minFrames = Math.max(1, Math.round(options.minEmbeddingSeconds / frameTiming.frameSeconds));

  for await (const window of windows) {
    placed.push({ startFrame: windowStartFrame(window.startSample), activity: window.activity });
    let fbank: { frames: number; features: Float32Array; segmentationFrameOf: Int32Array } | undefined;
    for (let local = 0; local < LOCAL_SPEAKERS; local++) {
      const { mask, cleanFrames } = embeddingMask(window.activity, local, minFrames);
      if (!mask) continue;
      fbank ??= windowFbank(window.samples.subarray(0, window.validSamples), model.melBins);
      const selected = selectFrames(fbank, mask, model.melBins);
      if (selected.frames === 0) continue;
      embeddings.push({
        window: window.index,
        local,
        vector: await model.embed(selected.features, selected.frames),
        trainsClustering: cleanFrames >= MIN_TRAINING_CLEAN_RATIO * framesPerWindow,
      });
    }
  }
  onEmbeddingsDone?.(embeddings.length);

  const training = embeddings.some((embedding) => embedding.trainsClustering) ? embeddings.filter((embedding) => embedding.trainsClustering) : embeddings;
  const { centroids } = clusterEmbeddings(training.map((embedding) => embedding.vector), {
    threshold: options.clusteringThreshold,
    speakerCount: options.speakerCount,
    minSpeakers: options.minSpeakers,
    maxSpeakers: options.maxSpeakers,
  });

  // shape: (windows, LOCAL_SPEAKERS); -1 = no embedding, left unmapped
  const speakerOfLocal = placed.map(() => new Array<number>(LOCAL_SPEAKERS).fill(-1));
  for (let start = 0; start < embeddings.length; ) {
    let end = start;
    while (end < embeddings.length && embeddings[end]!.window === embeddings[start]!.window) end++;
    const ofWindow = embeddings.slice(start, end);
    const paired = maximizeAssignment(ofWindow.map((embedding) => centroids.map((centroid) => cosine(embedding.vector, centroid))));
    ofWindow.forEach((embedding, index) => { speakerOfLocal[embedding.window]![embedding.local] = paired[index]!; });
    start = end;
  }

  const turns = new TurnBuilder({ ...frameTiming, maxGapSeconds: options.maxGapSeconds, minTurnSeconds: options.minTurnSeconds });
  const aggregator = new FrameAggregator(framesPerWindow, (frame, speakers) => turns.add(frame, speakers));
  placed.forEach((window, index) => aggregator.add(window, speakerOfLocal[index]!));
  aggregator.finish(recordingFrameCount(await totalSamples));
  return turns.finish();
}

/**
 * The segmentation frames to embed for a local speaker: those where it talks alone when there
 * are enough of them (pyannote's `exclude_overlap`), else all its frames; none when it talks
 * less than `minFrames` frames.
 */
function embeddingMask(activity: Uint8Array, local: number, minFrames: number): { mask?: Uint8Array; cleanFrames: number } {
  const clean = activity.map((frameMask) => (frameMask === 1 << local ? 1 : 0));
  const cleanFrames = clean.reduce((sum, value) => sum + value, 0);
  if (cleanFrames >= minFrames) return { mask: clean, cleanFrames };
  const active = activity.map((frameMask) => (isActive(frameMask, local) ? 1 : 0));
  const activeFrames = active.reduce((sum, value) => sum + value, 0);
  return { mask: activeFrames >= minFrames ? active : undefined, cleanFrames };
}

/**
 * Fbank of one window, mean-normalised over the whole window as pyannote's WeSpeaker wrapper
 * does, with the segmentation frame nearest each fbank frame's centre.
 */
function windowFbank(samples: Float32Array, melBins: number): { frames: number; features: Float32Array; segmentationFrameOf: Int32Array } {
  const { frameStepSamples, frameSpanSamples, framesPerWindow } = segmentationGeometry;
  // Kaldi features expect the 16-bit integer scale.
  const { frames, features } = computeFbank(samples.map((sample) => sample * 32768), { melBins });
  subtractMean(features, melBins);
  // Fbank frame j spans samples [160 j, 160 j + 400).
  const segmentationFrameOf = Int32Array.from({ length: frames }, (_, frame) =>
    Math.min(framesPerWindow - 1, Math.max(0, Math.round((frame * 160 + 200 - frameSpanSamples / 2) / frameStepSamples))));
  return { frames, features, segmentationFrameOf };
}

function selectFrames(fbank: { frames: number; features: Float32Array; segmentationFrameOf: Int32Array }, mask: Uint8Array, melBins: number): { frames: number; features: Float32Array } {
  const chosen: number[] = [];
  for (let frame = 0; frame < fbank.frames; frame++) if (mask[fbank.segmentationFrameOf[frame]!]) chosen.push(frame);
  const features = new Float32Array(chosen.length * melBins);
  chosen.forEach((frame, index) => features.set(fbank.features.subarray(frame * melBins, (frame + 1) * melBins), index * melBins));
  return { frames: chosen.length, features };
}
