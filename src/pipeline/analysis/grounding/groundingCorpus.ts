import * as chrono from 'chrono-node';
import type { CallMetadata } from '../../../domain/calls/callTypes.js';
import type { Transcript } from '../../../domain/transcripts/transcriptSchema.js';
import { calendarDateIn, zoneOffsetMinutes } from '../text/timeZones.js';
import { digitsOf, withNumberWordsAsDigits } from '../text/numberWords.js';
import { splitSentences } from '../text/sentences.js';
import { findCallDateMentions } from '../builtin/facts/findDateMentions.js';
import { lexiconFor } from '../builtin/facts/lexiconFor.js';

/**
 * Everything an analysis may state, in forms that are quick to look things up in: what was said
 * (every segment), what the upload said (metadata), and the names on the speakers (which come
 * from the user's profile and the metadata). Built once per call.
 */
export interface GroundingCorpus {
  /** All of it, lower-cased, one line per source. */
  text: string;
  /** Lower-cased words (letters, digits, apostrophes). */
  words: ReadonlySet<string>;
  /** Per source line, its digits only, number words turned into digits first ("five five five" → 555). */
  digitRuns: readonly string[];
  /** Spoken emails made literal: "j dot morales at acme dot com" → "j.morales@acme.com" (lower-case, spaces removed). */
  spelledEmails: string;
  /** Calendar dates (`YYYY-MM-DD`) that a date expression in the call or the metadata resolves to. */
  dates: ReadonlySet<string>;
  /** Segment ids that exist. */
  segmentIds: ReadonlySet<string>;
  /** Speaker ids that exist. */
  speakerIds: ReadonlySet<string>;
}

/** Metadata fields whose values may be quoted: the rest (direction, duration) states nothing nameable. */
const quotableMetadata = ['title', 'contactName', 'contactId', 'phoneNumber', 'organization'] as const;

export function buildGroundingCorpus(
  transcript: Transcript, metadata: CallMetadata, recordedAt: number, timeZone: string, options: { dates?: boolean } = {},
): GroundingCorpus {
  const lines = [
    ...transcript.segments.map((segment) => segment.text),
    ...quotableMetadata.map((field) => metadata[field]).filter((value): value is string => typeof value === 'string'),
    ...transcript.speakers.flatMap((speaker) => [speaker.label, speaker.displayName]),
  ];
  const text = lines.join('\n').toLowerCase();
  return {
    text,
    words: wordsOf(text),
    digitRuns: lines.map((line) => digitsOf(withNumberWordsAsDigits(line))).filter((digits) => digits.length > 0),
    // Also with number words as digits: "greg dot tan seventy-seven at bigpond dot com" is greg.tan77@bigpond.com.
    spelledEmails: lines.flatMap((line) => [spokenEmailsMadeLiteral(line), spokenEmailsMadeLiteral(withNumberWordsAsDigits(line))]).join('\n'),
    // Reading every date of the call is the costly part; a check of text without ISO dates skips it (`dates: false`).
    dates: options.dates === false ? new Set<string>() : datesSaid(transcript.segments.map((segment) => segment.text), transcript.language, metadata, recordedAt, timeZone),
    segmentIds: new Set(transcript.segments.map((segment) => segment.id)),
    speakerIds: new Set(transcript.speakers.map((speaker) => speaker.speakerId)),
  };
}

/** The words of the text, also without a possessive ending ("rosa's" → "rosa") and split at hyphens ("wi-fi" → "wi", "fi"). */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}'’-]+/gu) ?? []) {
    const bare = word.replace(/['’]s$/, '').replace(/['’]$/, '');
    for (const form of [word, bare, ...bare.split('-')]) if (form) words.add(form);
  }
  return words;
}

/** "J dot Morales at ACME dot com" → "j.morales@acme.com"; other text loses its spaces too (only used for `includes`). */
function spokenEmailsMadeLiteral(line: string): string {
  return line.toLowerCase()
    .replace(/\s+(?:at)\s+/g, '@')
    .replace(/\s+(?:dot)\s+/g, '.')
    .replace(/\s+(?:underscore)\s+/g, '_')
    .replace(/\s+(?:dash|hyphen)\s+/g, '-')
    .replace(/\s+/g, '');
}

/**
 * The dates the call speaks of: what the built-in analyser's date reader (chrono-node plus
 * spoken ordinals, times in words and relative anchors, "the day before") resolves in each
 * sentence, what chrono-node alone reads looking backwards too ("on March 3rd" said on March 4th
 * may mean either), the recording date itself and the metadata's `recordedAt`.
 */
function datesSaid(texts: readonly string[], language: string, metadata: CallMetadata, recordedAt: number, timeZone: string): Set<string> {
  const dates = new Set<string>([calendarDateIn(new Date(recordedAt), timeZone)]);
  if (metadata.recordedAt) dates.add(calendarDateIn(new Date(metadata.recordedAt), timeZone));
  const offsetMinutes = zoneOffsetMinutes(timeZone, new Date(recordedAt));
  const clock = { recordedAt, timeZone, offsetMinutes };
  const { lexicon } = lexiconFor(language);
  // In call order, so "the day before" is read against the day said before it, as the analyser reads it.
  for (const mentions of findCallDateMentions(texts.flatMap((text) => splitSentences(text)), clock, lexicon.dates)) {
    for (const mention of mentions) if (mention.date) dates.add(mention.date);
  }
  for (const text of texts) {
    for (const result of chrono.parse(text, { instant: new Date(recordedAt), timezone: offsetMinutes }, { forwardDate: false })) {
      for (const moment of [result.start, result.end]) if (moment) dates.add(calendarDateIn(moment.date(), timeZone));
    }
  }
  return dates;
}
