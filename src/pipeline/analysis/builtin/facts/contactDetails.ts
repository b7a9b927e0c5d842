import type { AmountWords, EmailWords } from './FactLexicon.js';
import { anyOfWords } from './regexWords.js';

/** An email address found in a sentence. */
export interface EmailMention {
  /** The address, lower case: "john.smith@acme.com" also when spelled "john dot smith at acme dot com". */
  address: string;
  /** As said: a substring of the sentence. */
  text: string;
  index: number;
  /** Said with words for "@" or "." rather than written. */
  spelled: boolean;
}

/** A phone number found in a sentence, as said ("555 0142", "+44 20 7946 0958"). */
export interface PhoneMention {
  text: string;
  index: number;
}

/**
 * Top-level domains a spelled address may end in: "look at acme dot something" is no address.
 * The common generic ones and the country codes of the markets the box is sold in.
 */
const KNOWN_TOP_LEVEL_DOMAINS = new Set([
  'com', 'org', 'net', 'edu', 'gov', 'io', 'co', 'info', 'biz', 'me', 'app', 'dev', 'ai', 'tech', 'online', 'shop', 'email',
  'uk', 'de', 'fr', 'eu', 'es', 'it', 'nl', 'be', 'ch', 'at', 'se', 'no', 'dk', 'fi', 'ie', 'pt', 'pl', 'us', 'ca', 'au', 'nz', 'in', 'jp',
]);

/** A phone number has 7 to 15 digits (E.164 allows at most 15); shorter groups are amounts or references. */
const PHONE_DIGITS = { min: 7, max: 15 } as const;

/**
 * Email addresses in `sentence`: written ("john.smith@acme.com") or spelled with the lexicon's
 * words ("john dot smith at acme dot com", "sales at acme dot co dot uk"). A spelled address
 * counts only when `spellingExpected` (an email cue is near, see `EmailWords.cue`) and its domain
 * ends in a known top-level domain; a written one always counts.
 */
export function findEmails(sentence: string, words: EmailWords, spellingExpected: boolean): EmailMention[] {
  const pattern = emailPattern(words);
  const spoken = (part: string, separators: readonly string[], replacement: string) =>
    part.replace(new RegExp(`\\s+(?:${anyOfWords(separators)})\\s+`, 'gi'), replacement);
  const mentions: EmailMention[] = [];
  for (const match of sentence.matchAll(pattern)) {
    const local = spoken(spoken(spoken(match.groups?.local ?? '', words.dot, '.'), words.underscore, '_'), words.dash, '-');
    const domain = spoken(match.groups?.domain ?? '', words.dot, '.');
    const address = `${local}@${domain}`.replace(/\s+/g, '').toLowerCase();
    const spelled = !match[0].includes('@') || /\s/.test(match[0]);
    const topLevel = domain.split('.').pop()?.toLowerCase() ?? '';
    if (spelled && (!spellingExpected || !KNOWN_TOP_LEVEL_DOMAINS.has(topLevel))) continue;
    mentions.push({ address, text: match[0], index: match.index, spelled });
  }
  return mentions;
}

const emailPatterns = new WeakMap<EmailWords, RegExp>();

/** Written or spelled addresses (`local` and `domain` groups), built once per lexicon. */
function emailPattern(words: EmailWords): RegExp {
  let pattern = emailPatterns.get(words);
  if (!pattern) {
    const label = '[a-z0-9]+';
    const localSeparator = `(?:\\s+(?:${anyOfWords([...words.dot, ...words.underscore, ...words.dash])})\\s+|[._-])`;
    const domainSeparator = `(?:\\s+(?:${anyOfWords(words.dot)})\\s+|\\.)`;
    const at = `(?:\\s+(?:${anyOfWords(words.at)})\\s+|\\s*@\\s*)`;
    pattern = new RegExp(
      `(?<![\\w.@])(?<local>${label}(?:${localSeparator}${label})*)${at}(?<domain>${label}(?:-${label})*(?:${domainSeparator}${label}(?:-${label})*)+)(?![\\w@])`,
      'gi',
    );
    emailPatterns.set(words, pattern);
  }
  return pattern;
}

/**
 * Phone numbers in `sentence`: a run of 7 to 15 digits in groups ("555 0142", "555-0142",
 * "+44 20 7946 0958", "(020) 7946 0958"), when the sentence is about a phone (see
 * `AmountWords.phoneCue`) or the number is unmistakably one (a leading "+" or an area code in
 * brackets). Numbers said as words ("five five five …") are not read.
 */
export function findPhoneNumbers(sentence: string, words: AmountWords): PhoneMention[] {
  const aboutPhone = words.phoneCue.test(sentence);
  const mentions: PhoneMention[] = [];
  for (const match of sentence.matchAll(/(?<![\w$€£¥₹.,+])(?:\+\s?)?\(?\d[\d\s().-]{4,}\d(?![\w%$€£])/g)) {
    const text = match[0];
    const digits = text.replace(/\D/g, '').length;
    const looksLikePhone = text.startsWith('+') || text.startsWith('(');
    if (digits < PHONE_DIGITS.min || digits > PHONE_DIGITS.max) continue;
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) continue; // an ISO date
    if (!aboutPhone && !looksLikePhone) continue;
    mentions.push({ text, index: match.index });
  }
  return mentions;
}
