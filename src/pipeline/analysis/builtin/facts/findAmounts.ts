import type { amountKinds } from '../../../../domain/analysis/analysisSchema.js';
import { findPhoneNumbers } from './contactDetails.js';
import { numberWordsSource, parseNumberWords, type NumberWords } from '../../text/numberWords.js';
import type { AmountWords } from './FactLexicon.js';
import { anyOfWords, oncePer } from '../../text/regexWords.js';

/** A number said in a sentence, with what it counts. */
export interface AmountMention {
  /** As said: a substring of the sentence. */
  text: string;
  index: number;
  kind: (typeof amountKinds)[number];
  value: number | null;
  unit: string | null;
  /** ISO 4217 for money, when the symbol or word says which. */
  currency: string | null;
  /** A phone number as dialled (digits when it was said in words). */
  number?: string;
}

/** A number in digits: "1,200", "1200", "2.5". */
const DIGITS = '\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?';


/** One way a number is said: which kind it is and how its groups turn into value, unit and currency. */
interface AmountPattern {
  kind: AmountMention['kind'];
  pattern: RegExp;
  read(groups: Record<string, string | undefined>): Pick<AmountMention, 'value' | 'unit' | 'currency'> | null;
  /** Whether the sentence around a match makes it one (unset: always). */
  inContext?: (sentence: string, index: number, length: number) => boolean;
}

/**
 * The amount patterns of a lexicon, most specific first: a span taken by one is not read again
 * by a later one ("$1,200" is money, not also a quantity).
 */
function amountPatterns(amounts: AmountWords, numbers: NumberWords): AmountPattern[] {
  const number = `(?<num>${DIGITS}|${numberWordsSource(numbers)})`;
  const multiplier = `(?:\\s?(?<mult>${anyOfWords(Object.keys(amounts.multipliers))})(?![a-z]))?`;
  const currencyCodes = [...new Set([...Object.values(amounts.currencyWords), ...Object.values(amounts.currencySymbols)])];
  const valueOf = (groups: Record<string, string | undefined>) => {
    const said = groups.num ?? '';
    const base = /\d/.test(said) ? Number(said.replace(/,/g, '')) : parseNumberWords(said, numbers);
    if (base === null || !Number.isFinite(base)) return null;
    return base * (amounts.multipliers[(groups.mult ?? '').toLowerCase()] ?? 1);
  };
  const money = (currency: string | null) => (groups: Record<string, string | undefined>) => ({ value: valueOf(groups), unit: null, currency });
  return [
    {
      kind: 'money',
      pattern: new RegExp(`(?<symbol>${anyOfWords(Object.keys(amounts.currencySymbols))})\\s?(?<num>${DIGITS})${multiplier}`, 'gi'),
      read: (groups) => money(amounts.currencySymbols[groups.symbol ?? ''] ?? null)(groups),
    },
    {
      kind: 'money',
      pattern: new RegExp(`\\b(?<code>${currencyCodes.join('|')})\\s?(?<num>${DIGITS})${multiplier}`, 'g'),
      read: (groups) => money(groups.code ?? null)(groups),
    },
    {
      kind: 'money',
      // "pounds of flour" is a weight. Cents said after the currency word ("eighty-four euro
      // twenty", "twenty-three dollars fifty", "… dollars and sixty cents") belong to it, unless
      // another unit follows them.
      pattern: new RegExp(`${number}${multiplier}\\s+(?<currency>${anyOfWords(Object.keys(amounts.currencyWords))})\\b(?!\\s+of\\b)`
        + `(?:\\s+(?:and\\s+)?(?<cents>\\d{1,2}|${numberWordsSource(numbers)})(?:\\s+(?:cents?|pence)\\b|\\b(?![\\s-]*(?:percent|per\\s*cent|%|[a-z]+s)\\b)))?`, 'gi'),
      read: (groups) => {
        const base = money(amounts.currencyWords[(groups.currency ?? '').toLowerCase()] ?? null)(groups);
        const cents = groups.cents === undefined ? null : /\d/.test(groups.cents) ? Number(groups.cents) : parseNumberWords(groups.cents, numbers);
        return base.value !== null && cents !== null && cents >= 1 && cents <= 99 ? { ...base, value: Math.round((base.value + cents / 100) * 100) / 100 } : base;
      },
    },
    spokenPrice(amounts, numbers),
    {
      kind: 'percentage',
      pattern: new RegExp(`${number}\\s?(?:${anyOfWords(amounts.percentWords)})(?![a-z])`, 'gi'),
      read: (groups) => ({ value: valueOf(groups), unit: '%', currency: null }),
    },
    {
      kind: 'reference_number',
      pattern: new RegExp(`${amounts.referenceCue.source}(?<ref>[A-Z]{0,4}-?\\d[\\dA-Z-]+[\\dA-Z])`, 'gi'),
      read: (groups) => ({ value: /^\d+$/.test(groups.ref ?? '') ? Number(groups.ref) : null, unit: null, currency: null }),
    },
    {
      kind: 'money',
      pattern: new RegExp(`${number}\\s?(?<mult>${anyOfWords(amounts.moneyMultipliers)})\\b`, 'gi'),
      read: money(null),
    },
    {
      kind: 'duration',
      pattern: new RegExp(`\\b(?<phrase>${anyOfWords(Object.keys(amounts.durationPhrases))})\\b`, 'gi'),
      read: (groups) => {
        const phrase = amounts.durationPhrases[(groups.phrase ?? '').toLowerCase()];
        return phrase ? { value: phrase.value, unit: phrase.unit, currency: null } : null;
      },
    },
    {
      kind: 'duration',
      pattern: new RegExp(`${number}[\\s-]+(?<unit>${anyOfWords(Object.keys(amounts.durationUnits))})\\b`, 'gi'),
      read: (groups) => ({ value: valueOf(groups), unit: amounts.durationUnits[(groups.unit ?? '').toLowerCase()] ?? null, currency: null }),
    },
    {
      kind: 'quantity',
      pattern: new RegExp(`${number}\\s?(?<unit>${anyOfWords(amounts.quantityUnits)})\\b`, 'gi'),
      read: (groups) => ({ value: valueOf(groups), unit: (groups.unit ?? '').toLowerCase(), currency: null }),
    },
  ];
}

/**
 * A price said as two number groups with no currency word, in a price's context (see
 * `AmountWords.spokenPriceBefore`): "one eighty" (a single word first, one to nineteen: hundreds,
 * as a year is said: 180, "seventeen eighty" 1,780), "fifty-four eighty-five", "seventy-one ten"
 * (a tens word first: units and hundredths, 54.85, 71.10). The second group is ten to ninety-nine.
 */
function spokenPrice(amounts: AmountWords, numbers: NumberWords): AmountPattern {
  const ones = anyOfWords(Object.keys(numbers.ones).filter((word) => numbers.ones[word]! >= 1));
  const teensAndUp = anyOfWords(Object.keys(numbers.ones).filter((word) => numbers.ones[word]! >= 10));
  const units = anyOfWords(Object.keys(numbers.ones).filter((word) => numbers.ones[word]! >= 1 && numbers.ones[word]! <= 9));
  const tens = anyOfWords(Object.keys(numbers.tens));
  const pattern = new RegExp(
    // Not the end of a longer number ("a hundred and forty-nine", "five hundred and forty").
    `(?<![\\s-](?:${anyOfWords([...Object.keys(numbers.scales), ...numbers.conjunctions, ...Object.keys(numbers.ones), ...Object.keys(numbers.tens)])})[\\s-]+)`
    + `(?<major>\\b(?:${tens})(?:[\\s-](?:${units}))?\\b|\\b(?:${ones})\\b)\\s+(?<minor>\\b(?:${tens})(?:[\\s-](?:${units}))?\\b|\\b(?:${teensAndUp})\\b)(?![\\s-]+(?:${anyOfWords([...Object.keys(numbers.ones), ...Object.keys(numbers.tens), ...Object.keys(numbers.scales)])}|o['’]?clock|am|pm|a\\.m\\.|p\\.m\\.)\\b)`,
    'gi',
  );
  return {
    kind: 'money',
    pattern,
    read: (groups) => {
      const major = parseNumberWords(groups.major ?? '', numbers);
      const minor = parseNumberWords(groups.minor ?? '', numbers);
      if (major === null || minor === null) return null;
      const value = major < 20 ? major * 100 + minor : Math.round((major + minor / 100) * 100) / 100;
      return { value, unit: null, currency: null };
    },
    inContext: (sentence, index, length) => amounts.spokenPriceBefore.test(sentence.slice(0, index)) || amounts.spokenPriceAfter.test(sentence.slice(index + length)),
  };
}

const patternsOf = oncePer(amountPatterns);

/** A number alone, in digits or words ("seventy-five", "a hundred and sixty", "3450"). */
const loneNumberOf = oncePer((numbers: NumberWords) => new RegExp(`(?<![\\d.,])(?:${DIGITS})(?![\\d.,]*\\d)|${numberWordsSource(numbers)}`, 'gi'));
/** Prices are seldom a single unit: "one" alone is a count ("the first one", "one more thing"). */
const MIN_LONE_PRICE = 2;

/**
 * The money, percentages, reference numbers, phone numbers, durations and quantities said in a
 * sentence, in order of appearance. A bare number ("we spoke 3 times") is not one: it must come
 * with a currency, a unit, a percent word or a reference cue. `value` is null when the words do
 * not form a number. `nearPhoneCue`: the sentence's segment or the one before is about a phone.
 * A number said alone is money where a price is plainly meant: the sentence says a sum of money
 * and the number is said alongside it with no unit ("the check-up is sixty euro and the clean is
 * seventy-five", "twenty dollars a head, so a hundred and sixty all up": the same currency), or a
 * price's words stand around it ("I'll pay the hundred and sixty by Monday"). `taken`: spans read
 * as something else (the sentence's dates and times: "at two forty-five" is a time).
 */
export function findAmounts(sentence: string, amounts: AmountWords, numbers: NumberWords, nearPhoneCue = false, taken: readonly { index: number; text: string }[] = []): AmountMention[] {
  const patterns = patternsOf(amounts, numbers);
  const found: AmountMention[] = [];
  const overlaps = (index: number, length: number) =>
    found.some((taken) => index < taken.index + taken.text.length && taken.index < index + length);
  const phonesAfter = patterns.findIndex((pattern) => pattern.kind === 'reference_number') + 1;
  patterns.forEach((amountPattern, position) => {
    if (position === phonesAfter) {
      for (const phone of findPhoneNumbers(sentence, amounts, numbers, nearPhoneCue)) {
        if (!overlaps(phone.index, phone.text.length)) found.push({ ...phone, kind: 'phone_number', value: null, unit: null, currency: null });
      }
    }
    for (const match of sentence.matchAll(amountPattern.pattern)) {
      const text = match[0].trim();
      if (overlaps(match.index, text.length) || (amountPattern.inContext && !amountPattern.inContext(sentence, match.index, text.length))) continue;
      const read = amountPattern.read(match.groups ?? {});
      if (read) found.push({ text, index: match.index, kind: amountPattern.kind, ...read });
    }
  });
  const currencies = [...new Set(found.filter((amount) => amount.kind === 'money').map((amount) => amount.currency))];
  for (const match of sentence.matchAll(loneNumberOf(numbers))) {
    const text = match[0].trim();
    const index = match.index;
    if (text === '' || overlaps(index, text.length) || taken.some((span) => index < span.index + span.text.length && span.index < index + text.length)) continue;
    const value = /\d/.test(text) ? Number(text.replace(/,/g, '')) : parseNumberWords(text, numbers);
    if (value === null || value < MIN_LONE_PRICE || !amounts.lonePriceFollowers.test(sentence.slice(index + text.length))) continue;
    // "pay the hundred and sixty": a determiner may stand between the price's words and the number.
    const before = sentence.slice(0, index).replace(amounts.lonePriceLeadIns, '');
    const priced = amounts.spokenPriceBefore.test(before) || amounts.spokenPriceAfter.test(sentence.slice(index + text.length));
    if (currencies.length === 1 || priced) found.push({ text, index, kind: 'money', value, unit: null, currency: currencies.length === 1 ? currencies[0]! : null });
  }
  return found.sort((first, second) => first.index - second.index);
}
