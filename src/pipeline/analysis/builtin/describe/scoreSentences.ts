import * as chrono from 'chrono-node';
import {
  agreementCue, blockerCue, commitmentCue, concernCue, cueScore, decisionCue, numberCue, outcomeCue, type Cue,
} from './cues.js';
import type { Conversation, Utterance } from './readConversation.js';

/**
 * Bonuses for sentences that state facts. A sentence's base score is its keyword weight per
 * word (about 0.5 to 3); a bonus of 1.5 lifts an ordinary commitment above a keyword-rich aside.
 */
const factBonuses: readonly Cue[] = [
  { pattern: commitmentCue, weight: 1.5 },
  { pattern: decisionCue, weight: 1.5 },
  { pattern: agreementCue, weight: 1.5 },
  { pattern: outcomeCue, weight: 1.5 },
  { pattern: blockerCue, weight: 1 },
  { pattern: concernCue, weight: 1 },
  { pattern: numberCue, weight: 1 },
];
/** For a date or time said ("next Tuesday", "at 3 pm"), found by chrono-node. */
const dateBonus = 1;
/** For sentences under {@link shortSentenceWords} words: they rarely carry a point alone. */
const shortSentencePenalty = 1;
const shortSentenceWords = 6;
/** For questions: what was asked matters less than what was answered or agreed. */
const questionPenalty = 0.5;
/** Long sentences do not win by length alone: the keyword sum is divided by √max(words, this). */
const lengthNormalisationFloor = 8;

/** How informative each sentence is and what the call's keywords are. */
export interface Salience {
  /** Weight of each content-word key over the call (TF-IDF-like, see {@link scoreSentences}). */
  keywordWeights: ReadonlyMap<string, number>;
  /** Informativeness of each utterance, by `utterance.index`; -Infinity for those that are not usable. */
  scores: readonly number[];
  /** Whether each utterance (by index) says a date or time (pleasantries too: "see you on Friday"). */
  hasDate: readonly boolean[];
}

/**
 * Scores every sentence of the call, a TF-IDF-like keyword centrality plus bonuses:
 *
 * - keyword weight of a content word = log2(1 + occurrences in the call) × ln(1 + segments / segments
 *   containing it): words the call keeps returning to weigh most, words in every turn less;
 * - a sentence's base score = the weights of its distinct keywords / √max(words, 8);
 * - plus {@link factBonuses} (commitments, decisions, agreement, outcomes, blockers, concerns,
 *   numbers) and {@link dateBonus}; minus {@link shortSentencePenalty} for very short sentences
 *   and {@link questionPenalty} for questions;
 * - greetings, goodbyes and thanks, and sentences without content words, are not usable (-Infinity).
 */
export function scoreSentences(conversation: Conversation): Salience {
  const { utterances, segments, input } = conversation;
  const keywordWeights = weighKeywords(utterances, segments.length);
  const reference = new Date(input.recordedAt);
  const hasDate = utterances.map((utterance) => utterance.words.length > 0 && chrono.parse(utterance.text, reference).length > 0);
  const scores = utterances.map((utterance) => {
    if (!utterance.usable) return Number.NEGATIVE_INFINITY;
    const keywordSum = [...new Set(utterance.keys)].reduce((total, key) => total + (keywordWeights.get(key) ?? 0), 0);
    const base = keywordSum / Math.sqrt(Math.max(utterance.words.length, lengthNormalisationFloor));
    const bonus = cueScore(utterance.matchText, factBonuses) + (hasDate[utterance.index] ? dateBonus : 0);
    const penalty = (utterance.words.length < shortSentenceWords ? shortSentencePenalty : 0) + (utterance.question ? questionPenalty : 0);
    return base + bonus - penalty;
  });
  return { keywordWeights, scores, hasDate };
}

function weighKeywords(utterances: readonly Utterance[], segmentCount: number): Map<string, number> {
  const occurrences = new Map<string, number>();
  const segmentsWith = new Map<string, Set<number>>();
  for (const utterance of utterances) {
    for (const key of utterance.keys) {
      occurrences.set(key, (occurrences.get(key) ?? 0) + 1);
      const seen = segmentsWith.get(key) ?? new Set<number>();
      seen.add(utterance.segmentIndex);
      segmentsWith.set(key, seen);
    }
  }
  const weights = new Map<string, number>();
  for (const [key, count] of occurrences) {
    weights.set(key, Math.log2(1 + count) * Math.log(1 + Math.max(1, segmentCount) / segmentsWith.get(key)!.size));
  }
  return weights;
}

/** Two sentences are near-duplicates when they share at least this many keywords … */
const minSharedKeysForDuplicate = 2;
/** … making up at least this share of the smaller sentence's keywords. */
const duplicateOverlap = 0.6;

/** Whether two sentences (by their keys) say much the same thing: picked together they would repeat. */
export function isNearDuplicate(first: readonly string[], second: readonly string[]): boolean {
  const a = new Set(first);
  const b = new Set(second);
  let shared = 0;
  for (const key of a) if (b.has(key)) shared++;
  return shared >= minSharedKeysForDuplicate && shared / Math.min(a.size, b.size) >= duplicateOverlap;
}

/**
 * The first item of each speaker in `ranked` (best first), when there is room for one per
 * speaker in `count`; none otherwise. Summaries pick these first so every party is heard.
 */
export function bestOfEachSpeaker<Item>(ranked: readonly Item[], count: number, utteranceOf: (item: Item) => Utterance): Item[] {
  const best = new Map<string, Item>();
  for (const item of ranked) {
    const speakerId = utteranceOf(item).segment.speakerId;
    if (!best.has(speakerId)) best.set(speakerId, item);
  }
  return best.size <= count ? [...best.values()] : [];
}
