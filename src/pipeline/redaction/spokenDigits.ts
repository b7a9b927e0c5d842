/*
 * How a transcribed word reads as digits: written ("4111", "4111-1111", "+44") or spoken
 * ("four", "oh", "double four", "twenty one"). Pure string logic for the redaction detectors.
 */

/** Characters stripped from the edges of a word before it is read (its punctuation and quotes). */
const leadingPunctuation = /^["'“‘([{¿¡]+/;
const trailingPunctuation = /["'”’)\]}.,!?;:…]+$/;

/** The word without surrounding punctuation and quotes, lower-cased. `+` and inner characters stay. */
export function coreOf(text: string): string {
  return text.replace(leadingPunctuation, '').replace(trailingPunctuation, '').toLowerCase();
}

/** The sentence punctuation a word ends with ("," "." …), to keep after a placeholder. */
export function trailingPunctuationOf(text: string): string {
  return /[.,!?;:…]+$/.exec(text)?.[0] ?? '';
}

const unitWords: Record<string, string> = {
  zero: '0', oh: '0', o: '0', nought: '0', naught: '0', nil: '0',
  one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9',
};
const teenWords: Record<string, string> = {
  ten: '10', eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15',
  sixteen: '16', seventeen: '17', eighteen: '18', nineteen: '19',
};
const tensWords: Record<string, string> = {
  twenty: '2', thirty: '3', forty: '4', fifty: '5', sixty: '6', seventy: '7', eighty: '8', ninety: '9',
};
const multiplierWords: Record<string, number> = { double: 2, triple: 3 };
/** Words said between digit groups that belong to the number ("4111 dash 1111"). */
const separatorWords = new Set(['dash', 'hyphen', '-', '–', '—', '/']);

/** A written number: digits with the separators people and recognisers put between groups. */
const writtenNumber = /^[+(]?\d[\d\-.,/)]*$/;

/** The digits of one word on its own (undefined when it is not a number word). "oh" and "o" read as 0. */
export function digitsOfWord(core: string): string | undefined {
  if (writtenNumber.test(core)) return core.replace(/\D/g, '');
  const spoken = unitWords[core] ?? teenWords[core];
  if (spoken !== undefined) return spoken;
  const tens = tensWords[core];
  if (tens !== undefined) return `${tens}0`;
  // "twenty-one", "forty-two"
  const compound = /^([a-z]+)-([a-z]+)$/.exec(core);
  if (compound && tensWords[compound[1]!] !== undefined && unitWords[compound[2]!] !== undefined && compound[2] !== 'oh' && compound[2] !== 'o') {
    return `${tensWords[compound[1]!]}${unitWords[compound[2]!]}`;
  }
  return undefined;
}

/** Digits said in a row: which words (indexes, inclusive) give which digits. */
export interface DigitEntry {
  startIndex: number;
  endIndex: number;
  digits: string;
  /** Whether the digits were written as numerals (`4111`), not said as words. */
  written: boolean;
  /** The word's lower-cased core (for the first word of the entry). */
  core: string;
}

/**
 * Splits the words into runs of consecutive digit entries. A run ends at a word that is no
 * number, no multiplier before one ("double four" → 44) and no separator between two numbers,
 * and at a word `blocked` says is taken. "twenty" followed by "one" reads as 21.
 */
export function digitRuns(cores: readonly string[], blocked: (index: number) => boolean): DigitEntry[][] {
  const runs: DigitEntry[][] = [];
  let current: DigitEntry[] = [];
  const close = () => {
    if (current.length > 0) runs.push(current);
    current = [];
  };
  for (let index = 0; index < cores.length; index += 1) {
    if (blocked(index)) {
      close();
      continue;
    }
    const core = cores[index]!;
    const multiplier = multiplierWords[core];
    const next = index + 1 < cores.length && !blocked(index + 1) ? cores[index + 1]! : undefined;
    if (multiplier !== undefined && next !== undefined) {
      const digit = unitWords[next];
      if (digit !== undefined) {
        current.push({ startIndex: index, endIndex: index + 1, digits: digit.repeat(multiplier), written: false, core });
        index += 1;
        continue;
      }
    }
    const digits = digitsOfWord(core);
    if (digits !== undefined && digits.length > 0) {
      const tens = tensWords[core];
      const unit = next === undefined ? undefined : unitWords[next];
      if (tens !== undefined && unit !== undefined && next !== 'oh' && next !== 'o' && next !== 'zero') {
        current.push({ startIndex: index, endIndex: index + 1, digits: `${tens}${unit}`, written: false, core });
        index += 1;
        continue;
      }
      current.push({ startIndex: index, endIndex: index, digits, written: writtenNumber.test(core), core });
      continue;
    }
    // A separator inside a number stays in the run (the span then covers it).
    if (separatorWords.has(core) && current.length > 0 && next !== undefined && (digitsOfWord(next) !== undefined || multiplierWords[next] !== undefined)) continue;
    close();
  }
  close();
  return runs;
}

/** Whether a digit string passes the Luhn check (payment card numbers do). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let position = 0; position < digits.length; position += 1) {
    let value = digits.charCodeAt(digits.length - 1 - position) - 48;
    if (position % 2 === 1) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Whether `word` is a spoken unit digit ("four", "oh"), for spelled-out codes. */
export function spokenUnitDigit(core: string): string | undefined {
  return unitWords[core];
}
