import type { NumberWords } from './FactLexicon.js';

/**
 * Numbers said in words ("fifty", "twelve hundred", "two thousand five hundred and ten"): a
 * regular-expression source matching them (use it with the `i` flag), and their value. Whole
 * numbers only, as speech-to-text writes most numbers in digits anyway; no fractions or ordinals.
 */
export function numberWordsSource(words: NumberWords): string {
  const counted = [...Object.keys(words.ones), ...Object.keys(words.tens)].join('|');
  const scales = Object.keys(words.scales).join('|');
  const joiner = `[\\s-]+(?:(?:${words.conjunctions.join('|')})\\s+)?`;
  // Starts with a counted word, or an article before a scale ("a hundred"); never a bare scale.
  const first = `(?:(?:${words.articles.join('|')})(?=\\s+(?:${scales})\\b)|(?:${counted}))\\b`;
  return `\\b${first}(?:${joiner}(?:${counted}|${scales})\\b)*`;
}

/**
 * The value of words matched by {@link numberWordsSource}, or null when they do not form one
 * number ("five six", "one and two").
 */
export function parseNumberWords(text: string, words: NumberWords): number | null {
  let total = 0;
  let current = 0;
  let previous: 'start' | 'one' | 'ten' | 'scale' | 'conjunction' = 'start';
  for (const token of text.toLowerCase().split(/[\s-]+/).filter(Boolean)) {
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
