import type { TranscribedWord } from '../speechTypes.js';
import { redactionKinds, redactionPlaceholders, type RedactionKind } from './redactionKinds.js';
import { coreOf, digitRuns, passesLuhn, spokenUnitDigit, trailingPunctuationOf, type DigitEntry } from './spokenDigits.js';

/** One stretch of the call that was redacted: seconds of the call's timeline, as the words said it. */
export interface RedactedSpan {
  kind: RedactionKind;
  startSeconds: number;
  endSeconds: number;
}

export interface WordRedaction {
  /** The words with each found span replaced by one placeholder word (`[CARD]`) over the span's time. */
  words: TranscribedWord[];
  /** The spans, in time order (for the audio tone). */
  spans: RedactedSpan[];
  /** Spans found per kind asked for (0 when none). */
  counts: Partial<Record<RedactionKind, number>>;
}

/** A span of word indexes (inclusive) a detector claims. */
interface Claim {
  kind: RedactionKind;
  first: number;
  last: number;
}

/** How many words before a span a cue ("SSN", "born", "phone") may be said. */
const cueWindowWords = 8;

/**
 * Finds the kinds asked for in the recognised words and replaces each span by its placeholder.
 * Pure: the same words and kinds give the same result. Kinds are looked for in a fixed order
 * (cards first: a card number is never left to a weaker rule), and a word belongs to one span.
 */
export function redactWords(words: readonly TranscribedWord[], kinds: readonly RedactionKind[]): WordRedaction {
  const cores = words.map((word) => coreOf(word.text));
  const claimedBy: (Claim | undefined)[] = Array.from({ length: words.length });
  const claims: Claim[] = [];
  const claim = (kind: RedactionKind, first: number, last: number) => {
    const entry = { kind, first, last };
    claims.push(entry);
    for (let index = first; index <= last; index += 1) claimedBy[index] = entry;
  };
  const isClaimed = (index: number) => claimedBy[index] !== undefined;
  const context: DetectorContext = { cores, texts: words.map((word) => word.text), isClaimed, claim };
  for (const kind of redactionKinds) if (kinds.includes(kind)) detectors[kind](context);

  claims.sort((a, b) => a.first - b.first);
  const redacted: TranscribedWord[] = [];
  const spans: RedactedSpan[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const found = claimedBy[index];
    if (!found) {
      redacted.push(words[index]!);
      continue;
    }
    const spanWords = words.slice(found.first, found.last + 1);
    const startSeconds = Math.min(...spanWords.map((word) => word.startSeconds));
    const endSeconds = Math.max(...spanWords.map((word) => word.endSeconds));
    redacted.push({
      text: `${redactionPlaceholders[found.kind]}${trailingPunctuationOf(words[found.last]!.text)}`,
      startSeconds,
      endSeconds,
      probability: Math.min(...spanWords.map((word) => word.probability)),
    });
    spans.push({ kind: found.kind, startSeconds, endSeconds });
    index = found.last;
  }
  const counts: Partial<Record<RedactionKind, number>> = {};
  for (const kind of redactionKinds) if (kinds.includes(kind)) counts[kind] = claims.filter((entry) => entry.kind === kind).length;
  return { words: redacted, spans, counts };
}

interface DetectorContext {
  /** Each word's lower-cased text without surrounding punctuation. */
  cores: readonly string[];
  /** Each word as recognised (IBAN letters are told from ordinary words by their capitals). */
  texts: readonly string[];
  isClaimed(index: number): boolean;
  claim(kind: RedactionKind, first: number, last: number): void;
}

const detectors: Record<RedactionKind, (context: DetectorContext) => void> = {
  card: findCards,
  iban: findBankAccounts,
  national_id: findNationalIds,
  date_of_birth: findDatesOfBirth,
  email: findEmails,
  phone: findPhones,
};

const runsOf = (context: DetectorContext) => digitRuns(context.cores, context.isClaimed);
const digitCount = (entries: readonly DigitEntry[]) => entries.reduce((total, entry) => total + entry.digits.length, 0);

/** Whether a cue matches the words just before `index` (within {@link cueWindowWords}). */
function cueBefore(context: DetectorContext, index: number, cue: RegExp, window = cueWindowWords): boolean {
  const text = context.cores.slice(Math.max(0, index - window), index).join(' ');
  return cue.test(text);
}

/** Card numbers: 13–19 digits in a row (written or spoken, grouped or not) that pass the Luhn check; the longest from each start. */
function findCards(context: DetectorContext): void {
  for (const run of runsOf(context)) {
    let start = 0;
    while (start < run.length) {
      let digits = '';
      let best: number | undefined;
      for (let end = start; end < run.length; end += 1) {
        digits += run[end]!.digits;
        if (digits.length > 19) break;
        if (digits.length >= 13 && passesLuhn(digits)) best = end;
      }
      if (best === undefined) {
        start += 1;
        continue;
      }
      context.claim('card', run[start]!.startIndex, run[best]!.endIndex);
      start = best + 1;
    }
  }
}

/** IBAN lengths by country (the IBAN registry): the length check rules out almost every chance match of mod-97. */
const ibanLengths: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28,
  CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18,
  GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32,
  LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24,
  PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** Whether an upper-case candidate is an IBAN: known country, its length, mod 97 = 1 (ISO 13616). */
export function isIban(candidate: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(candidate) || ibanLengths[candidate.slice(0, 2)] !== candidate.length) return false;
  const rearranged = candidate.slice(4) + candidate.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = character >= 'A' ? String(character.charCodeAt(0) - 55) : character;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Bank cues before a plain account number (digits only); IBANs need none. */
const bankCue = /\b(account|acct|sort code|routing|iban|bsb|bank)\b/;

/** IBANs (written or spelled out, grouped or not, mod-97 valid) and account numbers said after a bank cue (6–20 digits). */
function findBankAccounts(context: DetectorContext): void {
  const { cores } = context;
  for (let start = 0; start < cores.length; start += 1) {
    if (context.isClaimed(start) || !/^[a-z]/.test(cores[start]!)) continue;
    let candidate = '';
    for (let end = start; end < cores.length && end < start + 40 && !context.isClaimed(end); end += 1) {
      const part = ibanPart(cores[end]!, context.texts[end]!, end === start ? 'first' : 'later');
      if (part === undefined) break;
      candidate += part;
      if (candidate.length > 34) break;
      if (isIban(candidate)) {
        context.claim('iban', start, end);
        start = end;
        break;
      }
    }
  }
  for (const run of runsOf(context)) {
    const count = digitCount(run);
    if (count >= 6 && count <= 20 && cueBefore(context, run[0]!.startIndex, bankCue)) context.claim('iban', run[0]!.startIndex, run.at(-1)!.endIndex);
  }
}

/**
 * What a word adds to an IBAN being read: its letters and digits upper-cased. After the first
 * word only code-like words count (a spoken digit, a single letter, capitals or a digit in it),
 * so ordinary words after "is 20" never make one up.
 */
function ibanPart(core: string, text: string, position: 'first' | 'later'): string | undefined {
  const spoken = spokenUnitDigit(core);
  if (spoken !== undefined && core !== 'o') return spoken;
  const compact = core.replace(/[-\s]/g, '');
  if (!/^[a-z0-9]+$/.test(compact)) return undefined;
  const capitals = /^[A-Z0-9]+$/.test(text.replace(/[-\s.,;:!?]/g, ''));
  if (position === 'later' && compact.length > 1 && !/\d/.test(compact) && !capitals) return undefined;
  return compact.toUpperCase();
}

const nationalIdCue = /\b(ssn|social security|national insurance|ni number|national id|id number|identity number|identification number|id no|passport number|tax id|personal number)\b/;

/** National ID / SSN-style numbers: `123-45-6789` written, the UK NI form `AB123456C`, or 6–12 digits after an ID cue. */
function findNationalIds(context: DetectorContext): void {
  const { cores } = context;
  for (let index = 0; index < cores.length; index += 1) {
    if (context.isClaimed(index)) continue;
    if (/^\d{3}-\d{2}-\d{4}$/.test(cores[index]!) || /^[a-z]{2}\d{6}[a-d]$/.test(cores[index]!)) context.claim('national_id', index, index);
  }
  for (const run of runsOf(context)) {
    // "123 45 6789": the SSN grouping, written.
    for (let start = 0; start + 2 < run.length; start += 1) {
      const [a, b, c] = [run[start]!, run[start + 1]!, run[start + 2]!];
      if (a.written && b.written && c.written && a.digits.length === 3 && b.digits.length === 2 && c.digits.length === 4) {
        context.claim('national_id', a.startIndex, c.endIndex);
      }
    }
  }
  for (const run of runsOf(context)) {
    const count = digitCount(run);
    if (count >= 6 && count <= 12 && cueBefore(context, run[0]!.startIndex, nationalIdCue)) context.claim('national_id', run[0]!.startIndex, run.at(-1)!.endIndex);
  }
}

const birthCue = /\b(born|birth|birthday|dob|d\.o\.b|birthdate)\b/;
const monthNames = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);
const ordinalWords = new Set([
  'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth',
  'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth', 'twentieth', 'thirtieth',
]);
const numberWords = new Set([
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen',
  'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy',
  'eighty', 'ninety', 'hundred', 'thousand', 'oh',
]);
const numericDate = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
const yearNumber = /^(19|20)\d\d$/;

function dateWordKind(core: string): 'month' | 'numericDate' | 'year' | 'part' | 'filler' | undefined {
  if (monthNames.has(core)) return 'month';
  if (numericDate.test(core)) return 'numericDate';
  if (yearNumber.test(core)) return 'year';
  if (/^\d{1,2}(st|nd|rd|th)?$/.test(core) || ordinalWords.has(core) || numberWords.has(core)) return 'part';
  // "twenty-first", "thirty-one", "nineteen-eighty"
  if (/^[a-z]+-[a-z]+$/.test(core) && core.split('-').every((part) => numberWords.has(part) || ordinalWords.has(part))) return 'part';
  if (core === 'of' || core === 'the') return 'filler';
  return undefined;
}

/**
 * Dates of birth: a date (one with a month name, a numeric date, or a year: "12 March 1985",
 * "the twelfth of March", "03/12/1985", "nineteen eighty-five") said within a few words after
 * "born", "date of birth", "DOB" or "birthday".
 */
function findDatesOfBirth(context: DetectorContext): void {
  const { cores } = context;
  for (let cue = 0; cue < cores.length; cue += 1) {
    if (!birthCue.test(cores[cue]!) && !(cores[cue] === 'd' && cores[cue + 1] === 'o' && cores[cue + 2] === 'b')) continue;
    for (let start = cue + 1; start < Math.min(cores.length, cue + 1 + cueWindowWords); start += 1) {
      const kind = context.isClaimed(start) ? undefined : dateWordKind(cores[start]!);
      if (kind === undefined || kind === 'filler') continue;
      let end = start;
      let dated = kind !== 'part' || isSpokenYearStart(cores, start);
      while (end + 1 < cores.length && !context.isClaimed(end + 1)) {
        const next = dateWordKind(cores[end + 1]!);
        if (next === undefined) break;
        end += 1;
        if (next !== 'part' && next !== 'filler') dated = true;
        if (next === 'part' && isSpokenYearStart(cores, end)) dated = true;
      }
      while (end > start && dateWordKind(cores[end]!) === 'filler') end -= 1;
      if (dated) {
        context.claim('date_of_birth', start, end);
        cue = end;
      }
      break;
    }
  }
}

/** "nineteen eighty…", "two thousand…": a spoken year begins here. */
function isSpokenYearStart(cores: readonly string[], index: number): boolean {
  const [word, next] = [cores[index], cores[index + 1]];
  if (word === 'nineteen' || word === 'twenty') return next !== undefined && numberWords.has(next.split('-')[0]!) && next !== 'hundred';
  return word === 'two' && next === 'thousand';
}

const emailAddress = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;
const emailConnectors: Record<string, string> = { dot: '.', '.': '.', underscore: '_', _: '_', dash: '-', hyphen: '-', '-': '-' };
const nameToken = /^[a-z0-9][a-z0-9._-]*$/;
const emailCue = /\b(e-?mail|mail|address|inbox)\b/;

/**
 * E-mail addresses, written (`john.smith@example.com`) or spelled ("john dot smith at example
 * dot com"). A spelled one whose local part is a single plain word ("look at google dot com")
 * counts only after an e-mail cue.
 */
function findEmails(context: DetectorContext): void {
  const { cores } = context;
  for (let index = 0; index < cores.length; index += 1) {
    if (!context.isClaimed(index) && emailAddress.test(cores[index]!)) context.claim('email', index, index);
  }
  for (let at = 1; at + 1 < cores.length; at += 1) {
    if ((cores[at] !== 'at' && cores[at] !== '@') || context.isClaimed(at)) continue;
    const usable = (index: number) => index >= 0 && index < cores.length && !context.isClaimed(index);
    if (!usable(at - 1) || !nameToken.test(cores[at - 1]!) || emailConnectors[cores[at - 1]!] !== undefined) continue;
    let first = at - 1;
    let joined = /[._-]/.test(cores[first]!);
    while (usable(first - 2) && emailConnectors[cores[first - 1]!] !== undefined && nameToken.test(cores[first - 2]!) && emailConnectors[cores[first - 2]!] === undefined) {
      first -= 2;
      joined = true;
    }
    if (!usable(at + 1) || !nameToken.test(cores[at + 1]!)) continue;
    let last = at + 1;
    let domain = cores[last]!;
    while (usable(last + 2) && (cores[last + 1] === 'dot' || cores[last + 1] === '.') && nameToken.test(cores[last + 2]!)) {
      domain += `.${cores[last + 2]!}`;
      last += 2;
    }
    const topLevel = domain.split('.').at(-1)!;
    if (!domain.includes('.') || !/^[a-z]{2,6}$/.test(topLevel)) continue;
    if (!joined && !cueBefore(context, first, emailCue, 10)) continue;
    context.claim('email', first, last);
    at = last;
  }
}

const phoneCue = /\b(phone|telephone|tel|mobile|cell|cellphone|landline|call|calling|ring|reach|text|whatsapp|fax|extension|ext|dial|(my|your|his|her|their|our|direct|contact|callback|home|work|office) number)\b/;

/**
 * Phone numbers: `+` and a country code with 8–15 digits in all, the written `555-123-4567`
 * form, or 7–15 digits said after a phone cue ("call me on", "my number is").
 */
function findPhones(context: DetectorContext): void {
  for (const run of runsOf(context)) {
    for (let start = 0; start < run.length; start += 1) {
      const entry = run[start]!;
      if (entry.core.startsWith('+')) {
        let end = start;
        let count = entry.digits.length;
        while (end + 1 < run.length && count + run[end + 1]!.digits.length <= 15) {
          end += 1;
          count += run[end]!.digits.length;
        }
        if (count >= 8) {
          context.claim('phone', entry.startIndex, run[end]!.endIndex);
          start = end;
        }
      } else if (/^\(?\d{3}\)?[-.]?\d{3}-\d{4}$/.test(entry.core)) {
        context.claim('phone', entry.startIndex, entry.endIndex);
      }
    }
  }
  for (const run of runsOf(context)) {
    const count = digitCount(run);
    if (count >= 7 && count <= 15 && cueBefore(context, run[0]!.startIndex, phoneCue)) context.claim('phone', run[0]!.startIndex, run.at(-1)!.endIndex);
  }
}
