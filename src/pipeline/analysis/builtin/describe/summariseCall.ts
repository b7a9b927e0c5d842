import { summaryBulletCount as bulletCount, type Analysis, type bulletCategories } from '../../../../domain/analysis/analysisSchema.js';
import {
  agreementCue, blockerCue, commitmentCue, concernCue, contextCue, decisionCue, followUpCue, outcomeCue,
} from './cues.js';
import type { CallOutcome } from './callOutcome.js';
import { quoteSentence, otherPartyName } from './quoting.js';
import { speakerNameOf, type Conversation, type Utterance } from './readConversation.js';
import { compressSentence, inThirdPerson } from './rephrase.js';
import { bestOfEachSpeaker, isNearDuplicate, type Salience } from './scoreSentences.js';
import { clip } from '../../text/clip.js';

type BulletCategory = (typeof bulletCategories)[number];
type SummaryBullet = NonNullable<Analysis['executiveSummaryBullets']>[number];

/** The prose summary has 2 to 5 sentences: one per this many usable sentences of the call. */
const usableSentencesPerSummarySentence = 6;
const summarySentences = { min: 2, max: 5 } as const;
/** 3 to 7 bullets (the specification's range): one per this many usable sentences. */
const usableSentencesPerBullet = 4;
/** Schema limits (characters). */
const maxBulletChars = 300;
const maxSummaryChars = 3000;
/** A short reply ("Sounds good.", "Deal.") is an agreement with what the other party just said. */
const maxWordsOfBareAgreement = 6;

/**
 * A bullet's category from cue words, first match wins: what blocks progress, what was decided or
 * agreed, the result reached, what happens next, what worries someone, why the call was made.
 * A sentence matching none is `context` early in the call and an `observation` later.
 */
const categoryCues: readonly [BulletCategory, RegExp][] = [
  ['blocker', blockerCue],
  ['decision', decisionCue],
  ['agreement', agreementCue],
  ['outcome', outcomeCue],
  ['next_steps', followUpCue],
  ['next_steps', commitmentCue],
  ['concern', concernCue],
  ['context', contextCue],
];
/** Categories a reader must not miss: the best sentence of each is picked before filling by score. */
const mustCoverCategories: readonly BulletCategory[] = ['decision', 'agreement', 'outcome', 'next_steps', 'blocker', 'concern'];
/** Categories that are high importance by nature. */
const highImportanceCategories: ReadonlySet<BulletCategory> = new Set(['decision', 'agreement', 'blocker', 'outcome']);
/** Categories that are background: low importance when in the lower third of the bullets by score. */
const backgroundCategories: ReadonlySet<BulletCategory> = new Set(['context', 'observation']);
/** How a bullet opens, by category: the compressed form starts with it, so it never repeats the prose summary's sentence. */
const categoryLead: Record<BulletCategory, string> = {
  context: 'Context', outcome: 'Outcome', next_steps: 'Next steps', concern: 'Concern', agreement: 'Agreed', decision: 'Decision',
  blocker: 'Blocker', observation: 'Noted',
};
/** Sentences before this share of the usable ones, matching no cue, are context rather than observations. */
const contextShare = 0.25;

export interface CallSummary {
  executiveSummary: string | null;
  executiveSummaryBullets: SummaryBullet[];
  warnings: string[];
}

export const fewBulletsWarning = 'Too few usable sentences for three summary bullets';

/** What one bullet is made from: a sentence, or a short agreement with the proposal before it. */
interface BulletSource {
  utterances: Utterance[];
  category: BulletCategory;
  score: number;
  keys: string[];
}

/**
 * The prose summary and its bullets.
 *
 * Prose: the most informative sentences (see `scoreSentences`), each party's best one first so
 * no side goes unheard, near-duplicates skipped, in call order, each as said and attributed
 * ("Diane: …"). Bullets: chosen separately (the best sentence of each must-cover category first,
 * then by score), each rewritten: fillers dropped, the speaker's first person told in the third
 * ("I'll send" → "Diane will send"), and opened by its category ("Next steps: …"), so no bullet
 * is ever one of the prose sentences.
 */
export function summariseCall(conversation: Conversation, salience: Salience, outcome: CallOutcome | null = null): CallSummary {
  const usable = conversation.utterances.filter((utterance) => utterance.usable);
  if (usable.length === 0) return { executiveSummary: null, executiveSummaryBullets: [], warnings: [] };
  const byScore = [...usable].sort((first, second) => salience.scores[second.index]! - salience.scores[first.index]! || first.index - second.index);

  const proseCount = Math.min(usable.length, clamp(Math.round(usable.length / usableSentencesPerSummarySentence), summarySentences.min, summarySentences.max));
  const candidates = byScore.map((utterance) => ({ utterance, keys: utterance.keys }));
  const prose = pickDistinct(candidates, proseCount, bestOfEachSpeaker(candidates, proseCount, (candidate) => candidate.utterance))
    .map(({ utterance }) => utterance)
    .sort((first, second) => first.index - second.index)
    .map((utterance) => quoteSentence(conversation, utterance));
  const executiveSummary = clip(prose.join(' '), maxSummaryChars);

  const sources = bulletSources(conversation, usable, salience);
  const wanted = clamp(Math.round(usable.length / usableSentencesPerBullet), bulletCount.min, bulletCount.max);
  const picked = pickBulletSources(sources, wanted);
  const rankOf = new Map([...picked].sort((first, second) => second.score - first.score).map((source, rank) => [source, rank]));
  const bullets = picked
    .sort((first, second) => first.utterances[0]!.index - second.utterances[0]!.index)
    .map((source): SummaryBullet => ({
      text: clip(bulletText(conversation, source), maxBulletChars),
      category: source.category,
      importance: importanceOf(source, rankOf.get(source)! / picked.length),
      sourceSegmentIds: [...new Set(source.utterances.map((utterance) => utterance.segment.id))],
    }))
    .filter((bullet) => !prose.includes(bullet.text));
  // The schema's rule: 3 to 7 bullets, or none for a call too short to summarise; one or two
  // bullets would pass for a summary of a call they cannot cover.
  const enough = bullets.length >= bulletCount.min;
  // The first bullet is what the call came to; the weakest of the rest gives way to it.
  if (enough && outcome) {
    if (bullets.length >= bulletCount.max) bullets.splice(weakestIndex(bullets), 1);
    bullets.unshift({ text: clip(`Outcome: ${upperFirst(outcome.statement)}.`, maxBulletChars), category: 'outcome', importance: 'high', sourceSegmentIds: outcome.sourceSegmentIds });
  }
  return {
    executiveSummary: executiveSummary || null,
    executiveSummaryBullets: enough ? bullets : [],
    warnings: enough ? [] : [fewBulletsWarning],
  };
}

/**
 * High for decisions, agreements, blockers and outcomes, and for the top third of the bullets by
 * score; low for background (context, observations) in the lower third; medium otherwise.
 * `rankShare`: the bullet's rank by score over the number of bullets, 0 for the best.
 */
function importanceOf(source: BulletSource, rankShare: number): SummaryBullet['importance'] {
  if (highImportanceCategories.has(source.category) || rankShare < 1 / 3) return 'high';
  return backgroundCategories.has(source.category) && rankShare >= 2 / 3 ? 'low' : 'medium';
}

/** The last bullet of the lowest importance. */
function weakestIndex(bullets: readonly SummaryBullet[]): number {
  const rank = { low: 0, medium: 1, high: 2 } as const;
  let weakest = bullets.length - 1;
  for (let index = bullets.length - 1; index >= 0; index--) if (rank[bullets[index]!.importance] < rank[bullets[weakest]!.importance]) weakest = index;
  return weakest;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The first `count` items, in the given order, that are not near-duplicates of one picked before; `seeds` are picked first. */
function pickDistinct<Item extends { keys: readonly string[] }>(items: readonly Item[], count: number, seeds: readonly Item[]): Item[] {
  const picked: Item[] = [];
  for (const seed of seeds) if (!picked.some((other) => isNearDuplicate(seed.keys, other.keys))) picked.push(seed);
  for (const item of items) {
    if (picked.length >= count) break;
    if (!picked.includes(item) && !picked.some((other) => isNearDuplicate(item.keys, other.keys))) picked.push(item);
  }
  return picked;
}

function categoryOf(utterance: Utterance, usableRank: number, usableCount: number): BulletCategory {
  const cued = categoryCues.find(([, pattern]) => pattern.test(utterance.matchText));
  if (cued) return cued[0];
  return utterance.phase === 'opening' || usableRank < usableCount * contextShare ? 'context' : 'observation';
}

/** One source per usable sentence; a bare agreement takes in the other party's sentence before it. */
function bulletSources(conversation: Conversation, usable: readonly Utterance[], salience: Salience): BulletSource[] {
  return usable.map((utterance, rank) => {
    const category = categoryOf(utterance, rank, usable.length);
    const score = salience.scores[utterance.index]!;
    const previous = conversation.utterances[utterance.index - 1];
    const bareAgreement = category === 'agreement' && utterance.words.length <= maxWordsOfBareAgreement;
    if (bareAgreement && previous?.usable && previous.segment.speakerId !== utterance.segment.speakerId) {
      return {
        utterances: [previous, utterance], category, keys: [...previous.keys, ...utterance.keys],
        score: Math.max(score, salience.scores[previous.index]!),
      };
    }
    return { utterances: [utterance], category, score, keys: utterance.keys };
  });
}

/** The best source of each must-cover category, then the rest by score; no sentence used twice, and at least three when there are three. */
function pickBulletSources(sources: readonly BulletSource[], wanted: number): BulletSource[] {
  const byScore = [...sources].sort((first, second) => second.score - first.score);
  const picked: BulletSource[] = [];
  const overlaps = (source: BulletSource) => picked.some((other) => other.utterances.some((utterance) => source.utterances.includes(utterance))
    || isNearDuplicate(source.keys, other.keys));
  for (const category of mustCoverCategories) {
    const best = byScore.find((source) => source.category === category && !overlaps(source));
    if (best && picked.length < wanted) picked.push(best);
  }
  for (const source of byScore) {
    if (picked.length >= wanted) break;
    if (!picked.includes(source) && !overlaps(source)) picked.push(source);
  }
  // Three bullets are the least a summary has: a call that has three sentences to say gets them,
  // near-duplicates or not, before it would be left with none.
  for (const source of byScore) {
    if (picked.length >= bulletCount.min) break;
    const sameSentence = picked.some((other) => other.utterances.some((utterance) => source.utterances.includes(utterance)));
    if (!picked.includes(source) && !sameSentence) picked.push(source);
  }
  return picked;
}

/** "Next steps: Diane will send the contract by Friday." — the category's lead, then the compressed, third-person sentence. */
function bulletText(conversation: Conversation, source: BulletSource): string {
  const lead = categoryLead[source.category];
  const [first, second] = source.utterances;
  if (second) {
    // A bare agreement: the proposal it accepts, then who accepted it.
    return `${lead}: ${trimEnd(retold(conversation, first!))} (${speakerNameOf(conversation, second.segment)} agreed).`;
  }
  const speaker = speakerNameOf(conversation, first!.segment);
  const body = retold(conversation, first!);
  return body.includes(speaker) ? `${lead}: ${body}` : `${lead} (${speaker}): ${body}`;
}

/** The sentence compressed and told in the third person; quoted after "<name> said" when that is not safe. */
function retold(conversation: Conversation, utterance: Utterance): string {
  const speaker = speakerNameOf(conversation, utterance.segment);
  const compressed = compressSentence(utterance.text);
  return inThirdPerson(compressed, speaker, otherPartyName(conversation, utterance.segment)) ?? `${speaker} said "${trimEnd(compressed)}"`;
}

function trimEnd(text: string): string {
  return text.replace(/[\s.,;:!?]+$/, '');
}
