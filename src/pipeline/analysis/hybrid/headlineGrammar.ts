import type { JsonSchema } from '../llm/generationSchema.js';

/**
 * The words a hybrid headline may use, as two equivalent constraints: a GBNF grammar for the
 * local model (node-llama-cpp's JSON-schema grammar has no `pattern`) and a JSON Schema with
 * `pattern`s for chat servers (llama.cpp's server and OpenAI's strict mode read them).
 *
 * A headline is `{"title": "…", "summary": "…"}` of plain words: lower-case English words
 * freely, a capitalised word only first, and otherwise only the call's own names and numbers
 * ({@link HeadlineVocabulary}). So the model can say "Repeat blood test booked with Bev for
 * Tuesday 24" when the call named Bev and the rules resolved the 24th, but cannot write a name,
 * a number or an address the call never had: what small models invent most. The first word is
 * free so that a sentence can start ("Dentist…"); grounding still checks it after.
 */

/** Title and summary lengths, in words: a title as a person writes one, a summary of one sentence. */
export const headlineWords = { title: 10, summary: 28 } as const;

/** The call's own names and numbers a headline may use, each one word ("Pearce", "24", "09:30", "£45.50"). */
export interface HeadlineVocabulary {
  words: readonly string[];
}

/** What makes a usable own word: letters and digits with inner `'’.:,-£$€%` (no spaces, quotes or backslashes). */
const ownWordShape = /^[\p{L}\p{N}£$€][\p{L}\p{N}'’.:,£$€%-]*$/u;
/** Longest lower-case word the grammar allows, letters: longer than any common English word. */
const maxWordLetters = 16;
/** Most own words the grammar lists: a long call's names and numbers, bounded so the grammar stays small. */
const maxOwnWords = 300;

/** The vocabulary from the call's candidate words: shaped, de-duplicated and bounded. */
export function headlineVocabulary(candidates: Iterable<string>): HeadlineVocabulary {
  const words = new Set<string>();
  for (const candidate of candidates) {
    const word = candidate.trim().replace(/[.,:]+$/u, '');
    if (word.length > 0 && word.length <= 40 && ownWordShape.test(word) && !/^[a-z]+$/u.test(word)) words.add(word);
    if (words.size >= maxOwnWords) break;
  }
  return { words: [...words].sort() };
}

/** The GBNF grammar of a headline (see the module comment). */
export function headlineGbnf(vocabulary: HeadlineVocabulary): string {
  const own = vocabulary.words.length > 0 ? vocabulary.words.map(gbnfLiteral).join(' | ') : '"the"';
  return [
    `root ::= "{\\"title\\": \\"" title "\\", \\"summary\\": \\"" summary "\\"}"`,
    `title ::= first (" " word){0,${headlineWords.title - 1}}`,
    `summary ::= first ((" " | ", ") word){0,${headlineWords.summary - 1}} "."?`,
    `first ::= [A-Z] [a-z]{0,${maxWordLetters - 1}} | word`,
    `word ::= [a-z] [a-z]{0,${maxWordLetters - 1}} (['-] [a-z]{1,12})? | own`,
    `own ::= ${own}`,
  ].join('\n');
}

/** The same constraint as a JSON Schema, for chat servers. */
export function headlineJsonSchema(vocabulary: HeadlineVocabulary): JsonSchema {
  const own = vocabulary.words.map(regexLiteral);
  const word = `([a-z][a-z]{0,${maxWordLetters - 1}}(['-][a-z]{1,12})?${own.map((literal) => `|${literal}`).join('')})`;
  const first = `([A-Z][a-z]{0,${maxWordLetters - 1}}|${word})`;
  return {
    type: 'object',
    properties: {
      title: { type: 'string', pattern: `^${first}( ${word}){0,${headlineWords.title - 1}}$` },
      summary: { type: 'string', pattern: `^${first}(( |, )${word}){0,${headlineWords.summary - 1}}[.]?$` },
    },
    required: ['title', 'summary'],
    additionalProperties: false,
  };
}

function gbnfLiteral(word: string): string {
  return JSON.stringify(word);
}

function regexLiteral(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\/-]/gu, (character) => `\\${character}`);
}
