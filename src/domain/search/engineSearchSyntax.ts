import type { SearchQuery } from './parseSearchQuery.js';
import type { SearchPiece, SearchPieceKind } from './searchDocumentsOf.js';
import { searchTermsOf } from './searchTerms.js';

/*
 * What each engine is given: the index text and the query, built from folded words (searchTerms.ts)
 * so that both engines tokenise the same words, and every word quoted, so that no user input is
 * ever read as query syntax.
 */

// ---------------------------------------------------------------------------------------------
// SQLite FTS5: columns owner, title, summary, actions, transcript (migration 0008_search_index)

/** The FTS5 columns of one call: its pieces' folded words, by kind. */
export interface Fts5Columns {
  owner: string;
  title: string;
  summary: string;
  actions: string;
  transcript: string;
}

/**
 * Stands between two pieces in one column, so that a phrase never runs from one segment into the
 * next. A private-use character: FTS5's unicode61 keeps it as a token (category Co), while
 * searchTerms.ts never makes a word of it, so no query can match it.
 */
export const fts5PieceSeparator = '\uE000';

const columnOfKind: Record<SearchPieceKind, Exclude<keyof Fts5Columns, 'owner'>> = {
  title: 'title', summary: 'summary', action: 'actions', segment: 'transcript',
};

/**
 * The user's token in the `owner` column: a private-use character (U+E001) and the id's UTF-8
 * bytes in hex. One FTS5 token, unique per id, and like the piece separator never a word a query
 * can hold, so only the owner phrase matches it. Matching it inside the MATCH keeps a common word
 * from touching other users' rows.
 */
export function ownerTermOf(userId: string): string {
  return `\uE001${Buffer.from(userId, 'utf8').toString('hex')}`;
}

export function fts5ColumnsOf(userId: string, pieces: readonly SearchPiece[]): Fts5Columns {
  const columns = { title: [] as string[], summary: [] as string[], actions: [] as string[], transcript: [] as string[] };
  for (const piece of pieces) {
    const words = searchTermsOf(piece.text).map((word) => word.term);
    if (words.length > 0) columns[columnOfKind[piece.kind]].push(words.join(' '));
  }
  const joined = (texts: string[]) => texts.join(` ${fts5PieceSeparator} `);
  return { owner: ownerTermOf(userId), title: joined(columns.title), summary: joined(columns.summary), actions: joined(columns.actions), transcript: joined(columns.transcript) };
}

/**
 * `owner : "<owner token>" AND ("word" AND "two words" * AND …)`. The clauses need no column
 * filter: no query word can match the owner column (and a filter costs time on every row).
 */
export function fts5MatchOf(query: SearchQuery, userId: string): string {
  const clauses = query.clauses.map((clause) => `${fts5String(clause.terms.join(' '))}${clause.prefix ? ' *' : ''}`);
  return `owner : ${fts5String(ownerTermOf(userId))} AND (${clauses.join(' AND ')})`;
}

function fts5String(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a tsvector per call (migration 0003_search_index), a tsquery per search

/** Weights by kind, for ts_rank: title A, summary and action items B, transcript D. */
const weightOfKind: Record<SearchPieceKind, 'A' | 'B' | 'D'> = { title: 'A', summary: 'B', action: 'B', segment: 'D' };
/** PostgreSQL's largest word position; later words all sit there (they still match, phrases of them may not). */
const maxPosition = 16_383;
/** Positions PostgreSQL keeps per word; a word said more often keeps its first 256. */
const maxPositionsPerWord = 256;

/**
 * The call's tsvector as a literal (`'word':1A,7D 'other':2A`), cast by the query: positions
 * count words over the whole call, with a gap between pieces so that phrases stay inside one.
 */
export function tsvectorOf(pieces: readonly SearchPiece[]): string {
  const occurrences = new Map<string, { last: number; entries: string[] }>();
  let position = 0;
  for (const piece of pieces) {
    const weight = weightOfKind[piece.kind];
    for (const word of searchTermsOf(piece.text)) {
      position = Math.min(position + 1, maxPosition);
      const seen = occurrences.get(word.term);
      if (!seen) occurrences.set(word.term, { last: position, entries: [`${position}${weight}`] });
      else if (seen.last !== position && seen.entries.length < maxPositionsPerWord) {
        seen.entries.push(`${position}${weight}`);
        seen.last = position;
      }
    }
    position = Math.min(position + 1, maxPosition);
  }
  return [...occurrences].map(([term, { entries }]) => `${tsLexeme(term)}:${entries.join(',')}`).join(' ');
}

/** `('word') & ('two' <-> 'words':*)`. */
export function tsqueryOf(query: SearchQuery): string {
  return query.clauses.map((clause) => `(${clause.terms.map((term, index) => {
    const prefix = clause.prefix && index === clause.terms.length - 1 ? ':*' : '';
    return `${tsLexeme(term)}${prefix}`;
  }).join(' <-> ')})`).join(' & ');
}

/** A lexeme in tsvector/tsquery input syntax: single quotes, with quotes and backslashes escaped. */
function tsLexeme(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll('\'', '\'\'')}'`;
}
