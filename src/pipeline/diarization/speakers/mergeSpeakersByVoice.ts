import type { SpeakerRun } from './TurnBuilder.js';
import { separationEvidence, VoiceModel, VoiceStatistics } from './voiceStatistics.js';

export interface VoiceMergeOptions {
  /** Weight of the BIC penalty for a second speaker model (see {@link separationEvidence}). */
  penaltyWeight: number;
  /** Speakers with less solo speech than this are not clustered (their statistics say too little), seconds. */
  minVoiceSeconds: number;
  /** Two speakers who talk at the same time for longer than this are different people, seconds. */
  maxSharedSeconds: number;
  /** Variance added to each cepstral dimension's (see {@link VoiceStatistics.logDeterminant}). */
  varianceFloor: number;
  /** The number of speakers, when known: merging goes on (or stops) until there are this many. */
  speakerCount?: number;
  /** At most this many speakers: merging goes on past the evidence until there are no more. */
  maxSpeakers?: number;
  /** At least this many speakers: merging stops there whatever the evidence. */
  minSpeakers?: number;
}

/**
 * The voice step of the embedding-free path. Window linking follows a speaker only while their
 * activity continues from window to window: someone who falls silent for longer than the
 * windows overlap (7.5 s) comes back under a new number. Here the numbers that are one voice are
 * joined: agglomerative clustering of the speakers' voice statistics, always joining the pair
 * the BIC finds most alike, while it finds them alike (ΔBIC < 0), so the count of speakers
 * follows from the evidence, with no cap. Speakers who talked over each other for longer than
 * `maxSharedSeconds` are never joined (one person does not overlap themself). A speaker with
 * too little solo speech to judge (a word or two) then goes to the judged voice that explains
 * that speech best (highest mean likelihood), unless they talk over it; one with no solo speech
 * at all only ever talks over others, and keeps their number.
 *
 * (Tried and left out: moving single turns to the speaker whose voice explains them best. On
 * the evaluation recordings it fixed nothing, and where the segmentation model had mixed two
 * voices in one turn it pulled the rest of the smaller voice in after it.)
 * @param runs each speaker's runs (numbers from window linking)
 * @param runStatistics voice statistics per run index, from its solo speech
 * @returns the runs with joined speakers renumbered to the lowest number among them
 */
export function mergeSpeakersByVoice(runs: readonly SpeakerRun[], runStatistics: ReadonlyMap<number, VoiceStatistics>, options: VoiceMergeOptions): SpeakerRun[] {
  const speakerOf = runs.map((run) => run.speaker);
  joinAlikeSpeakers(runs, speakerOf, runStatistics, options);
  return runs.map((run, index) => ({ ...run, speaker: speakerOf[index]! }));
}

/** Sums of the runs' statistics per speaker (`speakerOf`: each run's speaker, by run index). */
export function statisticsBySpeaker(speakerOf: readonly number[], runStatistics: ReadonlyMap<number, VoiceStatistics>): Map<number, VoiceStatistics> {
  const bySpeaker = new Map<number, VoiceStatistics>();
  for (const [run, statistics] of runStatistics) {
    const speaker = speakerOf[run]!;
    const sum = bySpeaker.get(speaker);
    bySpeaker.set(speaker, sum ? VoiceStatistics.combined(sum, statistics) : statistics);
  }
  return bySpeaker;
}

/** The join step, in place on `speakerOf`. */
function joinAlikeSpeakers(runs: readonly SpeakerRun[], speakerOf: number[], runStatistics: ReadonlyMap<number, VoiceStatistics>, options: VoiceMergeOptions): void {
  const speakers = [...new Set(speakerOf)].sort((a, b) => a - b);
  const statistics = statisticsBySpeaker(speakerOf, runStatistics);
  const judged = speakers.filter((speaker) => (statistics.get(speaker)?.seconds ?? 0) >= options.minVoiceSeconds);
  const maxSpeakers = options.speakerCount ?? options.maxSpeakers;
  const minSpeakers = Math.max(1, options.speakerCount ?? options.minSpeakers ?? 1);

  interface Cluster { id: number; members: number[]; statistics: VoiceStatistics }
  let nextId = 0;
  const clusters: Cluster[] = judged.map((speaker) => ({ id: nextId++, members: [speaker], statistics: statistics.get(speaker)! }));
  const shared = sharedSeconds(runs.map((run, index) => ({ ...run, speaker: speakerOf[index]! })));
  const talkTogether = new Map<string, boolean>();
  const together = (a: Cluster, b: Cluster) => {
    const key = pairKey(a.id, b.id);
    let value = talkTogether.get(key);
    if (value === undefined) talkTogether.set(key, value = a.members.some((x) => b.members.some((y) => (shared.get(pairKey(x, y)) ?? 0) > options.maxSharedSeconds)));
    return value;
  };
  // Each pair's ΔBIC (and whether they talk together) once: a merge only adds the new cluster's pairs (a long call links hundreds
  // of numbers; recomputing every pair at every merge would be cubic).
  const known = new Map<string, number>();
  const evidence = (a: Cluster, b: Cluster) => {
    const key = pairKey(a.id, b.id);
    let value = known.get(key);
    if (value === undefined) known.set(key, value = separationEvidence(a.statistics, b.statistics, options.penaltyWeight, options.varianceFloor));
    return value;
  };

  // The unjudged speakers count towards the total the hints speak of.
  let unjudged = speakers.length - judged.length;
  while (clusters.length + unjudged > minSpeakers) {
    const mustMerge = maxSpeakers !== undefined && clusters.length + unjudged > maxSpeakers;
    let best: { first: number; second: number; evidence: number } | undefined;
    for (let first = 0; first < clusters.length; first++) {
      for (let second = first + 1; second < clusters.length; second++) {
        // Over the limit, talking together no longer rules a pair out (the hint outranks it).
        if (!mustMerge && together(clusters[first]!, clusters[second]!)) continue;
        const value = evidence(clusters[first]!, clusters[second]!);
        if (!best || value < best.evidence) best = { first, second, evidence: value };
      }
    }
    if (!best || (best.evidence >= 0 && !mustMerge)) break;
    const [first, second] = [clusters[best.first]!, clusters[best.second]!];
    clusters[best.first] = { id: nextId++, members: [...first.members, ...second.members], statistics: VoiceStatistics.combined(first.statistics, second.statistics) };
    clusters.splice(best.second, 1);
  }

  // Speakers too short to judge, with some solo speech: to the judged voice that explains it best,
  // never one they talk over. (Without any solo speech they only ever talk over others: kept.)
  if (maxSpeakers === undefined || clusters.length + unjudged > maxSpeakers) {
    for (const speaker of speakers) {
      const own = statistics.get(speaker);
      if (judged.includes(speaker) || !own || clusters.length + unjudged <= minSpeakers) continue;
      const candidates = clusters.filter((cluster) => !cluster.members.some((member) => (shared.get(pairKey(member, speaker)) ?? 0) > options.maxSharedSeconds));
      const fits = candidates.map((cluster) => ({ cluster, fit: VoiceModel.of(cluster.statistics, options.varianceFloor)?.meanLogLikelihood(own) ?? Number.NEGATIVE_INFINITY }));
      const best = fits.sort((a, b) => b.fit - a.fit)[0];
      if (best) {
        best.cluster.members.push(speaker);
        unjudged -= 1;
      }
    }
  }

  const renumber = new Map<number, number>();
  for (const cluster of clusters) for (const member of cluster.members) renumber.set(member, Math.min(...cluster.members));
  speakerOf.forEach((speaker, index) => { speakerOf[index] = renumber.get(speaker) ?? speaker; });
}

function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** Seconds each pair of speakers talks at the same time. */
function sharedSeconds(runs: readonly SpeakerRun[]): Map<string, number> {
  const shared = new Map<string, number>();
  const sorted = [...runs].sort((a, b) => a.startSeconds - b.startSeconds);
  for (let index = 0; index < sorted.length; index++) {
    const run = sorted[index]!;
    for (let later = index + 1; later < sorted.length && sorted[later]!.startSeconds < run.endSeconds; later++) {
      const other = sorted[later]!;
      if (other.speaker === run.speaker) continue;
      const overlap = Math.min(run.endSeconds, other.endSeconds) - other.startSeconds;
      if (overlap > 0) shared.set(pairKey(run.speaker, other.speaker), (shared.get(pairKey(run.speaker, other.speaker)) ?? 0) + overlap);
    }
  }
  return shared;
}
