import type { AmountWords, EmailWords } from './FactLexicon.js';
import { digitsOf, englishNumberWords, isSpokenDigitRun, spokenDigitRunSource, spokenDigits, type NumberWords } from '../../text/numberWords.js';
import { anyOfWords, oncePer } from '../../text/regexWords.js';

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

/** A phone number found in a sentence. */
export interface PhoneMention {
  /** As said: "555 0142", "+44 20 7946 0958", "oh seven seven hundred, nine hundred, three one five". */
  text: string;
  index: number;
  /** As dialled: the text when written in digits, the digits when said in words (`07700900315`). */
  number: string;
}

/**
 * Top-level domains a spelled address may end in: "look at acme dot something" is no address.
 * The common generic ones and the country codes of the markets the box is sold in.
 */
const KNOWN_TOP_LEVEL_DOMAINS = new Set([
  'com', 'org', 'net', 'edu', 'gov', 'io', 'co', 'info', 'biz', 'me', 'app', 'dev', 'ai', 'tech', 'online', 'shop', 'email',
  'uk', 'de', 'fr', 'eu', 'es', 'it', 'nl', 'be', 'ch', 'at', 'se', 'no', 'dk', 'fi', 'ie', 'pt', 'pl', 'us', 'ca', 'au', 'nz', 'in', 'jp',
]);

/** A spelled domain name may be said as this many words ("landmark lettings dot co dot uk"). */
const MAX_DOMAIN_WORDS = 3;

/** A phone number has 7 to 15 digits (E.164 allows at most 15); shorter groups are amounts or references. */
const PHONE_DIGITS = { min: 7, max: 15 } as const;

/**
 * Email addresses in `sentence`: written ("john.smith@acme.com") or spelled with the lexicon's
 * words ("john dot smith at acme dot com", "sales at acme dot co dot uk"); spelled initials and
 * a domain said in words are written together ("r singh at landmark lettings dot co dot uk" →
 * `rsingh@landmarklettings.co.uk`), and numbers said after the name are its digits ("greg dot
 * tan seventy-seven at bigpond dot com" → `greg.tan77@bigpond.com`). A spelled address
 * counts only when `spellingExpected` (an email cue is near, see `EmailWords.cue`) and its domain
 * ends in a known top-level domain; a written one always counts.
 */
export function findEmails(sentence: string, words: EmailWords, spellingExpected: boolean): EmailMention[] {
  const pattern = emailPattern(words);
  const spoken = (part: string, separators: readonly string[], replacement: string) =>
    part.replace(new RegExp(`\\s+(?:${anyOfWords(separators)})\\s+`, 'gi'), replacement);
  const mentions: EmailMention[] = [];
  for (const match of sentence.matchAll(pattern)) {
    // Numbers said after the name ("greg dot tan seventy-seven", "d whitaker eight eight") are its digits.
    const trailing = match.groups?.digits ? spokenDigits(match.groups.digits) ?? '' : '';
    const local = spoken(spoken(spoken(match.groups?.local ?? '', words.dot, '.'), words.underscore, '_'), words.dash, '-') + trailing;
    const domain = spoken(match.groups?.domain ?? '', words.dot, '.');
    const address = `${local}@${domain}`.replace(/\s+/g, '').toLowerCase();
    const spelled = !match[0].includes('@') || /\s/.test(match[0]);
    const topLevel = domain.split('.').pop()?.toLowerCase() ?? '';
    if (spelled && (!spellingExpected || !KNOWN_TOP_LEVEL_DOMAINS.has(topLevel))) continue;
    mentions.push({ address, text: match[0], index: match.index, spelled });
  }
  return mentions;
}

/** Written or spelled addresses (`local` and `domain` groups), built once per lexicon. */
const emailPattern = oncePer((words: EmailWords): RegExp => {
  const label = '[a-z0-9]+';
  const localSeparator = `(?:\\s+(?:${anyOfWords([...words.dot, ...words.underscore, ...words.dash])})\\s+|[._-])`;
  const domainSeparator = `(?:\\s+(?:${anyOfWords(words.dot)})\\s+|\\.)`;
  const at = `(?:\\s+(?:${anyOfWords(words.at)})\\s+|\\s*@\\s*)`;
  // Spelled initials before the name ("r singh") and a domain said in words ("landmark lettings dot co dot uk") are written together.
  const initials = '(?:[a-z]\\s+){0,3}';
  const domainWords = `${label}(?:\\s+${label}){0,${MAX_DOMAIN_WORDS - 1}}`;
  const { ones, tens } = englishNumberWords;
  const numberWord = `(?:${anyOfWords(Object.keys(tens))})(?:-(?:${anyOfWords(Object.keys(ones))}))?|${anyOfWords(Object.keys(ones))}`;
  return new RegExp(
    `(?<![\\w.@'’])(?<local>${initials}${label}(?:${localSeparator}${label})*?)(?<digits>(?:\\s+(?:${numberWord}))+)?${at}(?<domain>${domainWords}(?:-${label})*(?:${domainSeparator}${label}(?:-${label})*)+)(?![\\w@])`,
    'gi',
  );
});

/**
 * Phone numbers in `sentence`: a run of 7 to 15 digits in groups ("555 0142", "555-0142",
 * "+44 20 7946 0958", "(020) 7946 0958"), or said in words digit by digit or in groups ("five
 * five five, oh one four two", "oh seven seven hundred, nine hundred …": see `spokenDigits`),
 * when the sentence is about a phone (see `AmountWords.phoneCue`; `nearPhoneCue` when its
 * neighbourhood is) or the number is unmistakably one (a leading "+" or an area code in brackets).
 */
export function findPhoneNumbers(sentence: string, words: AmountWords, numbers: NumberWords = englishNumberWords, nearPhoneCue = false): PhoneMention[] {
  const aboutPhone = nearPhoneCue || words.phoneCue.test(sentence);
  const mentions: PhoneMention[] = [];
  const isPhoneLength = (digits: string) => digits.length >= PHONE_DIGITS.min && digits.length <= PHONE_DIGITS.max;
  for (const match of sentence.matchAll(/(?<![\w$€£¥₹.,+])(?:\+\s?)?\(?\d[\d\s().-]{4,}\d(?![\w%$€£])/g)) {
    const text = match[0];
    const looksLikePhone = text.startsWith('+') || text.startsWith('(');
    if (!isPhoneLength(digitsOf(text))) continue;
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) continue; // an ISO date
    if (!aboutPhone && !looksLikePhone) continue;
    mentions.push({ text, index: match.index, number: text });
  }
  if (!aboutPhone) return mentions;
  for (const match of sentence.matchAll(spokenRunPattern(numbers))) {
    const text = match[0].replace(/[\s,-]+$/, '');
    const digits = isSpokenDigitRun(text, numbers) ? spokenDigits(text, numbers) : null;
    if (digits !== null && isPhoneLength(digits)) mentions.push({ text, index: match.index, number: digits });
  }
  return mentions.sort((first, second) => first.index - second.index);
}

const spokenRunPattern = oncePer((numbers: NumberWords) => new RegExp(spokenDigitRunSource(numbers), 'gi'));
