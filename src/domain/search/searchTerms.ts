/*
 * How search sees text: the one tokenizer behind the index (both engines), the query parser and
 * the highlighter, so that what the database matches and what a snippet marks agree. A word is a
 * run of letters, digits and combining marks; it is folded to lower case without diacritics
 * ("Café" → "cafe"), close to SQLite FTS5's `unicode61 remove_diacritics 2`, and without stemming.
 */

/** A word of a text: its folded form and where it stands in the original (UTF-16 offsets, end exclusive). */
export interface SearchTerm {
  term: string;
  start: number;
  end: number;
}

/** Longer words are not indexed (nothing anybody searches for; PostgreSQL limits a lexeme to 2 KB). */
export const maxTermLength = 64;

const wordPattern = /[\p{L}\p{N}\p{M}]+/gu;
const notLetterOrDigit = /[^\p{L}\p{N}]/gu;
// Most text is ASCII, where a word is [A-Za-z0-9]+ and folding is lower-casing: the fast path.
const asciiOnly = /^[\x00-\x7f]*$/;
const asciiWordPattern = /[A-Za-z0-9]+/g;

/** A word folded: compatibility-decomposed, lower-cased, marks and anything not a letter or digit dropped. */
export function foldWord(word: string): string {
  return word.normalize('NFKD').toLowerCase().replace(notLetterOrDigit, '');
}

/** The searchable words of a text, in order. */
export function searchTermsOf(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const ascii = isAscii(text);
  for (const match of text.matchAll(ascii ? asciiWordPattern : wordPattern)) {
    const term = ascii ? match[0].toLowerCase() : foldWord(match[0]);
    if (term.length > 0 && term.length <= maxTermLength) terms.push({ term, start: match.index, end: match.index + match[0].length });
  }
  return terms;
}

export function isAscii(text: string): boolean {
  return asciiOnly.test(text);
}
