import { describe, expect, it } from 'vitest';
import type { SpeakerEncoder } from '../../../../src/pipeline/diarization/models/SpeakerEncoder.js';
import { clusterRunsByEmbeddings, foldSplinters, speechPieces } from '../../../../src/pipeline/diarization/speakers/clusterRunsByEmbeddings.js';
import type { SpeakerRun } from '../../../../src/pipeline/diarization/speakers/TurnBuilder.js';

const SAMPLE_RATE = 16_000;

/**
 * A stand-in encoder that hears pitch: the share of zero crossings says which of three tones a
 * stretch holds, as a unit vector (low tone → (1, 0), high tone → (0, 1), the mid tone 0.6 from
 * the low one: alike, but past the overrule of a told-apart pair). Records what it embeds.
 */
function pitchEncoder(): SpeakerEncoder & { embedded: number[] } {
  const embedded: number[] = [];
  const embed = (samples: Float32Array) => {
    embedded.push(samples.length / SAMPLE_RATE);
    let crossings = 0;
    for (let index = 1; index < samples.length; index++) if ((samples[index - 1]! < 0) !== (samples[index]! < 0)) crossings++;
    const rate = crossings / samples.length;
    if (rate > 0.04) return Float32Array.from([0, 1]);
    return rate > 0.02 ? Float32Array.from([Math.cos(0.61), Math.sin(0.61)]) : Float32Array.from([1, 0]);
  };
  return {
    kind: 'ge2e',
    fileName: 'pitch.onnx',
    embedded,
    embedSpeech: async (samples) => embed(samples),
    embedSpeeches: async (stretches) => stretches.map(embed),
    dispose: async () => undefined,
  };
}

/** Tones laid out as `[startSeconds, endSeconds, pitch]`, silence elsewhere, in 1 s blocks. */
async function* toneBlocks(seconds: number, tones: readonly (readonly [number, number, 'low' | 'mid' | 'high'])[]): AsyncGenerator<{ startSample: number; samples: Float32Array }> {
  const all = new Float32Array(seconds * SAMPLE_RATE);
  for (const [start, end, pitch] of tones) {
    const hz = { low: 120, mid: 250, high: 400 }[pitch];
    for (let index = Math.round(start * SAMPLE_RATE); index < end * SAMPLE_RATE; index++) all[index] = 0.3 * Math.sin((2 * Math.PI * hz * index) / SAMPLE_RATE);
  }
  for (let start = 0; start < all.length; start += SAMPLE_RATE) yield { startSample: start, samples: all.slice(start, start + SAMPLE_RATE) };
}

const options = { threshold: 0.5, minSpeakerSeconds: 0.5 };
const speakersOf = (runs: readonly SpeakerRun[]) => runs.map((run) => [run.speaker, run.startSeconds, run.endSeconds]);
/** `speakersOf` with the times rounded to the microsecond (pieces are cut by division). */
const rounded = (result: { runs: SpeakerRun[] }) => speakersOf(result.runs).map(([speaker, start, end]) => [speaker, +start!.toFixed(6), +end!.toFixed(6)]);

describe('clusterRunsByEmbeddings (GE2E path: provisional speakers\' solo speech embedded once, clustered)', () => {
  it('joins one voice the window linking split in two, keeps another apart, and embeds each stretch once', async () => {
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 4 },
      { speaker: 1, startSeconds: 4.5, endSeconds: 8 },
      // The first voice again after a long pause, under a new provisional number.
      { speaker: 2, startSeconds: 20, endSeconds: 23 },
    ];
    const encoder = pitchEncoder();
    const result = await clusterRunsByEmbeddings(encoder, toneBlocks(25, [[0, 4, 'low'], [4.5, 8, 'high'], [20, 23, 'low']]), runs, options);
    expect(speakersOf(result.runs)).toEqual([[0, 0, 4], [1, 4.5, 8], [0, 20, 23]]);
    // 3.9 s → two pieces, 3.4 s → two, 2.9 s → one: every second of solo speech embedded once.
    expect(encoder.embedded.map((seconds) => Math.round(seconds * 100) / 100)).toEqual([1.95, 1.95, 1.7, 1.7, 2.9]);
  });

  it('splits a run in which two voices were fused, between the pieces that differ', async () => {
    const runs: SpeakerRun[] = [{ speaker: 0, startSeconds: 0, endSeconds: 12 }];
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(14, [[0, 6, 'low'], [6, 12, 'high']]), runs, options);
    expect(speakersOf(result.runs).map(([speaker, start, end]) => [speaker, +start!.toFixed(6), +end!.toFixed(6)])).toEqual([[0, 0, 6], [1, 6, 12]]);
  });

  it('places the change of voice in a fused run in the longest silence between the middles of the two pieces, not at their edge', async () => {
    // One provisional speaker over two voices with pauses (the segmentation model carried the
    // first voice on over them): pieces of 2.475 s from 0.05, the second (2.525–5.0) mostly low.
    const runs: SpeakerRun[] = [{ speaker: 0, startSeconds: 0, endSeconds: 10 }];
    const tones = [[0, 3, 'low'], [3.7, 4.2, 'low'], [4.6, 10, 'high']] as const;
    const silences = [
      { startSeconds: 3.0, endSeconds: 3.7, noSignal: true }, // the longest, but it starts before the second piece's middle (3.76)
      { startSeconds: 4.2, endSeconds: 4.6, noSignal: true },
    ];
    expect(rounded(await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(11, tones), runs, { ...options, silences }))).toEqual([[0, 0, 4.4], [1, 4.4, 10]]);
    // Without the silence gate's stretches: at the pieces' edge.
    expect(rounded(await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(11, tones), runs, options))).toEqual([[0, 0, 5], [1, 5, 10]]);
  });

  it('gives a fused voice of under 3 s back to the provisional speaker\'s main one (a splinter, see foldSplinters)', async () => {
    const runs: SpeakerRun[] = [{ speaker: 0, startSeconds: 0, endSeconds: 6 }];
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(8, [[0, 3, 'low'], [3, 6, 'high']]), runs, options);
    expect(speakersOf(result.runs)).toEqual([[0, 0, 6]]);
  });

  it('folds a cluster the splinter fold left with less than a speaker needs into the most alike voice, told apart or not', async () => {
    // Provisional speaker 0: a low voice, then a mid-tone word (0.7 s embedded). Provisional
    // speaker 1: a high voice, later a low stretch (told apart from the word within 10 s) and a
    // mid-tone stretch of 1.3 s. The two mid pieces cluster (2 s); as nobody's main voice they
    // are a splinter: speaker 1's goes back to high, speaker 0's word cannot join low (it holds
    // a piece told apart from it) and is left alone, 0.7 s.
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 4 },
      { speaker: 0, startSeconds: 4.5, endSeconds: 5.3 },
      { speaker: 1, startSeconds: 5.8, endSeconds: 9.8 },
      { speaker: 1, startSeconds: 12.5, endSeconds: 14.5 },
      { speaker: 1, startSeconds: 20, endSeconds: 21.4 },
    ];
    const tones = [[0, 4, 'low'], [4.5, 5.3, 'mid'], [5.8, 9.8, 'high'], [12.5, 14.5, 'low'], [20, 21.4, 'mid']] as const;
    // A speaker needs 1.5 s: the word joins the low voice (0.6 from it; high is 1.1 away).
    expect(rounded(await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(23, tones), runs, { ...options, minSpeakerSeconds: 1.5 })))
      .toEqual([[0, 0, 4], [0, 4.5, 5.3], [1, 5.8, 9.8], [0, 12.5, 14.5], [1, 20, 21.4]]);
    // 0.5 s is enough for a speaker: the word stays a third one.
    const speakers = (await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(23, tones), runs, options)).runs.map((run) => run.speaker);
    expect(new Set(speakers).size).toBe(3);
    expect(speakers.filter((speaker) => speaker === speakers[1])).toHaveLength(1);
  });

  it('never joins two provisional speakers the segmentation told apart within one window, even when they sound alike', async () => {
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 4 },
      { speaker: 1, startSeconds: 4.5, endSeconds: 8.5 },
    ];
    // Low and mid tones are 0.6 apart: one voice by the threshold of 0.7, were they not told apart.
    const alike = { ...options, threshold: 0.7 };
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(10, [[0, 4, 'low'], [4.5, 8.5, 'mid']]), runs, alike);
    expect(new Set(result.runs.map((run) => run.speaker)).size).toBe(2);
    const untold = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(10, [[0, 4, 'low'], [4.5, 8.5, 'mid']]), runs.map((run) => ({ ...run, speaker: 0 })), alike);
    expect(new Set(untold.runs.map((run) => run.speaker)).size).toBe(1);
  });

  it('…unless one of them is a fragment of under 3 s with nearly the same voice (the segmentation split one person)', async () => {
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 4 },
      { speaker: 1, startSeconds: 4.5, endSeconds: 6.5 },
    ];
    const alike = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(8, [[0, 4, 'low'], [4.5, 6.5, 'low']]), runs, options);
    expect(new Set(alike.runs.map((run) => run.speaker)).size).toBe(1);
    const different = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(8, [[0, 4, 'low'], [4.5, 6.5, 'high']]), runs, options);
    expect(new Set(different.runs.map((run) => run.speaker)).size).toBe(2);
  });

  it('dissolves a cluster made only of pieces under 1 s into the nearest voice with longer speech (short words sound alike to the encoder)', async () => {
    // Provisional speaker 0 says 4 s in the low voice, then five words of 0.8 s (pieces of 0.7 s,
    // 3.5 s in all: no splinter) that the encoder hears as the mid voice, 0.6 from the low one.
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 4 },
      { speaker: 1, startSeconds: 4.5, endSeconds: 8 },
      ...[8.5, 13.5, 14.8, 16.1, 17.4].map((start) => ({ speaker: 0, startSeconds: start, endSeconds: start + 0.8 })),
      { speaker: 1, startSeconds: 9.8, endSeconds: 13 },
    ].sort((a, b) => a.startSeconds - b.startSeconds);
    const tones = [[0, 4, 'low'], [4.5, 8, 'high'], [9.8, 13, 'high'], ...[8.5, 13.5, 14.8, 16.1, 17.4].map((start) => [start, start + 0.8, 'mid'] as const)] as const;
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(20, tones), runs, options);
    // The words join the low voice, their own provisional speaker's: the high one was told apart from them.
    expect(result.runs.map((run) => run.speaker)).toEqual([0, 1, 0, 1, 0, 0, 0, 0]);
  });

  it('…but keeps them a speaker when every voice with longer speech was told apart from them', async () => {
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 4 },
      { speaker: 2, startSeconds: 4.5, endSeconds: 5.3 },
      { speaker: 1, startSeconds: 5.8, endSeconds: 9 },
      { speaker: 2, startSeconds: 9.5, endSeconds: 10.3 },
      { speaker: 0, startSeconds: 10.8, endSeconds: 14 },
    ];
    const tones = [[0, 4, 'low'], [4.5, 5.3, 'mid'], [5.8, 9, 'high'], [9.5, 10.3, 'mid'], [10.8, 14, 'low']] as const;
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(16, tones), runs, options);
    expect(result.runs.map((run) => run.speaker)).toEqual([0, 1, 2, 1, 0]);
  });

  it('gives a run with no solo speech of its own the cluster of most of its provisional speaker\'s pieces', async () => {
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 3 },
      { speaker: 1, startSeconds: 12, endSeconds: 15 },
      // Too short to embed (0.3 s): speaker 1 again.
      { speaker: 1, startSeconds: 16, endSeconds: 16.3 },
    ];
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(18, [[0, 3, 'low'], [12, 15, 'high'], [16, 16.3, 'high']]), runs, options);
    expect(speakersOf(result.runs)).toEqual([[0, 0, 3], [1, 12, 15], [1, 16, 16.3]]);
  });

  it('makes a speaker of a provisional speaker\'s overlapped runs when its main voice is the one talking over them', async () => {
    // Provisional speaker 1 is heard only over speaker 0 (3–5 s) and, by a linking error, in a
    // stretch of speaker 0's voice (12–15 s): its main cluster is speaker 0's, who talks at 3–5 s.
    const overlapped = (end: number): SpeakerRun[] => [
      { speaker: 0, startSeconds: 0, endSeconds: 10 },
      { speaker: 1, startSeconds: 3, endSeconds: end },
      { speaker: 1, startSeconds: 12, endSeconds: 15 },
    ];
    const tones = [[0, 10, 'low'], [12, 15, 'low']] as const;
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(16, tones), overlapped(5), options);
    expect(speakersOf(result.runs)).toEqual([[0, 0, 10], [1, 3, 5], [0, 12, 15]]);
    // Under minSpeakerSeconds (0.5 s here) of such speech: no new speaker, the main cluster stays.
    const short = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(16, tones), overlapped(3.3), options);
    expect(speakersOf(short.runs)).toEqual([[0, 0, 10], [0, 3, 3.3], [0, 12, 15]]);
    // Never past the most speakers the caller gave.
    const capped = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(16, tones), overlapped(5), { ...options, maxSpeakers: 1 });
    expect(speakersOf(capped.runs)).toEqual([[0, 0, 10], [0, 3, 5], [0, 12, 15]]);
  });

  it('gives such an overlapped run to another speaker of the call when its embedding is near that voice', async () => {
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 10 },
      { speaker: 1, startSeconds: 3, endSeconds: 5 },
      { speaker: 1, startSeconds: 12, endSeconds: 15 },
      { speaker: 2, startSeconds: 20, endSeconds: 24 },
    ];
    // What the encoder hears at 3–5 s is the high voice, speaker 2's.
    const tones = [[0, 3, 'low'], [3, 5, 'high'], [5, 10, 'low'], [12, 15, 'low'], [20, 24, 'high']] as const;
    const encoder = pitchEncoder();
    const result = await clusterRunsByEmbeddings(encoder, toneBlocks(25, tones), runs, options);
    expect(speakersOf(result.runs)).toEqual([[0, 0, 10], [1, 3, 5], [0, 12, 15], [1, 20, 24]]);
    // The overlapped run was embedded too (its middle, 1.9 s), besides the solo pieces.
    expect(encoder.embedded.map((seconds) => Math.round(seconds * 100) / 100)).toContain(1.9);
  });

  it('leaves the runs as they are when nothing is long enough to embed', async () => {
    const runs: SpeakerRun[] = [{ speaker: 0, startSeconds: 0, endSeconds: 0.3 }];
    const result = await clusterRunsByEmbeddings(pitchEncoder(), toneBlocks(1, [[0, 0.3, 'low']]), runs, options);
    expect(result).toEqual({ runs, pieces: [] });
  });

  it('speechPieces: solo stretches only (overlap left out), trimmed by 0.05 s, cut into equal pieces of at most 3 s', () => {
    // Speaker 0 alone for 0–6 s (5.9 s after trimming: two pieces), speaker 1 alone for 7–8 s.
    const pieces = speechPieces([
      { speaker: 0, startSeconds: 0, endSeconds: 7 },
      { speaker: 1, startSeconds: 6, endSeconds: 8 },
    ]);
    expect(pieces.map((piece) => [piece.run, +piece.startSeconds.toFixed(3), +piece.endSeconds.toFixed(3)])).toEqual([
      [0, 0.05, 3], [0, 3, 5.95],
      [1, 7.05, 7.95],
    ]);
  });

  describe('foldSplinters', () => {
    // Provisional speaker 0 talks 0–12 s, speaker 1 12–20 s; pieces of 2 s each.
    const runs: SpeakerRun[] = [
      { speaker: 0, startSeconds: 0, endSeconds: 12 },
      { speaker: 1, startSeconds: 12, endSeconds: 20 },
    ];
    const pieces = Array.from({ length: 10 }, (_, index) => ({ run: index < 6 ? 0 : 1, startSeconds: 2 * index, endSeconds: 2 * index + 2 }));

    it('gives a short cluster made only of pieces of voices whose main cluster is elsewhere back to those clusters', () => {
      // Speaker 0's pieces scattered: 8 s in cluster 0, then 2 s in cluster 2 and 2 s in cluster 3.
      const labels = [0, 0, 2, 0, 3, 0, 1, 1, 1, 1];
      expect(foldSplinters(runs, pieces, labels, 3)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
    });

    it('keeps a short cluster that is some provisional speaker\'s main voice, and a long one that is nobody\'s', () => {
      // Speaker 2 says 2 s on their own: their cluster (2) is short but theirs.
      const withThird: SpeakerRun[] = [...runs, { speaker: 2, startSeconds: 20, endSeconds: 22 }];
      const withThirdPieces = [...pieces, { run: 2, startSeconds: 20, endSeconds: 22 }];
      expect(foldSplinters(withThird, withThirdPieces, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2], 3)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2]);
      // 4 s of speaker 0 in cluster 2: past 3 s, a voice of its own (two voices fused by the segmentation).
      expect(foldSplinters(runs, pieces, [0, 0, 0, 0, 2, 2, 1, 1, 1, 1], 3)).toEqual([0, 0, 0, 0, 2, 2, 1, 1, 1, 1]);
    });

    it('never folds a piece into a cluster holding a piece the segmentation told apart from it', () => {
      // Piece 2 (speaker 0) may not join piece 6 (speaker 1), which cluster 0 holds: it stays; piece 4 goes back.
      const labels = [0, 0, 2, 0, 2, 0, 0, 1, 1, 1];
      const toldApart = (first: number, second: number) => (first === 2 && second === 6) || (first === 6 && second === 2);
      expect(foldSplinters(runs, pieces, labels, 5, 1, toldApart)).toEqual([0, 0, 2, 0, 0, 0, 0, 1, 1, 1]);
    });

    it('folds no further than the least number of speakers, shortest splinters first', () => {
      // Cluster 3 holds 1 s of speaker 1, cluster 2 holds 2 s of speaker 0: one fold leaves 3.
      const shorterLast = pieces.map((piece, index) => (index === 9 ? { ...piece, endSeconds: 19 } : piece));
      expect(foldSplinters(runs, shorterLast, [0, 0, 2, 0, 0, 0, 1, 1, 1, 3], 3, 3)).toEqual([0, 0, 2, 0, 0, 0, 1, 1, 1, 1]);
    });
  });
});
