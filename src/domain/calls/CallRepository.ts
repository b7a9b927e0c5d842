import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { assignmentsOf, columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { calls } from '../../infrastructure/database/tables.js';
import type { CallRecord, CallStatus, NewCallRecord } from './callTypes.js';
import { heldCallIds } from '../legalHolds/heldCalls.js';

/** A call's id and status, as the bulk status endpoint reports it. */
export interface CallStatusRow {
  id: string;
  status: CallStatus;
  seq: number;
  /** When the call entered the queue (queue order), ms. */
  queuedAt: number | null;
  /** Progress of the run in flight, 0..1. */
  progress: number;
}

export interface CallPageQuery {
  userId: string;
  /** Only these statuses; all when absent. */
  statuses?: readonly CallStatus[];
  /** Keyset: return calls inserted before this one (newest first). */
  beforeSeq?: number;
  limit: number;
}

/** Outcome of asking to delete a call. */
export type DeletionClaim =
  | { outcome: 'claimed'; call: CallRecord }
  | { outcome: 'missing' }
  | { outcome: 'in_progress'; status: CallStatus }
  /** An active legal hold covers the call (or its owner): nothing was changed. */
  | { outcome: 'held' };

/** Every column of a call, named as {@link CallRecord}'s fields. */
const callColumns = columnsOf(calls);

/**
 * Calls of users. Every read takes the owner's id: a call of another user is simply not
 * found, which the HTTP layer turns into 404. Calls being deleted are invisible.
 */
export class CallRepository {
  /** The hot path's queries, compiled once (values by placeholder). */
  private readonly ownedQuery = sql`SELECT ${callColumns} FROM calls
    WHERE id = ${sql.placeholder('callId')} AND user_id = ${sql.placeholder('userId')} AND deleting_since IS NULL`;
  private readonly statusesQuery;
  private readonly pageQuery = sql`SELECT ${callColumns} FROM calls
    WHERE user_id = ${sql.placeholder('userId')} AND seq < ${sql.placeholder('beforeSeq')} AND deleting_since IS NULL
    ORDER BY seq DESC LIMIT ${sql.placeholder('limit')}`;
  private readonly filteredPageQuery;

  constructor(private readonly db: SqlDatabase) {
    // Only the id list in the WHERE clause: the few requested ids are unique-index lookups on
    // calls.id whatever the user's call count (with user_id there too, SQLite's planner, without
    // statistics, walks all the user's calls through the user index: 20x slower at 10,000).
    this.statusesQuery = sql`SELECT id, user_id AS "userId", status, seq, queued_at AS "queuedAt", progress FROM calls
      WHERE id IN ${db.inList(sql.placeholder('ids'))} AND deleting_since IS NULL`;
    this.filteredPageQuery = sql`SELECT ${callColumns} FROM calls
      WHERE user_id = ${sql.placeholder('userId')} AND status IN ${db.inList(sql.placeholder('statuses'))}
        AND seq < ${sql.placeholder('beforeSeq')} AND deleting_since IS NULL
      ORDER BY seq DESC LIMIT ${sql.placeholder('limit')}`;
  }

  async insert(call: NewCallRecord): Promise<CallRecord> {
    const row = await this.db.get<CallRecord>(sql`${insertInto(calls, [call])} RETURNING ${callColumns}`);
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  findOwned(userId: string, callId: string): Promise<CallRecord | undefined> {
    return this.db.get<CallRecord>(this.ownedQuery, { callId, userId });
  }

  /** Statuses of those of `ids` that the user owns; unknown and foreign ids are left out. */
  async statusesOwned(userId: string, ids: readonly string[]): Promise<CallStatusRow[]> {
    const rows = await this.db.all<CallStatusRow & { userId: string }>(this.statusesQuery, { ids });
    return rows.filter((row) => row.userId === userId).map(({ userId: _owner, ...row }) => row);
  }

  /** One page, newest first; asks for `limit` rows (callers ask one extra to detect more). */
  page(query: CallPageQuery): Promise<CallRecord[]> {
    const values = { userId: query.userId, beforeSeq: query.beforeSeq ?? Number.MAX_SAFE_INTEGER, limit: query.limit };
    return query.statuses && query.statuses.length > 0
      ? this.db.all<CallRecord>(this.filteredPageQuery, { ...values, statuses: query.statuses })
      : this.db.all<CallRecord>(this.pageQuery, values);
  }

  /** Queued calls of any user ahead of this one in the queue (queue order is (queued_at, seq), as the engine claims calls). */
  async queuedBefore(position: { queuedAt: number; seq: number }): Promise<number> {
    const row = await this.db.get<{ count: number }>(sql`
      SELECT count(*) AS count FROM calls
      WHERE status = 'QUEUED' AND (queued_at < ${position.queuedAt} OR (queued_at = ${position.queuedAt} AND seq < ${position.seq}))`);
    return row?.count ?? 0;
  }

  /** Calls of any user being processed now. */
  async inFlightCount(): Promise<number> {
    const row = await this.db.get<{ count: number }>(sql`SELECT count(*) AS count FROM calls WHERE status IN ('TRANSCRIBING', 'ANALYZING')`);
    return row?.count ?? 0;
  }

  /** Ids of the user's calls still being processed. */
  async inFlightIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(sql`SELECT id FROM calls WHERE user_id = ${userId} AND status IN ('QUEUED', 'TRANSCRIBING', 'ANALYZING')`);
    return rows.map((row) => row.id);
  }

  async allIdsOf(userId: string): Promise<string[]> {
    return (await this.db.all<{ id: string }>(sql`SELECT id FROM calls WHERE user_id = ${userId}`)).map((row) => row.id);
  }

  /**
   * Marks a terminal call as being deleted, atomically with the status check, so a worker or
   * an operator reprocess (on any node) can no longer pick it up while its files are removed.
   * `onClaimed` runs in the same transaction when this claim marked it (not when an earlier one had).
   * A call under an active legal hold is refused (`held`) and left as it is.
   */
  claimForDeletion(userId: string, callId: string, now: number, onClaimed?: (tx: SqlDatabase, call: CallRecord) => Promise<void>): Promise<DeletionClaim> {
    return this.db.transaction(async (tx) => {
      const call = await tx.get<CallRecord>(sql`SELECT ${callColumns} FROM calls WHERE id = ${callId} AND user_id = ${userId}${tx.forUpdate}`);
      if (!call || call.deletingSince !== null) return call ? { outcome: 'claimed' as const, call } : { outcome: 'missing' as const };
      if (call.status !== 'COMPLETED' && call.status !== 'FAILED') return { outcome: 'in_progress' as const, status: call.status };
      // Under the call's row lock, which placing a call hold also takes, and a shared lock on its
      // owner's row, which placing a user hold waits for (and which waits for it): either this
      // sees the hold, or the placement comes after the claim (and finds the call claimed).
      await tx.get(sql`SELECT 1 AS found FROM users WHERE id = ${userId}${tx.forShare}`);
      if ((await heldCallIds(tx, [callId])).length > 0) return { outcome: 'held' as const };
      await tx.run(sql`UPDATE calls SET deleting_since = ${now} WHERE id = ${callId}`);
      await onClaimed?.(tx, call);
      return { outcome: 'claimed' as const, call: { ...call, deletingSince: now } };
    });
  }

  /** Removes the row; artifacts, action items and processing events go with it (cascade). */
  async removeRow(callId: string): Promise<void> {
    await this.db.run(sql`DELETE FROM calls WHERE id = ${callId}`);
  }

  /** Whether the row exists at all, even while being deleted. */
  async existsEvenDeleting(callId: string): Promise<boolean> {
    return (await this.db.get(sql`SELECT 1 AS found FROM calls WHERE id = ${callId}`)) !== undefined;
  }

  /** Calls whose deletion was interrupted (crash between file removal and row removal). */
  interruptedDeletions(): Promise<{ id: string; deletingSince: number }[]> {
    return this.db.all(sql`SELECT id, deleting_since AS "deletingSince" FROM calls WHERE deleting_since IS NOT NULL`);
  }

  /** Sets fields of a call (used by processing and by tests that seed data). */
  async update(callId: string, fields: Partial<NewCallRecord>): Promise<void> {
    await this.db.run(sql`UPDATE calls SET ${assignmentsOf(calls, fields)} WHERE id = ${callId}`);
  }
}
