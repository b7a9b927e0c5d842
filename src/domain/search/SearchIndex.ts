import { sql, type SQL } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf } from '../../infrastructure/database/sqlFragments.js';
import { calls } from '../../infrastructure/database/tables.js';
import type { CallRecord } from '../calls/callTypes.js';
import { fts5ColumnsOf, fts5MatchOf, tsqueryOf, tsvectorOf } from './engineSearchSyntax.js';
import type { SearchQuery } from './parseSearchQuery.js';
import { decodePieces, encodePieces, type SearchDocument, type SearchPiece } from './searchDocumentsOf.js';

/** A call the search found, with the pieces its hits are picked from. */
export interface SearchResult {
  call: CallRecord;
  pieces: SearchPiece[];
}

/**
 * How many of the newest matching calls are ranked by relevance. Ranking costs time for every
 * call it scores (bm25 or ts_rank), and a word found in thousands of a user's calls says little
 * about relevance: past this many, older matches follow the ranked ones newest first, which
 * keeps every search fast however common its words.
 */
export const rankedMatchesCap = 1000;

interface MatchRow {
  callId: string;
  pieces: string;
}

/**
 * The full-text index of completed calls (migrations `0008_search_index` on SQLite,
 * `postgres/0003_search_index`; not in the drizzle schema). On both engines `search_calls` holds
 * one row per indexed call (its pieces, for the hits) and goes with the call (ON DELETE
 * CASCADE). SQLite: the FTS5 table `search_index` (rowid = the call's seq) holds the words; a
 * trigger on `search_calls` deletes its row, so every way a call or user is deleted clears it.
 * PostgreSQL: `search_calls.document` (tsvector, GIN-indexed). Ranking: bm25 on SQLite, ts_rank
 * on PostgreSQL, title words weighing most and transcript words least; ties newest first.
 */
export class SearchIndex {
  /** Compiled once per engine; values by placeholder (`match`, `userId`, `cap`, paging). */
  private readonly rankedQuery: SQL;
  private readonly olderQuery: SQL;
  private readonly callsQuery: SQL;
  private readonly rankedMatchesCap: number;

  /** `options.rankedMatchesCap`: how many of the newest matches are ranked. Defaults to {@link rankedMatchesCap}. */
  constructor(private readonly db: SqlDatabase, options: { rankedMatchesCap?: number } = {}) {
    this.rankedMatchesCap = options.rankedMatchesCap ?? rankedMatchesCap;
    const match = sql.placeholder('match');
    const page = sql`LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}`;
    const completed = sql`calls.status = 'COMPLETED' AND calls.deleting_since IS NULL`;
    // The user's COMPLETED calls (not being deleted) that match, newest first: `call_id`, `seq`, and on SQLite the bm25 score
    // (an FTS5 function, so computed here: only for the rows the LIMIT lets through, as FTS5 yields them newest first).
    // CROSS JOIN keeps the FTS table the outer loop (else SQLite may walk calls and run the MATCH once per call).
    const newestMatches = (limit: SQL, scored = true) => db.dialect === 'sqlite'
      ? sql`SELECT calls.id AS call_id, search_index.rowid AS seq${scored ? sql`, bm25(search_index, 0.0, 4.0, 2.0, 2.0, 1.0) AS score` : sql``}
          FROM search_index CROSS JOIN calls ON calls.seq = search_index.rowid
          WHERE search_index MATCH ${match} AND ${completed} ORDER BY search_index.rowid DESC ${limit}`
      : sql`SELECT calls.id AS call_id, s.call_seq AS seq
          FROM search_calls AS s JOIN calls ON calls.id = s.call_id
          WHERE s.user_id = ${sql.placeholder('userId')} AND s.document @@ CAST(${match} AS tsquery) AND ${completed}
          ORDER BY s.call_seq DESC ${limit}`;
    // bm25 is lower for better matches; ts_rank higher. Ranking is done on the newest `cap` matches only, then paged.
    const scored = db.dialect === 'sqlite'
      ? sql`SELECT call_id, seq, score FROM (${newestMatches(sql`LIMIT ${sql.placeholder('cap')}`)}) AS newest
          ORDER BY score ASC, seq DESC ${page}`
      // The words are fetched again for the ranked rows only: carried through the sort they made it spill to disk.
      : sql`SELECT newest.call_id, newest.seq, -ts_rank(ranked_words.document, CAST(${match} AS tsquery), 1) AS score
          FROM (${newestMatches(sql`LIMIT ${sql.placeholder('cap')}`)}) AS newest
          JOIN search_calls AS ranked_words ON ranked_words.call_id = newest.call_id ORDER BY score ASC, newest.seq DESC ${page}`;
    // Only the page's rows carry their pieces.
    this.rankedQuery = sql`SELECT ranked.call_id AS "callId", search_calls.pieces AS pieces FROM (${scored}) AS ranked
      JOIN search_calls ON search_calls.call_id = ranked.call_id ORDER BY ranked.score ASC, ranked.seq DESC`;
    this.olderQuery = sql`SELECT older.call_id AS "callId", search_calls.pieces AS pieces FROM (${newestMatches(page, false)}) AS older
      JOIN search_calls ON search_calls.call_id = older.call_id ORDER BY older.seq DESC`;
    this.callsQuery = sql`SELECT ${columnsOf(calls)} FROM calls WHERE id IN ${db.inList(sql.placeholder('ids'))}`;
  }

  /** Writes a call's index rows in place of any it had (first completion, reprocess, correction); joins the caller's transaction. */
  replaceCall(document: SearchDocument): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(sql`DELETE FROM search_calls WHERE call_id = ${document.callId}`);
      const pieces = encodePieces(document.pieces);
      if (tx.dialect === 'sqlite') {
        const columns = fts5ColumnsOf(document.userId, document.pieces);
        await tx.run(sql`INSERT INTO search_calls (call_seq, call_id, user_id, pieces)
          VALUES (${document.callSeq}, ${document.callId}, ${document.userId}, ${pieces})`);
        await tx.run(sql`INSERT INTO search_index (rowid, owner, title, summary, actions, transcript)
          VALUES (${document.callSeq}, ${columns.owner}, ${columns.title}, ${columns.summary}, ${columns.actions}, ${columns.transcript})`);
      } else {
        await tx.run(sql`INSERT INTO search_calls (call_id, call_seq, user_id, pieces, document)
          VALUES (${document.callId}, ${document.callSeq}, ${document.userId}, ${pieces}, CAST(${tsvectorOf(document.pieces)} AS tsvector))`);
      }
    });
  }

  /** Removes a call's index rows (on SQLite the trigger takes the FTS row with them). */
  async removeCall(callId: string): Promise<void> {
    await this.db.run(sql`DELETE FROM search_calls WHERE call_id = ${callId}`);
  }

  /**
   * One page of the user's COMPLETED calls that match every clause: the newest
   * `rankedMatchesCap` matches best first (ties newest first), then any older ones newest
   * first. Asks for `limit` results from `offset` (callers ask one extra to learn whether another
   * page exists).
   */
  async search(userId: string, query: SearchQuery, page: { offset: number; limit: number }): Promise<SearchResult[]> {
    const values = { match: this.db.dialect === 'sqlite' ? fts5MatchOf(query, userId) : tsqueryOf(query), userId, cap: this.rankedMatchesCap };
    const cap = this.rankedMatchesCap;
    const rows: MatchRow[] = [];
    if (page.offset < cap) {
      const wanted = Math.min(page.limit, cap - page.offset);
      rows.push(...await this.db.all<MatchRow>(this.rankedQuery, { ...values, offset: page.offset, limit: wanted }));
      // Fewer than asked: the ranked matches ran out before the cap, so there are no older ones.
      if (rows.length < wanted) return this.withCalls(userId, rows);
    }
    if (rows.length < page.limit) {
      rows.push(...await this.db.all<MatchRow>(this.olderQuery, { ...values, offset: cap + Math.max(0, page.offset - cap), limit: page.limit - rows.length }));
    }
    return this.withCalls(userId, rows);
  }

  private async withCalls(userId: string, rows: readonly MatchRow[]): Promise<SearchResult[]> {
    if (rows.length === 0) return [];
    const callRows = await this.db.all<CallRecord>(this.callsQuery, { ids: rows.map((row) => row.callId) });
    // The user filter is inside the engine's match already; checked again here, where a mistake would leak.
    const callsById = new Map(callRows.filter((call) => call.userId === userId).map((call) => [call.id, call]));
    return rows.flatMap((row) => {
      const call = callsById.get(row.callId);
      return call ? [{ call, pieces: decodePieces(row.pieces) }] : [];
    });
  }
}
