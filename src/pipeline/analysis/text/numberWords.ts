/** English number words as digits, for grounding numbers that were said rather than written. */

const units: Record<string, number> = {
  zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const tens: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const scales: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000 };

const numberWord = new RegExp(`\\b(?:${[...Object.keys(units), ...Object.keys(tens), ...Object.keys(scales)].join('|')})(?:[\\s-]+(?:and[\\s-]+)?(?:${[...Object.keys(units), ...Object.keys(tens), ...Object.keys(scales)].join('|')}))*\\b`, 'gi');

/**
 * The value of a run of number words ("two thousand five hundred" → 2500), or undefined when it is
 * not one. Runs of single digits ("five five five") are read digit by digit, as phone numbers are said.
 */
export function numberWordsValue(phrase: string): number | undefined {
  const words = phrase.toLowerCase().split(/[\s-]+/).filter((word) => word !== 'and');
  if (words.length === 0) return undefined;
  if (words.length > 1 && words.every((word) => (units[word] ?? 10) < 10)) return Number(words.map((word) => units[word]).join(''));
  let total = 0;
  let current = 0;
  for (const word of words) {
    if (word in units) current += units[word]!;
    else if (word in tens) current += tens[word]!;
    else if (word === 'hundred') current = (current || 1) * 100;
    else if (word in scales) {
      total += (current || 1) * scales[word]!;
      current = 0;
    } else return undefined;
  }
  return total + current;
}

/** `text` with each run of number words replaced by its digits ("call five five five" → "call 555"). */
export function withNumberWordsAsDigits(text: string): string {
  return text.replace(numberWord, (run) => {
    const value = numberWordsValue(run);
    return value === undefined ? run : String(value);
  });
}

/** Only the digits of `text`. */
export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}
