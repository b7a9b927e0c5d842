import { searchTermsOf } from './searchTerms.js';

/**
 * One condition of a query: its words must stand next to each other, in this order, within one
 * piece of a call (a title, a summary line, an action item, a transcript segment). One word is
 * the common case; a quoted phrase, or a word with punctuation inside ("follow-up"), has several.
 */
export interface SearchClause {
  /** Folded words (see searchTerms.ts), at least one. */
  terms: readonly string[];
  /** The last word matches every word it begins (`contr*` finds "contract"). */
  prefix: boolean;
}

/** A parsed query: a call matches when it has every clause (AND). */
export interface SearchQuery {
  clauses: readonly SearchClause[];
  /** The clauses in a canonical text form: two queries with the same key find the same calls. */
  key: string;
}

export type SearchQueryProblem = { problem: string };

/** Clauses a query may have at most; more is refused rather than silently cut. */
export const maxClauses = 12;
/** Words (over all clauses) a query may have at most. */
export const maxTerms = 32;
/** Letters a prefix needs at least: a one-letter prefix would match a large part of the vocabulary. */
export const minPrefixLength = 2;

const wordCharacter = /[\p{L}\p{N}\p{M}]/u;

/**
 * Reads a user's query. The syntax is small and never fails on odd input: words are ANDed,
 * `"a phrase"` keeps its words together, a `*` right after a word makes it a prefix, and every
 * other character (operators of FTS syntaxes such as `OR`, `NEAR(`, `-`, `:`, `^`, brackets)
 * separates words or is itself a word. The engines' query strings are built from the result,
 * never from the text. A query with no word at all, too many words, or a one-letter prefix is a
 * problem for the caller to report.
 */
export function parseSearchQuery(text: string): SearchQuery | SearchQueryProblem {
  const clauses: SearchClause[] = [];
  const seen = new Set<string>();
  const add = (chunk: string) => {
    const terms = searchTermsOf(chunk).map((word) => word.term);
    if (terms.length === 0) return;
    const clause: SearchClause = { terms, prefix: endsWithPrefixMark(chunk) };
    const key = clauseKey(clause);
    if (seen.has(key)) return;
    seen.add(key);
    clauses.push(clause);
  };
  let position = 0;
  while (position < text.length) {
    const quote = text.indexOf('"', position);
    const plain = quote === -1 ? text.slice(position) : text.slice(position, quote);
    for (const chunk of plain.split(/\s+/)) add(chunk);
    if (quote === -1) break;
    // A phrase runs to the next quote (or to the end when unclosed); `"…"*` marks its last word as a prefix.
    const closing = text.indexOf('"', quote + 1);
    const end = closing === -1 ? text.length : closing;
    const starred = closing !== -1 && text[closing + 1] === '*';
    add(text.slice(quote + 1, end) + (starred ? '*' : ''));
    position = end + (starred ? 2 : 1);
  }
  if (clauses.length === 0) return { problem: 'The query has no word to search for (letters or digits)' };
  if (clauses.length > maxClauses) return { problem: `A query may have at most ${maxClauses} words or phrases` };
  if (clauses.reduce((count, clause) => count + clause.terms.length, 0) > maxTerms) return { problem: `A query may have at most ${maxTerms} words` };
  if (clauses.some((clause) => clause.prefix && clause.terms.at(-1)!.length < minPrefixLength)) {
    return { problem: `A prefix (word*) needs at least ${minPrefixLength} letters or digits` };
  }
  return { clauses, key: clauses.map(clauseKey).join(' ') };
}

export function isSearchQuery(parsed: SearchQuery | SearchQueryProblem): parsed is SearchQuery {
  return 'clauses' in parsed;
}

/** `*` directly after a word, at the end of the chunk (trailing punctuation before it is not a word). */
function endsWithPrefixMark(chunk: string): boolean {
  const trimmed = chunk.trimEnd();
  if (!trimmed.endsWith('*')) return false;
  const lastBeforeStars = Array.from(trimmed.replace(/\*+$/, '')).at(-1);
  return lastBeforeStars !== undefined && wordCharacter.test(lastBeforeStars);
}

function clauseKey(clause: SearchClause): string {
  return `"${clause.terms.join(' ')}"${clause.prefix ? '*' : ''}`;
}
