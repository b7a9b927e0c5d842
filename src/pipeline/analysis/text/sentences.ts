import type { Segment } from '../../../domain/transcripts/transcriptSchema.js';

/**
 * Sentences of a transcript, one implementation for the description and the fact extractor:
 * both cite segments, so a sentence is always a substring of its segment's text.
 */

/** Words after whose full stop a sentence does not end ("Dr. Patel", "3 p.m. tomorrow"), lower case, no final dot. */
export const ENGLISH_ABBREVIATIONS: readonly string[] = [
  'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'vs', 'etc', 'approx', 'dept', 'inc', 'ltd', 'co', 'no', 'e.g', 'i.e', 'a.m', 'p.m',
];

/** One sentence of one segment: facts are found per sentence and cite the segment. */
export interface Sentence {
  segment: Segment;
  /** Position of the segment in the segments split. */
  segmentIndex: number;
  /** The sentence as transcribed, trimmed: a substring of `segment.text`. */
  text: string;
  /** Whether it ends with a question mark (closing quotes allowed). */
  isQuestion: boolean;
}

/** A sentence end: terminal punctuation, closing quotes or brackets, then blanks. */
const SENTENCE_END = /[.!?…]+["'”’)\]]*\s+/g;
const CLOSING = /["'”’)\]]+$/;

/**
 * The sentences of one text, each trimmed and as said. A `.`, `!`, `?` or `…` followed by a
 * blank ends a sentence (a dot inside a word, "acme.com" or "1.5", does not), except a full stop
 * - closing one of the `abbreviations` ("Dr. Patel", "a.m."), or
 * - followed by a lower-case word in a text that capitalises at all ("about 3. or so" in a badly
 *   punctuated transcript; a transcriber writing all lower case still gets its sentences).
 * A question or exclamation mark always ends one. A text without terminal punctuation is one
 * sentence; a piece with no letter or digit is none.
 */
export function splitSentences(text: string, abbreviations: readonly string[] = ENGLISH_ABBREVIATIONS): string[] {
  const abbreviated = new Set(abbreviations);
  const capitalises = /\p{Lu}/u.test(text);
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    const candidate = text.slice(start, end).trim();
    const fullStopOnly = /^\.+["'”’)\]]*\s+$/.test(match[0]);
    if (fullStopOnly) {
      const lastWord = /([\p{L}.]+)$/u.exec(candidate.replace(CLOSING, '').replace(/\.$/, ''))?.[1]?.toLowerCase() ?? '';
      if (abbreviated.has(lastWord) || (capitalises && /\p{Ll}/u.test(text.charAt(end)))) continue;
    }
    pieces.push(candidate);
    start = end;
  }
  pieces.push(text.slice(start).trim());
  return pieces.filter((piece) => /[\p{L}\p{N}]/u.test(piece));
}

/** The sentences of every segment, in transcript order (see {@link splitSentences}). */
export function sentencesOf(segments: readonly Segment[], abbreviations: readonly string[] = ENGLISH_ABBREVIATIONS): Sentence[] {
  return segments.flatMap((segment, segmentIndex) => splitSentences(segment.text, abbreviations).map((text) => ({
    segment, segmentIndex, text, isQuestion: /\?["'”’)\]]*$/.test(text),
  })));
}
