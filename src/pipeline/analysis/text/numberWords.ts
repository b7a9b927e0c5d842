/**
 * Numbers said in words, one implementation for the built-in analyser (amounts, phone numbers
 * said digit by digit) and the grounding filter (a number the analysis states in digits is
 * supported when it was said in words). The word tables are per language ({@link NumberWords});
 * English is the default.
 *
 * Two readings: a cardinal ("two thousand five hundred and ten" → 2510, see
 * {@link parseNumberWords}) and a run of digits as phone numbers are said ("oh seven seven
 * hundred, nine hundred, three one five" → `07700900315`, see {@link spokenDigits}).
 */

import { anyOfWords, oncePer } from './regexWords.js';

/** The number words of a language, lower case. */
export interface NumberWords {
  /** zero … nineteen. */
  ones: Readonly<Record<string, number>>;
  /** twenty … ninety. */
  tens: Readonly<Record<string, number>>;
  /** hundred, thousand, million, billion. */
  scales: Readonly<Record<string, number>>;
  /** "a" of "a hundred": one, only before a scale. */
  articles: readonly string[];
  /** "and" of "two hundred and fifty": skipped. */
  conjunctions: readonly string[];
  /** Words that are a digit only inside a run of digits ("oh" of "oh one six one"): never a number alone. */
  digitOnly: Readonly<Record<string, number>>;
  /** Words repeating the next digit ("double five" → 55), only inside a run of digits. */
  repeaters: Readonly<Record<string, number>>;
  /** first … nineteenth, twentieth, thirtieth …: an ordinal, alone or after a tens word ("twenty-fifth"). */
  ordinals: Readonly<Record<string, number>>;
}

export const englishNumberWords: NumberWords = {
  ones: {
    zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
    twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  },
  tens: { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 },
  scales: { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 },
  articles: ['a', 'an'],
  conjunctions: ['and'],
  digitOnly: { oh: 0 },
  repeaters: { double: 2, triple: 3 },
  ordinals: {
    first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11,
    twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19,
    twentieth: 20, thirtieth: 30, fortieth: 40, fiftieth: 50, sixtieth: 60, seventieth: 70, eightieth: 80, ninetieth: 90,
  },
};

/** Digits shorter than this are no run said digit by digit: "five five" may be two answers. */
const MIN_DIGIT_RUN_WORDS = 3;


/**
 * A regular-expression source matching a cardinal said in words (use it with the `i` flag):
 * "fifty", "twelve hundred", "a hundred", "two thousand five hundred and ten". Never a bare
 * scale or article.
 */
export function numberWordsSource(words: NumberWords = englishNumberWords): string {
  const counted = anyOfWords([...Object.keys(words.ones), ...Object.keys(words.tens)]);
  const scales = anyOfWords(Object.keys(words.scales));
  const joiner = `[\\s-]+(?:(?:${words.conjunctions.join('|')})\\s+)?`;
  // Starts with a counted word, or an article before a scale ("a hundred"); a bare scale only
  // when "and" and a counted word follow ("a flat hundred and twenty-nine dollars": 129, not 29).
  const conjunctions = words.conjunctions.join('|');
  const first = `(?:(?:${words.articles.join('|')})(?=\\s+(?:${scales})\\b)|(?:${scales})(?=[\\s-]+(?:${conjunctions})\\s+(?:${counted})\\b)|(?:${counted}))\\b`;
  return `\\b${first}(?:${joiner}(?:${counted}|${scales})\\b)*`;
}

/**
 * A regular-expression source matching a run of number words as digits are said, groups
 * separated by blanks, hyphens or commas ("five five five, oh one four two", "double oh seven").
 * Use it with the `i` flag and read a match with {@link spokenDigits}.
 */
export function spokenDigitRunSource(words: NumberWords = englishNumberWords): string {
  const counted = [...Object.keys(words.ones), ...Object.keys(words.tens), ...Object.keys(words.digitOnly), ...Object.keys(words.repeaters)];
  const scales = Object.keys(words.scales);
  // A run may open with a scale ("hundred") or an article before one ("a hundred"), as a cardinal may.
  const first = `(?:(?:${words.articles.join('|')})\\s+(?=(?:${anyOfWords(scales)})\\b))?(?:${anyOfWords([...counted, ...scales])})`;
  const joiner = `(?:[\\s-]+|,\\s*)(?:(?:${words.conjunctions.join('|')})\\s+)?`;
  return `\\b${first}\\b(?:${joiner}(?:${anyOfWords([...counted, ...scales])})\\b)*`;
}

/** A regular-expression source matching an ordinal said in words ("fifth", "twenty-fifth", "thirty first"); use it with `i`. */
export function ordinalWordsSource(words: NumberWords = englishNumberWords): string {
  const units = Object.entries(words.ordinals).filter(([, value]) => value < 10).map(([word]) => word);
  return `\\b(?:(?:${anyOfWords(Object.keys(words.tens))})[\\s-]+(?:${anyOfWords(units)})|${anyOfWords(Object.keys(words.ordinals))})\\b`;
}

/** The value of an ordinal said in words ("twenty-fifth" → 25), or null. */
export function parseOrdinalWords(text: string, words: NumberWords = englishNumberWords): number | null {
  const tokens = tokensOf(text);
  const last = words.ordinals[tokens.at(-1) ?? ''];
  if (last === undefined || tokens.length > 2) return null;
  if (tokens.length === 1) return last;
  const ten = words.tens[tokens[0]!];
  return ten !== undefined && last < 10 ? ten + last : null;
}

const tokensOf = (text: string) => text.toLowerCase().split(/[\s,-]+/).filter(Boolean);

/**
 * The value of words matched by {@link numberWordsSource}, or null when they do not form one
 * number ("five six", "one and two").
 */
export function parseNumberWords(text: string, words: NumberWords = englishNumberWords): number | null {
  return cardinalOf(tokensOf(text), words);
}

function cardinalOf(tokens: readonly string[], words: NumberWords): number | null {
  let total = 0;
  let current = 0;
  let previous: 'start' | 'one' | 'ten' | 'scale' | 'conjunction' = 'start';
  for (const token of tokens) {
    const one = words.ones[token];
    const ten = words.tens[token];
    const scale = words.scales[token];
    if (one !== undefined) {
      // "twenty five" adds; "five six" is two numbers.
      if (previous === 'one' || (previous === 'ten' && one >= 10)) return null;
      current += one;
      previous = 'one';
    } else if (ten !== undefined) {
      if (previous === 'one' || previous === 'ten') return null;
      current += ten;
      previous = 'ten';
    } else if (scale !== undefined) {
      // "twelve hundred" multiplies; "seven hundred nine hundred" is two numbers.
      if (scale < 1_000 && (current >= scale || previous === 'scale')) return null;
      if (scale < 1_000) current = (current || 1) * scale;
      else {
        total += (current || 1) * scale;
        current = 0;
      }
      previous = 'scale';
    } else if (words.articles.includes(token) && previous === 'start') {
      current = 1;
    } else if (words.conjunctions.includes(token) && previous === 'scale') {
      previous = 'conjunction';
    } else return null;
  }
  return previous === 'start' ? null : total + current;
}

/**
 * The digits of a number said group by group, as phone numbers and references are said: each
 * group is the longest run of words forming one cardinal, written out ("seven hundred" → 700),
 * a digit-only word is its digit ("oh" → 0) and a repeater repeats the next group ("double
 * five" → 55). A comma, and a hundred not followed by "and", close a group. "oh seven seven
 * hundred, nine hundred, three one five" → `07700900315`; "twenty twenty six" → `2026`. Null
 * when a word is no number word.
 */
export function spokenDigits(text: string, words: NumberWords = englishNumberWords): string | null {
  let digits = '';
  for (const part of groupsOf(text, words)) {
    let repeat = 1;
    for (let start = 0; start < part.length;) {
      const token = part[start]!;
      if (words.repeaters[token] !== undefined) {
        repeat = words.repeaters[token]!;
        start += 1;
        continue;
      }
      const [group, length] = longestGroupAt(part, start, words);
      if (group === null) return null;
      digits += group.repeat(repeat);
      repeat = 1;
      start += length;
    }
  }
  return digits === '' ? null : digits;
}

/** The tokens of `text` cut where a group must end, conjunctions dropped. */
function groupsOf(text: string, words: NumberWords): string[][] {
  const parts: string[][] = [];
  for (const piece of text.toLowerCase().split(',')) {
    const tokens = tokensOf(piece);
    let part: string[] = [];
    tokens.forEach((token, index) => {
      if (!words.conjunctions.includes(token)) part.push(token);
      const scale = words.scales[token];
      if (scale !== undefined && scale < 1_000 && !words.conjunctions.includes(tokens[index + 1] ?? '')) {
        parts.push(part);
        part = [];
      }
    });
    parts.push(part);
  }
  return parts.filter((part) => part.length > 0);
}

/** The digits of the longest group starting at `start`, and how many tokens it takes; null when none. */
function longestGroupAt(tokens: readonly string[], start: number, words: NumberWords): [string | null, number] {
  const digit = words.digitOnly[tokens[start]!];
  if (digit !== undefined) return [String(digit), 1];
  for (let end = tokens.length; end > start; end--) {
    const value = cardinalOf(tokens.slice(start, end), words);
    if (value !== null) return [String(value), end - start];
  }
  return [null, 0];
}

/**
 * The digits a run of number words stands for: its value when it is one cardinal ("two
 * thousand five hundred" → `2500`), else its digits group by group ({@link spokenDigits}: "five
 * five five oh one four two" → `5550142`), leading zeros kept. Null when it is neither.
 */
export function numberWordsAsDigits(run: string, words: NumberWords = englishNumberWords): string | null {
  const cardinal = parseNumberWords(run, words);
  return cardinal !== null ? String(cardinal) : spokenDigits(run, words);
}

/** Whether a run of number words is said digit by digit (at least three groups, or a digit-only word or repeater in it). */
export function isSpokenDigitRun(run: string, words: NumberWords = englishNumberWords): boolean {
  const tokens = tokensOf(run);
  return parseNumberWords(run, words) === null
    && (tokens.length >= MIN_DIGIT_RUN_WORDS || tokens.some((token) => token in words.digitOnly || token in words.repeaters))
    && spokenDigits(run, words) !== null;
}

const digitRunPattern = oncePer((words: NumberWords) => new RegExp(spokenDigitRunSource(words), 'gi'));

/** `text` with each run of number words replaced by its digits ("call five five five" → "call 555"). */
export function withNumberWordsAsDigits(text: string, words: NumberWords = englishNumberWords): string {
  return text.replace(digitRunPattern(words), (run) => numberWordsAsDigits(run, words) ?? run);
}

/** Only the digits of `text`. */
export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}
