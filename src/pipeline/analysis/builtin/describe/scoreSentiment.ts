import winkSentiment from 'wink-sentiment';
import type { sentimentLabels } from '../../../../domain/analysis/analysisSchema.js';
import type { Utterance } from './readConversation.js';
import { joinAsList } from './words.js';

export type SentimentLabel = (typeof sentimentLabels)[number];

/** A word or phrase that carried sentiment, as said ("frustrated", "not good"), with its AFINN score in [-5, 5]. */
export interface SentimentCue {
  text: string;
  score: number;
}

/** One sentence's sentiment: wink-sentiment's normalized score in [-5, 5] and the cues behind it. */
export interface ScoredSentence {
  utterance: Utterance;
  normalized: number;
  cues: SentimentCue[];
}

/** A group of sentences' sentiment: label and score in [-1, 1] (null when unclear). */
export interface SentimentReading {
  overall: SentimentLabel;
  score: number | null;
  positiveCues: string[];
  negativeCues: string[];
}

/**
 * Words AFINN scores that on the phone are mostly formula or carry no feeling, removed before
 * scoring (the quoted cues stay as said):
 * - "like" (+2) as a filler, a preposition or "I'd like to": kept only as a verb after a subject ("I like");
 * - greetings and service formulas: "good morning", "how can I help", "support" (the department);
 * - "work" (+3) as an activity ("I work from home"), kept in "that works for me";
 * - "please" (+1), "want" (+1), "to be honest" (+2): politeness, demands and hedges;
 * - a "yes" or "no" that opens a sentence: an answer, not a feeling (a "no" before a word still negates it);
 * - polite hedges and apologies of service ("I'm afraid", "sorry about that", "sorry to bother you"):
 *   a polite refusal or a delay said kindly is no negative feeling.
 */
const neutralForScoring: readonly RegExp[] = [
  /(?<!\b(?:i|we|you|they|he|she|really|don't|didn't|do|n't|not|never)\s)\blike\b/gi,
  /\bgood (?:morning|afternoon|evening|night|day)\b/gi,
  /\b(?:how|what) (?:can|may) i (?:help|do for you)\b|\b(?:can|may) i help\b|\bhelp (?:you )?with (?:today|anything)\b|\bhere to help\b/gi,
  /\bsupport\b/gi,
  /\bwork(?:s|ed|ing)?\b(?!\s+(?:for|well|great|perfectly|fine|out))/gi,
  /\bplease\b|\bwant(?:s|ed)?\b|\b(?:to )?be honest\b/gi,
  /^(?:yes|yeah|yep|no|nope)\s*[,.!]\s*/i,
  /\bi['’]?m afraid\b|\bafraid (?:so|not)\b/gi,
  /\b(?:so |really )?sorry (?:about that|for the (?:wait|delay|trouble|confusion)|to (?:bother|keep|trouble) you)\b/gi,
];
/** Mean normalized score (wink's [-5, 5]) that maps to tanh(1) ≈ 0.76: one clearly positive sentence in two. */
const sentimentScale = 1;
/** A score at or beyond ±this is positive or negative; within it, neutral. */
const polarityThreshold = 0.15;
/** A sentence counts as positive or negative from a normalized score of ±this. */
const polarSentenceScore = 1;
/** Mixed: both sides have at least this many polar sentences, the smaller at least half the larger, and the score is within ±{@link mixedMaxScore}. */
const minPolarSentencesForMixed = 2;
const mixedMaxScore = 0.4;
/** Cues quoted per side. */
const cuesPerSide = 3;

/**
 * Scores each sentence with wink-sentiment (AFINN-165, with negation and two-word phrases), read
 * lower-cased with straight apostrophes (wink's negations are "don't", not "don’t").
 */
export function scoreSentiment(utterances: readonly Utterance[]): ScoredSentence[] {
  return utterances.filter((utterance) => utterance.words.length > 0).map((utterance) => {
    const text = neutralForScoring.reduce((result, pattern) => result.replace(pattern, ' '), utterance.matchText);
    const result = winkSentiment(text);
    const tokens = result.tokenizedPhrase ?? [];
    const cues: SentimentCue[] = [];
    tokens.forEach((token, index) => {
      if (!token.score) return;
      let from = index;
      if (token.negation) {
        // Quote from the negation on: "not a good", "don't like" (wink splits "don't" into "do" + "n't").
        const negationAt = [index - 1, index - 2].find((at) => at >= 0 && /^(?:not|no|never|none|non|n't|arent|cant|dont|wont|isnt|wouldnt|shouldnt)$/i.test(tokens[at]!.value));
        if (negationAt !== undefined) from = tokens[negationAt]!.value === "n't" ? negationAt - 1 : negationAt;
      }
      const to = token.grouped ? index + token.grouped : index;
      const words = tokens.slice(Math.max(0, from), to + 1).map((part) => part.value);
      cues.push({ text: words.join(' ').replace(/ n't\b/g, "n't").toLowerCase(), score: token.score });
    });
    return { utterance, normalized: result.normalizedScore, cues };
  });
}

/** The label and score of a set of scored sentences (see the thresholds above); `unclear` with a null score when `enough` is false. */
export function readSentiment(scored: readonly ScoredSentence[], enough: boolean): SentimentReading {
  const { positiveCues, negativeCues } = strongestCues(scored);
  if (!enough || scored.length === 0) return { overall: 'unclear', score: null, positiveCues, negativeCues };
  const mean = scored.reduce((total, sentence) => total + sentence.normalized, 0) / scored.length;
  const score = Math.round(Math.tanh(mean / sentimentScale) * 100) / 100;
  const positive = scored.filter((sentence) => sentence.normalized >= polarSentenceScore).length;
  const negative = scored.filter((sentence) => sentence.normalized <= -polarSentenceScore).length;
  const balanced = Math.min(positive, negative) >= minPolarSentencesForMixed && Math.min(positive, negative) * 2 >= Math.max(positive, negative);
  // A problem raised and then settled (the last third of the call has positive sentences and no
  // negative one) leaves the call positive, as a person would read it, not mixed.
  const ending = scored.slice(Math.floor((scored.length * 2) / 3));
  const endsSettled = ending.some((sentence) => sentence.normalized >= polarSentenceScore) && ending.every((sentence) => sentence.normalized > -polarSentenceScore);
  const overall: SentimentLabel = balanced && Math.abs(score) < mixedMaxScore ? (endsSettled && score > 0 ? 'positive' : 'mixed')
    : score >= polarityThreshold ? 'positive' : score <= -polarityThreshold ? 'negative' : 'neutral';
  return { overall, score, positiveCues, negativeCues };
}

/** The words that weighed most on each side, summed over the sentences, as said. */
function strongestCues(scored: readonly ScoredSentence[]): { positiveCues: string[]; negativeCues: string[] } {
  const totals = new Map<string, number>();
  for (const cue of scored.flatMap((sentence) => sentence.cues)) totals.set(cue.text, (totals.get(cue.text) ?? 0) + cue.score);
  const ranked = [...totals].sort((first, second) => Math.abs(second[1]) - Math.abs(first[1]));
  return {
    positiveCues: ranked.filter(([, total]) => total > 0).slice(0, cuesPerSide).map(([text]) => text),
    negativeCues: ranked.filter(([, total]) => total < 0).slice(0, cuesPerSide).map(([text]) => text),
  };
}

/** `"great", "thanks" and "perfect"`. */
export function quoteCues(cues: readonly string[]): string {
  return joinAsList(cues.map((cue) => `"${cue}"`));
}
