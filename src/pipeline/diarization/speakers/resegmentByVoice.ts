import type { SpeakerRun } from './TurnBuilder.js';
import type { RecordingCepstra } from './RecordingCepstra.js';
import { CEPSTRAL_DIMENSIONS, separationEvidence, soloStretches, VoiceModel, VoiceStatistics } from './voiceStatistics.js';

export interface ResegmentOptions {
  /** Frames (10 ms) scored together as one step of the path: 25 = 0.25 s. */
  blockFrames: number;
  /** Cost of changing speaker inside a stretch, nats: the evidence a change must bring. */
  switchPenalty: number;
  /** Parts shorter than this keep their speaker, seconds. */
  minPartSeconds: number;
  varianceFloor: number;
  marginSeconds: number;
  minStretchSeconds: number;
  /** Weight of the BIC penalty (see separationEvidence): parts move only between voices it tells apart. */
  penaltyWeight: number;
}

/** A stretch of one run's solo speech, with the speaker the run has now. */
interface LabelledStretch {
  run: number;
  speaker: number;
  startSeconds: number;
  endSeconds: number;
}

/** A part of a run to give to another speaker. */
interface Relabel {
  run: number;
  speaker: number;
  startSeconds: number;
  endSeconds: number;
}

/**
 * Voice re-segmentation: inside each stretch of solo speech, the most likely sequence of voices
 * (Viterbi over 0.25 s blocks scored by each speaker's Gaussian; changing speaker costs
 * `switchPenalty`, and the stretch starts as its run's speaker). The segmentation model
 * sometimes gives two similar voices in quick exchange one local label for its first windows,
 * and window linking then carries that label on; once the voices are modelled (from the
 * windows where the model did tell them apart), the mixed stretch is split between them.
 * The same frames also give the voices as the new turns have them (the next round's models).
 * @param voices each judged speaker's voice statistics (at least two, or nothing changes)
 * @returns the runs with the parts whose voice is another speaker's split off to that speaker,
 *   and each speaker's voice statistics over the solo speech it has after the move
 */
export function resegmentByVoice(
  recording: RecordingCepstra,
  runs: readonly SpeakerRun[],
  voices: ReadonlyMap<number, VoiceStatistics>,
  options: ResegmentOptions,
): { runs: SpeakerRun[]; voices: Map<number, VoiceStatistics> } {
  const models = [...voices].flatMap(([speaker, statistics]) => {
    const model = VoiceModel.of(statistics, options.varianceFloor);
    return model ? [{ speaker, model, statistics }] : [];
  });
  if (models.length < 2) return { runs: [...runs], voices: new Map(voices) };
  // Two numbers the join left apart although their voices are alike (they talk over each other:
  // a third person's overlap between them) are one voice to the models: moving speech between
  // them would only follow noise.
  const distinct = models.map((a) => models.map((b) => a === b || separationEvidence(a.statistics, b.statistics, options.penaltyWeight, options.varianceFloor) > 0));
  const stretches: LabelledStretch[] = soloStretches(runs, options.marginSeconds, options.minStretchSeconds)
    .map((stretch) => ({ ...stretch, speaker: runs[stretch.run]!.speaker }));
  const relabels: Relabel[] = [];
  const after = new Map<number, VoiceStatistics>();
  const credit = (speaker: number, features: Float32Array, fromFrame: number, toFrame: number) => {
    let voice = after.get(speaker);
    if (!voice) after.set(speaker, voice = new VoiceStatistics());
    voice.add(features.subarray(fromFrame * CEPSTRAL_DIMENSIONS, toFrame * CEPSTRAL_DIMENSIONS), toFrame - fromFrame);
  };
  for (const stretch of stretches) {
    const { features, frames } = recording.within(stretch.startSeconds, stretch.endSeconds);
    if (frames === 0) continue;
    const initial = models.findIndex((entry) => entry.speaker === stretch.speaker);
    const candidates = initial < 0 ? [] : models.map((_, index) => index).filter((index) => distinct[initial]![index]);
    if (candidates.length < 2) {
      credit(stretch.speaker, features, 0, frames);
      continue;
    }
    const path = viterbi(features, frames, candidates.map((index) => models[index]!.model), candidates.indexOf(initial), options).map((state) => candidates[state]!);
    const blockSeconds = options.blockFrames / 100;
    for (let start = 0; start < path.length;) {
      let end = start;
      while (end < path.length && path[end] === path[start]) end++;
      const speaker = models[path[start]!]!.speaker;
      const moves = speaker !== stretch.speaker && (end - start) * blockSeconds >= options.minPartSeconds;
      credit(moves ? speaker : stretch.speaker, features, start * options.blockFrames, Math.min(frames, end * options.blockFrames));
      if (moves) {
        relabels.push({
          run: stretch.run, speaker,
          startSeconds: start === 0 ? stretch.startSeconds - options.marginSeconds : stretch.startSeconds + start * blockSeconds,
          endSeconds: end === path.length ? stretch.endSeconds + options.marginSeconds : stretch.startSeconds + end * blockSeconds,
        });
      }
      start = end;
    }
  }
  return { runs: applyRelabels(runs, relabels), voices: after };
}

/**
 * The most likely speaker of each block.
 * @returns shape: (blocks), index into `models`
 */
function viterbi(features: Float32Array, frames: number, models: readonly VoiceModel[], initial: number, options: ResegmentOptions): number[] {
  const blocks = Math.ceil(frames / options.blockFrames);
  const states = models.length;
  // shape: (blocks, states): summed frame log-likelihoods
  const scores = new Float64Array(blocks * states);
  for (let frame = 0; frame < frames; frame++) {
    const block = Math.floor(frame / options.blockFrames);
    for (let state = 0; state < states; state++) scores[block * states + state]! += models[state]!.logLikelihood(features, frame);
  }
  const best = new Float64Array(states).map((_, state) => scores[state]! - (state === initial ? 0 : options.switchPenalty));
  const from = new Int32Array(blocks * states);
  for (let block = 1; block < blocks; block++) {
    const previous = Float64Array.from(best);
    for (let state = 0; state < states; state++) {
      let arg = state;
      let value = previous[state]!;
      for (let other = 0; other < states; other++) {
        if (other !== state && previous[other]! - options.switchPenalty > value) {
          value = previous[other]! - options.switchPenalty;
          arg = other;
        }
      }
      best[state] = value + scores[block * states + state]!;
      from[block * states + state] = arg;
    }
  }
  const path = new Array<number>(blocks);
  let state = 0;
  for (let candidate = 1; candidate < states; candidate++) if (best[candidate]! > best[state]!) state = candidate;
  for (let block = blocks - 1; block >= 0; block--) {
    path[block] = state;
    state = from[block * states + state]!;
  }
  return path;
}

/** Splits each run around its relabelled parts. */
function applyRelabels(runs: readonly SpeakerRun[], relabels: readonly Relabel[]): SpeakerRun[] {
  const byRun = new Map<number, Relabel[]>();
  for (const relabel of relabels) byRun.set(relabel.run, [...(byRun.get(relabel.run) ?? []), relabel]);
  return runs.flatMap((run, index) => {
    const parts = (byRun.get(index) ?? []).sort((a, b) => a.startSeconds - b.startSeconds);
    if (parts.length === 0) return [run];
    const pieces: SpeakerRun[] = [];
    let cursor = run.startSeconds;
    for (const part of parts) {
      const start = Math.max(cursor, part.startSeconds);
      const end = Math.min(run.endSeconds, part.endSeconds);
      if (end <= start) continue;
      if (start > cursor) pieces.push({ speaker: run.speaker, startSeconds: cursor, endSeconds: start });
      pieces.push({ speaker: part.speaker, startSeconds: start, endSeconds: end });
      cursor = end;
    }
    if (cursor < run.endSeconds) pieces.push({ speaker: run.speaker, startSeconds: cursor, endSeconds: run.endSeconds });
    return pieces;
  });
}
