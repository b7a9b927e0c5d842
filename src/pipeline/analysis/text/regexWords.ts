/** Regular-expression text for the lexicons' word lists, and patterns compiled once per lexicon. */

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

/**
 * `build` run once per key object and remembered while the key lives (further arguments are
 * those of the first call): patterns compiled from a lexicon's word lists are built on first
 * use, not per sentence.
 */
export function oncePer<Key extends object, Rest extends unknown[], Value>(
  build: (key: Key, ...rest: Rest) => Value,
): (key: Key, ...rest: Rest) => Value {
  const built = new WeakMap<Key, Value>();
  return (key, ...rest) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key, ...rest);
      built.set(key, value);
    }
    return value;
  };
}
