import type { Analysis } from '../../../../domain/analysis/analysisSchema.js';
import { quoteSentence } from './quoting.js';
import type { Conversation, Utterance } from './readConversation.js';
import { rankKeyPhrases } from './rankKeyPhrases.js';
import type { Salience } from './scoreSentences.js';
import { capitalise, clip } from '../../text/clip.js';
import { joinAsList } from './words.js';

type Section = NonNullable<Analysis['sections']>[number];

/** Segments on each side of a gap compared for topic continuity (TextTiling's block size). */
const windowSegments = 3;
/** A topic section has at least this many segments: shorter runs join a neighbour. */
const minSectionSegments = 4;
/** Calls with less speech than this (seconds) or fewer segments than twice the minimum are one section. */
const minSecondsForSeveralSections = 90;
/** At most one section per this many seconds of speech, and at most the schema's 12. */
const secondsPerSection = 60;
const maxSections = 12;
/**
 * A gap is a topic boundary when its depth (how far the similarity across it drops below the
 * peaks on either side, in cosine units 0 to 2) reaches this.
 */
const minBoundaryDepth = 0.15;
/** A section's digest quotes its best sentences, at most this many. */
const sentencesPerDigest = 3;
const maxTitlePhrases = 2;
/** Schema limits (characters). */
const maxTitleChars = 120;
const maxContentChars = 2000;

/**
 * The call as consecutive thematic sections: boundaries where the keywords of the segments before
 * a gap and after it overlap least (a TextTiling-style depth score over {@link windowSegments}
 * segments each side), deepest first, keeping every section at least {@link minSectionSegments}
 * segments long. Short calls are one section. Each section is titled by its dominant key phrases
 * (as said, see `rankKeyPhrases`), digested by its most informative sentences (quoted, attributed) and cites all its segments.
 */
export function groupSections(conversation: Conversation, salience: Salience): Section[] {
  const { segments, utterances } = conversation;
  if (utterances.length === 0) return [];
  const bySegment: Utterance[][] = segments.map(() => []);
  for (const utterance of utterances) bySegment[utterance.segmentIndex]!.push(utterance);

  const boundaries = findBoundaries(conversation, bySegment);
  const starts = [0, ...boundaries];
  const ranges = starts.map((start, index) => [start, starts[index + 1] ?? segments.length] as const);
  const sectionKeys = ranges.map(([start, end]) => bySegment.slice(start, end).flat().flatMap((utterance) => utterance.keys));

  return ranges.map(([start, end], index): Section => {
    const members = bySegment.slice(start, end).flat();
    const weights = sectionKeywordWeights(sectionKeys, index, salience);
    const keywords = rankKeyPhrases(conversation, members, (key) => weights.get(key) ?? 0, maxTitlePhrases);
    const best = members
      .filter((utterance) => utterance.usable)
      .sort((first, second) => salience.scores[second.index]! - salience.scores[first.index]!)
      .slice(0, sentencesPerDigest)
      .sort((first, second) => first.index - second.index);
    const digest = (best.length > 0 ? best : members.slice(0, sentencesPerDigest)).map((utterance) => quoteSentence(conversation, utterance)).join(' ');
    return {
      title: clip(keywords.length > 0 ? capitalise(joinAsList(keywords)) : fallbackTitle(conversation, start, end), maxTitleChars),
      content: clip(digest, maxContentChars),
      sourceSegmentIds: segments.slice(start, end).map((segment) => segment.id),
    };
  });
}

/** Start indexes (segment) of every section after the first. */
function findBoundaries(conversation: Conversation, bySegment: readonly Utterance[][]): number[] {
  const count = bySegment.length;
  const allowed = Math.min(maxSections, Math.floor(conversation.speechSeconds / secondsPerSection) + 1);
  if (conversation.speechSeconds < minSecondsForSeveralSections || count < 2 * minSectionSegments || allowed < 2) return [];
  const keysOf = (from: number, to: number) => bySegment.slice(Math.max(0, from), Math.min(count, to)).flat().flatMap((utterance) => utterance.keys);
  // similarity[gap]: gap g lies between segment g - 1 and segment g (g = 1 … count - 1).
  const similarity = new Map<number, number>();
  for (let gap = 1; gap < count; gap++) similarity.set(gap, cosine(keysOf(gap - windowSegments, gap), keysOf(gap, gap + windowSegments)));
  const depths = [...similarity.keys()].map((gap) => ({ gap, depth: depthAt(similarity, gap) }));

  const chosen: number[] = [];
  for (const { gap, depth } of depths.sort((first, second) => second.depth - first.depth)) {
    if (depth < minBoundaryDepth || chosen.length >= allowed - 1) break;
    const edges = [0, ...chosen, count];
    if (edges.every((edge) => Math.abs(edge - gap) >= minSectionSegments)) chosen.push(gap);
  }
  return chosen.sort((first, second) => first - second);
}

/** TextTiling depth: the climb from the gap's similarity to the highest similarity on each side before it falls again. */
function depthAt(similarity: ReadonlyMap<number, number>, gap: number): number {
  const here = similarity.get(gap)!;
  const peak = (step: number) => {
    let best = here;
    for (let at = gap + step; similarity.has(at) && similarity.get(at)! >= best; at += step) best = similarity.get(at)!;
    return best;
  };
  return peak(-1) - here + (peak(1) - here);
}

/** Cosine similarity of two bags of keys, 0 (nothing shared) to 1. */
function cosine(first: readonly string[], second: readonly string[]): number {
  const count = (keys: readonly string[]) => keys.reduce((bag, key) => bag.set(key, (bag.get(key) ?? 0) + 1), new Map<string, number>());
  const a = count(first);
  const b = count(second);
  let dot = 0;
  for (const [key, value] of a) dot += value * (b.get(key) ?? 0);
  const norm = (bag: Map<string, number>) => Math.sqrt([...bag.values()].reduce((total, value) => total + value * value, 0));
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot / denominator;
}

/** A section's keywords: how often it says them × how specific to it they are (across sections) × their call-level weight. */
function sectionKeywordWeights(sectionKeys: readonly string[][], index: number, salience: Salience): Map<string, number> {
  const occurrences = new Map<string, number>();
  for (const key of sectionKeys[index]!) occurrences.set(key, (occurrences.get(key) ?? 0) + 1);
  const sectionSets = sectionKeys.map((keys) => new Set(keys));
  const weights = new Map<string, number>();
  for (const [key, count] of occurrences) {
    const sectionsWith = sectionSets.filter((keys) => keys.has(key)).length;
    weights.set(key, count * Math.log(1 + sectionKeys.length / sectionsWith) * (salience.keywordWeights.get(key) ?? 0));
  }
  return weights;
}

/** A section with no keywords is named by where it falls. */
function fallbackTitle(conversation: Conversation, start: number, end: number): string {
  const phases = new Set(conversation.segmentPhases.slice(start, end));
  if (phases.size === 1 && phases.has('opening')) return 'Opening';
  if ([...phases].every((phase) => phase === 'closing' || phase === 'followup')) return 'Wrap-up';
  return 'Conversation';
}
