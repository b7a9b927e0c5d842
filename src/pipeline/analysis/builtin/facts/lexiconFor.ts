import type { FactLexicon } from './FactLexicon.js';
import { englishLexicon } from './english/englishLexicon.js';

/** The lexicons the extractor has, the first the fallback. */
const lexicons: readonly FactLexicon[] = [englishLexicon];

/**
 * The lexicon for a transcript language (`en`, `en-GB`, `und`, …) by its primary subtag, and
 * whether it really covers the language: a language without a lexicon is read with English (the
 * fallback), which finds little, and the caller says so in a quality warning.
 */
export function lexiconFor(language: string): { lexicon: FactLexicon; supported: boolean } {
  const primary = language.toLowerCase().split('-')[0] ?? '';
  const found = lexicons.find((lexicon) => lexicon.languages.includes(primary));
  return { lexicon: found ?? englishLexicon, supported: found !== undefined };
}
