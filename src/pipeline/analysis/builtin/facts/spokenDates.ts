import { anyOfWords, escapeRegExp, oncePer } from '../../text/regexWords.js';
import { numberWordsSource, ordinalWordsSource, parseNumberWords, parseOrdinalWords, type NumberWords } from '../../text/numberWords.js';
import type { DateWords } from './FactLexicon.js';

/**
 * A sentence with the times and days said in words written in digits, so that chrono reads
 * them ("at ten fifteen" → "at 10:15", "half past eight" → "8:30", "at half two" → "at 2:30", "Wednesday the twenty-fifth"
 * → "Wednesday the 25th"), and where each of its characters stands in the sentence as said: a
 * mention found in the rewritten text is cited as said.
 */
export interface DigitWritten {
  text: string;
  /** Where a span of `text` starting at `index` starts in the sentence as said. */
  startIn(index: number): number;
  /** Where a span of `text` ending before `index` ends in the sentence as said. */
  endIn(index: number): number;
}

interface Replacement {
  index: number;
  length: number;
  text: string;
}

const HOURS_ON_A_CLOCK = 12;
const MINUTES_PER_HOUR = 60;
const MAX_DAY_OF_MONTH = 31;

/** The patterns of a lexicon pair, built once (keyed by the date words; the number words are the language's). */
const patternsOf = oncePer((words: DateWords, numbers: NumberWords) => {
  const clockHours = Object.entries(numbers.ones).filter(([, value]) => value >= 1 && value <= HOURS_ON_A_CLOCK).map(([word]) => word);
  const digits = Object.entries(numbers.ones).filter(([, value]) => value >= 1 && value <= 9).map(([word]) => word);
  const zero = Object.keys(numbers.digitOnly);
  const hour = anyOfWords(clockHours);
  // "ten fifteen", "ten oh five", "two forty-five": a clock hour and its minutes.
  const minutes = `(?:(?:${anyOfWords(zero)})\\s+(?:${anyOfWords(digits)})|${numberWordsSource(numbers)})`;
  const fractions = anyOfWords(Object.keys(words.hourFractions.minutes));
  const direction = anyOfWords([...words.hourFractions.past, ...words.hourFractions.to]);
  const minuteUnits = anyOfWords(words.hourFractions.minuteUnits);
  return {
    time: new RegExp(
      // A day said just before needs no preposition: "Thursday, half eight", "tomorrow ten thirty".
      // "Move you to twelve thirty", "I can do half four": after a word of `clockOnlyPrepositions`,
      // only a time that cannot be a count (an hour with its minutes, "half four", "quarter past six").
      `\\b(?<prep>${anyOfWords(words.timePrepositions)}|(?:${anyOfWords(words.clockOnlyPrepositions)})`
      + `(?=\\s+(?:(?:${hour})[\\s-]+(?:${minutes})|(?:${anyOfWords(words.halfPastBefore)})\\s+(?:${hour})|(?:(?:${anyOfWords(words.hourFractions.articles)})\\s+)?(?:${fractions})\\s+(?:${direction}))\\b)|`
      + `(?:${anyOfWords([...words.weekdays, ...words.daysBeforeTime])}),?)\\s+(?:(?:(?:${anyOfWords(words.hourFractions.articles)})\\s+)?(?<fraction>${fractions})\\s+(?<direction>${direction})\\s+(?<fractionHour>${hour})`
      // "ten past four", "twenty-five minutes to six": a count of minutes before or after the hour.
      + `|(?<counted>${numberWordsSource(numbers)})(?:\\s+(?:${minuteUnits}))?\\s+(?<countedDirection>${direction})\\s+(?<countedHour>${hour})`
      + `|(?<half>${anyOfWords(words.halfPastBefore)})\\s+(?<halfHour>${hour})`
      + `|(?<hour>${hour})(?:[\\s-]+(?<minutes>${minutes}))?)\\b`,
      'gi',
    ),
    ordinal: new RegExp(`\\b(?:(?<weekday>${anyOfWords(words.weekdays)}),?\\s+)?the\\s+(?<ordinal>${ordinalWordsSource(numbers)})`, 'gi'),
  };
});

/** "10:15", or "10" for a whole hour (chrono reads "at 10" with the lexicon's bare-hour rule), "10:00" when `withMinutes`. */
function clockText(hour: number, minute: number, withMinutes = false): string {
  return minute === 0 && !withMinutes ? String(hour) : `${hour}:${String(minute).padStart(2, '0')}`;
}

/** A time said in words after a time preposition, in digits; null when it is none. */
function timeInDigits(groups: Record<string, string | undefined>, words: DateWords, numbers: NumberWords): string | null {
  if (groups.fraction !== undefined || groups.counted !== undefined) {
    const hour = parseNumberWords(groups.fractionHour ?? groups.countedHour ?? '', numbers);
    const minutes = groups.fraction !== undefined ? words.hourFractions.minutes[groups.fraction.toLowerCase()] : parseNumberWords(groups.counted ?? '', numbers) ?? undefined;
    if (hour === null || minutes === undefined || minutes <= 0 || minutes >= MINUTES_PER_HOUR) return null;
    const before = words.hourFractions.to.includes((groups.direction ?? groups.countedDirection ?? '').toLowerCase());
    if (!before) return clockText(hour, minutes);
    return clockText(hour === 1 ? HOURS_ON_A_CLOCK : hour - 1, MINUTES_PER_HOUR - minutes);
  }
  if (groups.half !== undefined) {
    const halfHour = parseNumberWords(groups.halfHour ?? '', numbers);
    return halfHour === null ? null : clockText(halfHour, MINUTES_PER_HOUR / 2);
  }
  const hour = parseNumberWords(groups.hour ?? '', numbers);
  if (hour === null) return null;
  // "out by seven": a whole hour after one of `wholeHourPrepositions` is a clock time ("by 7:00",
  // which chrono reads); after "at" chrono reads the bare hour itself, after "for" it is a count ("for two").
  if (groups.minutes === undefined) return words.wholeHourPrepositions.includes((groups.prep ?? '').toLowerCase()) ? clockText(hour, 0, true) : String(hour);
  const minute = parseNumberWords(groups.minutes.replace(new RegExp(`^(?:${anyOfWords(Object.keys(numbers.digitOnly))})\\s+`, 'i'), ''), numbers);
  return minute !== null && minute > 0 && minute < MINUTES_PER_HOUR ? clockText(hour, minute) : null;
}

/** "1st", "2nd", "3rd", "25th". */
function ordinalSuffixed(day: number): string {
  const lastTwo = day % 100;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

/** `DateWords.dayPartWords`' words, any of them, compiled once per lexicon. */
const dayPartWordPattern = oncePer((words: DateWords) => new RegExp(`\\b(?:${Object.keys(words.dayPartWords).map(escapeRegExp).join('|') || '(?!)'})\\b`, 'gi'));

/**
 * The sentence with times said in words after a time preposition ("at ten fifteen", "at half
 * past eight", "by quarter to six") and ordinal days of the month said in words ("the
 * twenty-fifth", after a weekday or before an {@link DateWords.ordinalDayFollowers} word) in
 * digits, and a part of the day said in another word as the usual one ("this arvo" → "this
 * afternoon", see {@link DateWords.dayPartWords}), and a rate ("twice a day") left out. Everything else is left as said.
 */
export function withSpokenDatesInDigits(sentence: string, words: DateWords, numbers: NumberWords): DigitWritten {
  const patterns = patternsOf(words, numbers);
  const replacements: Replacement[] = [];
  for (const match of sentence.matchAll(patterns.time)) {
    const groups = match.groups ?? {};
    const spoken = match[0].slice((groups.prep ?? '').length).trimStart();
    if (/^\d/.test(spoken)) continue;
    // "up by two percent", "until two people are free": a count, not a clock.
    if (groups.hour !== undefined && groups.minutes === undefined && words.countFollowers.test(sentence.slice(match.index + match[0].length))) continue;
    const digits = timeInDigits(groups, words, numbers);
    if (digits !== null) replacements.push({ index: match.index + match[0].length - spoken.length, length: spoken.length, text: digits });
  }
  for (const match of sentence.matchAll(patterns.ordinal)) {
    const said = match.groups?.ordinal ?? '';
    const day = parseOrdinalWords(said, numbers);
    const end = match.index + match[0].length;
    if (day === null || day > MAX_DAY_OF_MONTH) continue;
    // A day of the month: after a weekday, before a word that follows days ("the fifth at ten"),
    // or after "on" when no noun follows ("I'll take it on the tenth if that suits", not "on the
    // second floor").
    const rest = sentence.slice(end);
    const afterOn = /\bon\s+$/i.test(sentence.slice(0, match.index))
      && (!/^\s+[a-z]/i.test(rest) || /^\s+(?:if|but|so|when|because|as|unless|then|instead|please)\b/i.test(rest));
    if (match.groups?.weekday === undefined && !afterOn && !words.ordinalDayFollowers.test(sentence.slice(end))) continue;
    replacements.push({ index: end - said.length, length: said.length, text: ordinalSuffixed(day) });
  }
  // "twice a day from Saturday": the rate is read as nothing, so "a day from" counts no day.
  for (const match of sentence.matchAll(words.frequency)) replacements.push({ index: match.index, length: match[0].length, text: '' });
  for (const match of sentence.matchAll(dayPartWordPattern(words))) {
    replacements.push({ index: match.index, length: match[0].length, text: words.dayPartWords[match[0].toLowerCase()]! });
  }
  return rewritten(sentence, replacements);
}

/** `text` with the (non-overlapping) replacements made, and the way back to positions in `text`. */
function rewritten(text: string, replacements: readonly Replacement[]): DigitWritten {
  const sorted = [...replacements].sort((first, second) => first.index - second.index)
    .filter((replacement, position, all) => position === 0 || replacement.index >= all[position - 1]!.index + all[position - 1]!.length);
  let output = '';
  // Per character of the output: where it starts and ends in `text` (a replacement's characters span all of it).
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  const copyUpTo = (stop: number) => {
    for (; at < stop; at++) {
      starts.push(at);
      ends.push(at + 1);
      output += text[at];
    }
  };
  for (const replacement of sorted) {
    copyUpTo(replacement.index);
    for (const character of replacement.text) {
      starts.push(replacement.index);
      ends.push(replacement.index + replacement.length);
      output += character;
    }
    at = replacement.index + replacement.length;
  }
  copyUpTo(text.length);
  return {
    text: output,
    startIn: (index) => (index >= starts.length ? text.length : starts[Math.max(0, index)]!),
    endIn: (index) => (index <= 0 ? 0 : ends[Math.min(index, ends.length) - 1]!),
  };
}
