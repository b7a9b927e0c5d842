/** Regular-expression text for the lexicon's word lists. */

/** `text` matched literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * An alternation of the words, longest first (so "swiss francs" wins over "francs" and "go
 * ahead and" over "go"), each escaped unless `transform` says otherwise.
 */
export function anyOfWords(words: readonly string[], transform: (word: string) => string = escapeRegExp): string {
  return [...words].sort((first, second) => second.length - first.length).map(transform).join('|');
}

/** `word` with each letter matching either case ("[Aa]sk"), for patterns whose other parts must stay case-sensitive. */
export function caselessWord(word: string): string {
  return escapeRegExp(word).replace(/\p{L}/gu, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`);
}
