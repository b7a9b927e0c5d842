import type { Segment } from '../../../../domain/transcripts/transcriptSchema.js';

/** One sentence of one segment: facts are found per sentence and cite the segment. */
export interface Sentence {
  segment: Segment;
  /** Position of the segment in `transcript.segments`. */
  segmentIndex: number;
  /** The sentence as transcribed, trimmed: a substring of `segment.text`. */
  text: string;
  /** Whether it ends with a question mark. */
  isQuestion: boolean;
}

/** A full stop, question or exclamation mark (and closing quotes) followed by blanks. */
const SENTENCE_END = /[.!?]+["')\]]*\s+/g;

/**
 * The sentences of every segment, in transcript order. A segment is split after `.`, `!` or
 * `?` followed by a blank, except after an abbreviation ("Dr. Patel", "a.m."); a dot inside a
 * word ("acme.com", "1.5") is no end.
 */
export function splitSentences(segments: readonly Segment[], abbreviations: readonly string[]): Sentence[] {
  const abbreviated = new Set(abbreviations);
  return segments.flatMap((segment, segmentIndex) => {
    const texts: string[] = [];
    let start = 0;
    for (const end of segment.text.matchAll(SENTENCE_END)) {
      const before = segment.text.slice(start, end.index);
      const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.replace(/\.+$/, '').toLowerCase() ?? '';
      if (end[0].startsWith('.') && abbreviated.has(lastWord)) continue;
      texts.push(segment.text.slice(start, end.index + end[0].trimEnd().length));
      start = end.index + end[0].length;
    }
    texts.push(segment.text.slice(start));
    return texts
      .map((text) => text.trim())
      .filter((text) => /[\p{L}\p{N}]/u.test(text))
      .map((text) => ({ segment, segmentIndex, text, isQuestion: text.endsWith('?') }));
  });
}

/**
 * `text` cut to at most `maxLength` characters at a word boundary, with an ellipsis when cut:
 * the schema's string limits must hold and a cut mid-word reads as a typo.
 */
export function clip(text: string, maxLength: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxLength) return trimmed;
  const room = trimmed.slice(0, maxLength - 1);
  const lastBlank = room.lastIndexOf(' ');
  return `${(lastBlank > maxLength / 2 ? room.slice(0, lastBlank) : room).replace(/[\s,;:.]+$/, '')}…`;
}
