import { segmentationGeometry } from '../models/SegmentationModel.js';
import type { SpeakerEncoder } from '../models/SpeakerEncoder.js';
import { clusterEmbeddings, cosine, foldSmallClusters } from './clusterEmbeddings.js';
import type { SpeakerRun } from './TurnBuilder.js';
import type { SilentStretch } from './silenceGate.js';
import { soloStretches } from './voiceStatistics.js';

export interface RunClusteringOptions {
  /** Clusters merge while the Euclidean distance between their centroids (of unit-length embeddings) is below this. */
  threshold: number;
  /** A cluster with less speech than this is folded into the most similar larger one, seconds. */
  minSpeakerSeconds: number;
  speakerCount?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
  /** The recording's silent stretches (the silence gate's, any order): where a fused run changes voice (see {@link changeOfVoice}). */
  silences?: readonly SilentStretch[];
}

/** A piece of one run's solo speech, `[startSeconds, endSeconds)`, and its embedding. */
export interface EmbeddedPiece {
  run: number;
  startSeconds: number;
  endSeconds: number;
  /** shape: (dimension), unit length */
  vector: Float32Array;
}

/** Trimmed from both ends of a solo stretch before it is embedded: turn edges are uncertain by a frame or two, seconds. */
const PIECE_MARGIN_SECONDS = 0.05;
/** Solo stretches shorter than this (after trimming) are not embedded: too little of a voice to tell it, seconds. */
const MIN_PIECE_SECONDS = 0.4;
/**
 * Longer solo stretches are embedded in equal pieces of at most this length, so a stretch in
 * which the segmentation fused two voices is told apart piece by piece; 3 s holds about three of
 * the GE2E encoder's 1.6 s partials, enough for a steady embedding. Seconds.
 */
const MAX_PIECE_SECONDS = 3;

/**
 * Pieces clustered in one agglomeration, with their cannot-link pairs: about 2 hours of speech
 * (its distance matrix 64 MB). A longer call is first reduced block by block (see clusterEmbeddings.ts).
 */
const MAX_CONSTRAINED_PIECES = 4000;

/**
 * Whether the segmentation model told the two pieces' speakers apart: they are of different
 * provisional speakers that both talk within one segmentation window (10 s), where the model
 * gave them different local speakers. pyannote keeps the same rule by never assigning two local
 * speakers of one window to one cluster.
 */
function toldApart(runs: readonly SpeakerRun[], first: EmbeddedPiece, second: EmbeddedPiece): boolean {
  if (runs[first.run]!.speaker === runs[second.run]!.speaker) return false;
  return Math.max(first.endSeconds, second.endSeconds) - Math.min(first.startSeconds, second.startSeconds) <= segmentationGeometry.windowSamples / segmentationGeometry.sampleRate;
}

/**
 * Call-level speakers from the embeddings of the provisional speakers' speech: every stretch
 * where one provisional speaker talks alone (window linking's runs, see
 * linkSpeakersAcrossWindows.ts) is embedded once, in pieces of at most 3 s; the pieces are
 * clustered (centroid linkage, each weighted by its seconds), never joining two provisional
 * speakers the segmentation model told apart in one window (but for a nearly alike fragment,
 * {@link TOLD_APART_OVERRULED}), and a cluster of short words only is dissolved into the
 * nearest voice ({@link clusterPieces}); short clusters that are nobody's main
 * voice go back to their pieces' provisional speakers ({@link foldSplinters}), and what that leaves
 * under a speaker's least speech joins the most alike voice ({@link foldStranded}); and each run takes its pieces'
 * clusters, split between two pieces of different clusters in the longest silence between
 * them. A run with no piece of its own (overlapped throughout, or too short) takes the cluster
 * that holds most of its provisional speaker's pieces, else that of the nearest piece, unless
 * that voice is the one talking over it (see {@link relabelRuns}).
 *
 * Cost: one encoder pass over the solo speech and the middle of each run that has none (not one
 * per overlapping window); memory: one piece's samples at a time, and the pieces' embeddings
 * (about 1 KB per 3 s of speech).
 * @param blocks the recording's 16 kHz mono samples in order, −1 … 1 (reused buffers are fine)
 */
export async function clusterRunsByEmbeddings(
  encoder: SpeakerEncoder,
  blocks: AsyncIterable<{ startSample: number; samples: Float32Array }>,
  runs: readonly SpeakerRun[],
  options: RunClusteringOptions,
  sampleRate = 16_000,
): Promise<{ runs: SpeakerRun[]; pieces: EmbeddedPiece[] }> {
  const solo = speechPieces(runs);
  const withSolo = new Set(solo.map((piece) => piece.run));
  const overlapped = overlappedPieces(runs, withSolo);
  const embedded = await embedPieces(encoder, blocks, [...solo, ...overlapped].sort((a, b) => a.startSeconds - b.startSeconds), sampleRate);
  const pieces = embedded.filter((piece) => withSolo.has(piece.run));
  const overlappedVectors = new Map(embedded.filter((piece) => !withSolo.has(piece.run)).map((piece) => [piece.run, piece.vector]));
  if (pieces.length === 0) return { runs: [...runs], pieces };
  const labels = clusterPieces(runs, pieces, options);
  const minSpeakers = options.minSpeakers ?? 1;
  const folded = options.speakerCount === undefined
    ? foldStranded(
      pieces,
      foldSplinters(runs, pieces, labels, SPLINTER_SECONDS, minSpeakers, (first, second) => toldApart(runs, pieces[first]!, pieces[second]!)),
      options.minSpeakerSeconds,
      minSpeakers,
    )
    : labels;
  // Speakers heard only over others are added up to the count or the most the caller gave.
  const mostSpeakers = options.speakerCount ?? options.maxSpeakers ?? Number.POSITIVE_INFINITY;
  return { runs: relabelRuns(runs, pieces, folded, overlappedVectors, { minSpeakerSeconds: options.minSpeakerSeconds, mostSpeakers }, options.silences ?? []), pieces };
}

/**
 * A cluster made only of pieces shorter than this is dissolved (see {@link clusterPieces}),
 * seconds: a word or two, on which the GE2E encoder hears the word more than the voice (the
 * telephone sample's two half-second "Hello?"s are 0.85 alike, each 0.47–0.65 from its own
 * speaker's longer speech). 0.8 and 1.2 s gave the same figures (BENCHMARKS.md, "a cluster of
 * short words dissolved").
 */
const SHORT_PIECE_SECONDS = 1;

/**
 * Each piece's cluster: the pieces clustered; then a cluster made only of short pieces
 * ({@link SHORT_PIECE_SECONDS}) is dissolved, each piece joining the cluster whose centroid is
 * nearest among the others that hold a long piece and no piece told apart from it (unless
 * nearly the same voice, as {@link TOLD_APART_OVERRULED}); a piece with no such cluster stays
 * (and joins the most alike voice in {@link foldStranded} should its cluster keep less than a
 * speaker needs).
 * @returns shape: (pieces)
 */
function clusterPieces(runs: readonly SpeakerRun[], pieces: readonly EmbeddedPiece[], options: RunClusteringOptions): number[] {
  const seconds = (piece: EmbeddedPiece) => piece.endSeconds - piece.startSeconds;
  const { labels, centroids } = clusterEmbeddings(pieces.map((piece) => piece.vector), {
    threshold: options.threshold,
    weights: pieces.map(seconds),
    minClusterSize: options.minSpeakerSeconds,
    speakerCount: options.speakerCount,
    minSpeakers: options.minSpeakers,
    maxSpeakers: options.maxSpeakers,
    maxItems: MAX_CONSTRAINED_PIECES,
    cannotLink: (first, second) => toldApart(runs, pieces[first]!, pieces[second]!),
    overruleCannotLink: TOLD_APART_OVERRULED,
  });
  if (options.speakerCount !== undefined) return labels;
  const withLong = new Set(pieces.flatMap((piece, index) => (seconds(piece) >= SHORT_PIECE_SECONDS ? [labels[index]!] : [])));
  if (withLong.size === 0) return labels;
  const result = [...labels];
  const longCentroids = [...withLong].map((cluster) => [cluster, centroids[cluster]!] as const);
  pieces.forEach((piece, index) => {
    if (withLong.has(labels[index]!)) return;
    // As in the clustering: a cluster holding a piece told apart from this one only when nearly the same voice.
    const nearest = nearestCluster(longCentroids, piece.vector, (cluster, similarity) => similarity > cosineWithin(TOLD_APART_OVERRULED.below)
      || !labels.some((label, other) => label === cluster && toldApart(runs, piece, pieces[other]!)));
    if (nearest !== undefined) result[index] = nearest;
  });
  return new Set(result).size >= (options.minSpeakers ?? 1) ? result : labels;
}

/**
 * A cluster with less speech than this that holds no provisional speaker's main voice is a
 * splinter of the voices it took pieces from, seconds (see {@link foldSplinters}). Chosen on
 * 26 tuning-half LibriSpeech conversations: speaker counts exact on 25, against 23 without the
 * fold; 5 s gives the same (BENCHMARKS.md, "splinter clusters folded back").
 */
const SPLINTER_SECONDS = 3;

/**
 * A cluster of under 3 s (the splinter size, {@link SPLINTER_SECONDS}) still joins one the
 * segmentation told apart from it ({@link toldApart}) when their GE2E centroids are nearer than
 * 0.55 (Euclidean, as the clustering threshold): the segmentation model now and then gives one
 * reader two local speakers in a window, and the constraint kept short clusters of that reader
 * (1.5–3.5 s) apart, 0.44–0.57 from their main one. On 66 tuning-half LibriSpeech conversations speaker
 * counts were then exact on 59 instead of 54 (none worse; 0.50: 57, 0.60: 57). Only fragments:
 * the two people of the telephone sample are 0.54 apart (band-limited speech brings GE2E's
 * voices together), and their clusters of 5–9 s would merge (BENCHMARKS.md, "told apart, overruled").
 */
const TOLD_APART_OVERRULED = { below: 0.55, smallerThan: SPLINTER_SECONDS };

/**
 * Clusters of less than `maxSeconds` of speech made only of pieces whose provisional speakers
 * (window linking's) have most of their speech in another cluster go back to those clusters:
 * each piece to its provisional speaker's main cluster. Short pieces of one voice scatter (GE2E
 * cosines of 0.72–0.75 between 2 s pieces of one LibriSpeech reader, above the clustering's
 * distance), and a scatter of 2 s each passes the least a speaker needs; a voice the
 * segmentation model linked on its own keeps its cluster, however short, as its provisional
 * speaker's main one. Never below `minSpeakers` clusters, and never a piece into a cluster that
 * holds a piece `cannotLink` keeps apart from it (the clustering's own constraint): such a piece stays.
 * @param labels shape: (pieces), cluster of each piece
 * @returns shape: (pieces), cluster of each piece, numbered as `labels`
 */
export function foldSplinters(
  runs: readonly SpeakerRun[],
  pieces: readonly Omit<EmbeddedPiece, 'vector'>[],
  labels: readonly number[],
  maxSeconds: number,
  minSpeakers = 1,
  cannotLink: (first: number, second: number) => boolean = () => false,
): number[] {
  const mainCluster = majorityClusters(runs, pieces, labels);
  const secondsOf = new Map<number, number>();
  pieces.forEach((piece, index) => secondsOf.set(labels[index]!, (secondsOf.get(labels[index]!) ?? 0) + piece.endSeconds - piece.startSeconds));
  const mainClusters = new Set(mainCluster.values());
  let clusters = secondsOf.size;
  const splinters = new Set<number>();
  for (const [cluster, seconds] of [...secondsOf].sort((a, b) => a[1] - b[1])) {
    if (clusters <= minSpeakers) break;
    if (seconds >= maxSeconds || mainClusters.has(cluster)) continue;
    splinters.add(cluster);
    clusters -= 1;
  }
  return labels.map((label, index) => {
    if (!splinters.has(label)) return label;
    const target = mainCluster.get(runs[pieces[index]!.run]!.speaker)!;
    return labels.some((other, otherIndex) => other === target && cannotLink(index, otherIndex)) ? label : target;
  });
}

/**
 * After the short words were dissolved and the splinters went back, a cluster left with less than
 * `minSeconds` of speech (pieces neither could place: every other cluster holds a piece told
 * apart from them) joins the cluster of at least `minSeconds` whose centroid is most similar, as
 * the clustering folds its small clusters: a speaker needs `minSpeakerSeconds`, told apart or not
 * (the three real voices of eval:diarization: half a second of speaker 1, told apart within a
 * window from their own second recording, was a fourth speaker). Never below `minSpeakers` clusters.
 * @param labels shape: (pieces), cluster of each piece
 * @returns shape: (pieces), cluster of each piece
 */
function foldStranded(pieces: readonly EmbeddedPiece[], labels: readonly number[], minSeconds: number, minSpeakers: number): number[] {
  const items = pieces.map((piece) => ({ vector: Float64Array.from(piece.vector), weight: piece.endSeconds - piece.startSeconds }));
  const result = foldSmallClusters(items, labels, minSeconds);
  return new Set(result).size >= Math.min(minSpeakers, new Set(labels).size) ? result : [...labels];
}

/** The runs' solo stretches in pieces to embed, sorted by start, never overlapping. */
export function speechPieces(runs: readonly SpeakerRun[]): Omit<EmbeddedPiece, 'vector'>[] {
  return soloStretches(runs, PIECE_MARGIN_SECONDS, MIN_PIECE_SECONDS).flatMap((stretch) => {
    const seconds = stretch.endSeconds - stretch.startSeconds;
    const count = Math.ceil(seconds / MAX_PIECE_SECONDS);
    return Array.from({ length: count }, (_, index) => ({
      run: stretch.run,
      startSeconds: stretch.startSeconds + (seconds * index) / count,
      endSeconds: stretch.startSeconds + (seconds * (index + 1)) / count,
    }));
  });
}

/**
 * An overlapped run's embedding (two voices at once) is taken for the voice of another cluster
 * when it is nearer than this to that cluster's centroid direction (Euclidean between unit
 * vectors). A mix of a known voice with the one talking over it came 0.67–0.74 from the known
 * voice; one of a stranger's voice, 0.84–1.04 from every cluster but the one talking over it
 * (16 tuning-half LibriSpeech calls with one interjection talked over a turn; BENCHMARKS.md,
 * "heard over another").
 */
const OVERLAPPED_VOICE_WITHIN = 0.8;

/**
 * One piece for each run not in `withSolo` (the middle 3 s at most, trimmed as solo pieces are),
 * embedded although others talk over it (a run long enough for a piece that has no solo one is
 * talked over): to tell whose voice it is when its provisional speaker's cluster is the one
 * talking over it (see {@link relabelRuns}). No solo piece can fall inside such a run (someone
 * else talks throughout it), and a piece overlapping one taken before is left out, so the pieces
 * never overlap, as one pass over the audio needs.
 */
function overlappedPieces(runs: readonly SpeakerRun[], withSolo: ReadonlySet<number>): Omit<EmbeddedPiece, 'vector'>[] {
  const result: Omit<EmbeddedPiece, 'vector'>[] = [];
  runs.forEach((run, index) => {
    if (withSolo.has(index)) return;
    const middle = (run.startSeconds + run.endSeconds) / 2;
    const half = Math.min(MAX_PIECE_SECONDS, run.endSeconds - run.startSeconds - 2 * PIECE_MARGIN_SECONDS) / 2;
    if (2 * half < MIN_PIECE_SECONDS) return;
    const piece = { run: index, startSeconds: middle - half, endSeconds: middle + half };
    if (!result.some((other) => other.startSeconds < piece.endSeconds && piece.startSeconds < other.endSeconds)) result.push(piece);
  });
  return result;
}

/**
 * Pieces embedded in one encoder run: 8 pieces of up to 3 s are about 30 of the GE2E encoder's
 * partials, enough work per run for two CPU threads (0.8 MB of samples held).
 */
const PIECES_PER_RUN = 8;

/** Each piece's samples gathered in one pass over the audio, embedded {@link PIECES_PER_RUN} at a time as they are complete. */
async function embedPieces(
  encoder: SpeakerEncoder,
  blocks: AsyncIterable<{ startSample: number; samples: Float32Array }>,
  pieces: readonly Omit<EmbeddedPiece, 'vector'>[],
  sampleRate: number,
): Promise<EmbeddedPiece[]> {
  const embedded: EmbeddedPiece[] = [];
  let complete: Float32Array[] = [];
  const embedComplete = async () => {
    const vectors = await encoder.embedSpeeches(complete);
    for (const vector of vectors) embedded.push({ ...pieces[embedded.length]!, vector });
    complete = [];
  };
  let next = 0;
  let current: { first: number; samples: Float32Array } | undefined;
  const open = () => {
    const piece = pieces[next]!;
    const first = Math.round(piece.startSeconds * sampleRate);
    current = { first, samples: new Float32Array(Math.max(0, Math.round(piece.endSeconds * sampleRate) - first)) };
  };
  for await (const block of blocks) {
    const blockEnd = block.startSample + block.samples.length;
    while (next < pieces.length) {
      if (!current) open();
      const { first, samples } = current!;
      const from = Math.max(first, block.startSample);
      const to = Math.min(first + samples.length, blockEnd);
      if (to > from) samples.set(block.samples.subarray(from - block.startSample, to - block.startSample), from - first);
      if (first + samples.length > blockEnd) break;
      complete.push(samples);
      if (complete.length === PIECES_PER_RUN) await embedComplete();
      current = undefined;
      next++;
    }
    if (next >= pieces.length) break;
  }
  if (complete.length > 0) await embedComplete();
  return embedded;
}

/**
 * The runs under their pieces' clusters: a run is cut between two of its pieces that fell in
 * different clusters ({@link changeOfVoice}). A run with no piece of its own
 * takes its provisional speaker's main cluster, unless that voice is already talking then (for
 * at least half the run, in another provisional speaker's turn): the segmentation model heard
 * two people at once, so this one is somebody else. It then takes the other cluster its
 * (overlapped) embedding is nearest, within {@link OVERLAPPED_VOICE_WITHIN}; failing that, such
 * runs of one provisional speaker become a speaker of their own when they add up to
 * `minSpeakerSeconds` (a person heard only over others, as a meeting's interjection), while
 * there are fewer than `mostSpeakers`; shorter ones keep the main cluster.
 * @param labels shape: (pieces), cluster of each piece
 */
function relabelRuns(
  runs: readonly SpeakerRun[],
  pieces: readonly EmbeddedPiece[],
  labels: readonly number[],
  overlappedVectors: ReadonlyMap<number, Float32Array>,
  limits: { minSpeakerSeconds: number; mostSpeakers: number },
  silences: readonly SilentStretch[],
): SpeakerRun[] {
  const piecesOfRun = new Map<number, number[]>();
  pieces.forEach((piece, index) => {
    const ofRun = piecesOfRun.get(piece.run);
    if (ofRun) ofRun.push(index);
    else piecesOfRun.set(piece.run, [index]);
  });
  const clusterOfSpeaker = majorityClusters(runs, pieces, labels);
  const relabelled: (SpeakerRun & { provisional: number })[] = [];
  const pieceless: number[] = [];
  runs.forEach((run, runIndex) => {
    const own = piecesOfRun.get(runIndex);
    if (!own) {
      pieceless.push(runIndex);
      return;
    }
    let start = run.startSeconds;
    own.forEach((pieceIndex, position) => {
      const following = own[position + 1];
      if (following !== undefined && labels[following] === labels[pieceIndex]) return;
      const end = following === undefined ? run.endSeconds : changeOfVoice(pieces[pieceIndex]!, pieces[following]!, silences);
      relabelled.push({ speaker: labels[pieceIndex]!, startSeconds: start, endSeconds: end, provisional: run.speaker });
      start = end;
    });
  });
  const voiced = [...relabelled];
  // Per provisional speaker: their runs heard over their own main voice, each with that cluster.
  const heardOver = new Map<number, { runs: { run: SpeakerRun; cluster: number }[]; seconds: number }>();
  const centroids = clusterCentroids(pieces, labels);
  for (const runIndex of pieceless) {
    const run = runs[runIndex]!;
    const cluster = clusterOfSpeaker.get(run.speaker) ?? labels[nearestPiece(pieces, run)]!;
    const seconds = run.endSeconds - run.startSeconds;
    const talkingThen = voiced
      .filter((other) => other.provisional !== run.speaker && other.speaker === cluster)
      .reduce((sum, other) => sum + Math.max(0, Math.min(other.endSeconds, run.endSeconds) - Math.max(other.startSeconds, run.startSeconds)), 0);
    const talkedOverByOwnVoice = talkingThen >= seconds / 2;
    const vector = overlappedVectors.get(runIndex);
    // Whose voice, other than the one talking over it: the nearest other cluster, if near enough.
    const other = talkedOverByOwnVoice && vector
      ? nearestCluster(centroids, vector, (candidate, similarity) => candidate !== cluster && similarity > cosineWithin(OVERLAPPED_VOICE_WITHIN))
      : undefined;
    if (other !== undefined) {
      relabelled.push({ ...run, speaker: other, provisional: run.speaker });
    } else if (talkedOverByOwnVoice) {
      const ofSpeaker = heardOver.get(run.speaker) ?? { runs: [], seconds: 0 };
      ofSpeaker.runs.push({ run, cluster });
      ofSpeaker.seconds += seconds;
      heardOver.set(run.speaker, ofSpeaker);
    } else {
      relabelled.push({ ...run, speaker: cluster, provisional: run.speaker });
    }
  }
  let nextCluster = labels.reduce((most, label) => Math.max(most, label), -1) + 1;
  let speakers = new Set(labels).size;
  for (const { runs: heard, seconds } of heardOver.values()) {
    const ownCluster = seconds >= limits.minSpeakerSeconds && speakers < limits.mostSpeakers ? nextCluster++ : undefined;
    if (ownCluster !== undefined) speakers += 1;
    for (const { run, cluster } of heard) relabelled.push({ ...run, speaker: ownCluster ?? cluster, provisional: run.speaker });
  }
  return relabelled
    .map(({ speaker, startSeconds, endSeconds }) => ({ speaker, startSeconds, endSeconds }))
    .sort((a, b) => a.startSeconds - b.startSeconds || a.speaker - b.speaker);
}

/**
 * Where the voice changes between two pieces of one run that fell in different clusters: in the
 * longest silence within them (the segmentation model carries a voice on over a pause of up to
 * about 0.4 s, and people take turns at pauses), else at the middle of the gap between them.
 */
function changeOfVoice(first: EmbeddedPiece, second: EmbeddedPiece, silences: readonly SilentStretch[]): number {
  let longest: SilentStretch | undefined;
  for (const silence of silences) {
    if (silence.startSeconds < (first.startSeconds + first.endSeconds) / 2 || silence.endSeconds > (second.startSeconds + second.endSeconds) / 2) continue;
    if (!longest || silence.endSeconds - silence.startSeconds > longest.endSeconds - longest.startSeconds) longest = silence;
  }
  return longest ? (longest.startSeconds + longest.endSeconds) / 2 : (first.endSeconds + second.startSeconds) / 2;
}

/** The sum of each cluster's piece embeddings (unit length each), by cluster: its centroid's direction. */
function clusterCentroids(pieces: readonly EmbeddedPiece[], labels: readonly number[]): Map<number, Float64Array> {
  const sums = new Map<number, Float64Array>();
  pieces.forEach((piece, index) => {
    const sum = sums.get(labels[index]!) ?? new Float64Array(piece.vector.length);
    for (let axis = 0; axis < sum.length; axis++) sum[axis]! += piece.vector[axis]!;
    sums.set(labels[index]!, sum);
  });
  return sums;
}

/**
 * The cluster whose centroid's direction is nearest `vector` among those `allowed` (given each
 * cluster's cosine to it), if any.
 * @param centroids by cluster, any length (only the direction counts)
 */
function nearestCluster(
  centroids: Iterable<readonly [number, ArrayLike<number>]>,
  vector: Float32Array,
  allowed: (cluster: number, similarity: number) => boolean,
): number | undefined {
  let best: { cluster: number; similarity: number } | undefined;
  for (const [cluster, centroid] of centroids) {
    const similarity = cosine(centroid, vector);
    if (allowed(cluster, similarity) && (!best || similarity > best.similarity)) best = { cluster, similarity };
  }
  return best?.cluster;
}

/** Cosine above which two unit vectors are nearer than `distance` (Euclidean): 1 − distance² / 2. */
function cosineWithin(distance: number): number {
  return 1 - distance ** 2 / 2;
}

/** For each provisional speaker with pieces, the cluster that holds most of their pieces' seconds. */
function majorityClusters(runs: readonly SpeakerRun[], pieces: readonly Omit<EmbeddedPiece, 'vector'>[], labels: readonly number[]): Map<number, number> {
  const seconds = new Map<number, Map<number, number>>();
  pieces.forEach((piece, index) => {
    const speaker = runs[piece.run]!.speaker;
    const ofSpeaker = seconds.get(speaker) ?? new Map<number, number>();
    ofSpeaker.set(labels[index]!, (ofSpeaker.get(labels[index]!) ?? 0) + piece.endSeconds - piece.startSeconds);
    seconds.set(speaker, ofSpeaker);
  });
  return new Map([...seconds].map(([speaker, byCluster]) => [speaker, [...byCluster].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0]]));
}

function nearestPiece(pieces: readonly EmbeddedPiece[], run: SpeakerRun): number {
  const distance = (piece: EmbeddedPiece) => Math.max(0, piece.startSeconds - run.endSeconds, run.startSeconds - piece.endSeconds);
  return pieces.reduce((best, piece, index) => (distance(piece) < distance(pieces[best]!) ? index : best), 0);
}
