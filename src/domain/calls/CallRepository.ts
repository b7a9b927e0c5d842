import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { assignmentsOf, columnsOf, insertInto, listOf } from '../../infrastructure/database/sqlFragments.js';
import { calls } from '../../infrastructure/database/tables.js';
import type { CallRecord, CallStatus, NewCallRecord } from './callTypes.js';

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
  | { outcome: 'in_progress'; status: CallStatus };

/** Every column of a call, named as {@link CallRecord}'s fields. */
const callColumns = columnsOf(calls);

/**
 * Calls of users. Every read takes the owner's id: a call of another user is simply not
 * found, which the HTTP layer turns into 404. Calls being deleted are invisible.
 */
export class CallRepository {
  constructor(private readonly db: SqlDatabase) {}

  async insert(call: NewCallRecord): Promise<CallRecord> {
    const row = await this.db.get<CallRecord>(sql`${insertInto(calls, [call])} RETURNING ${callColumns}`);
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  findOwned(userId: string, callId: string): Promise<CallRecord | undefined> {
    return this.db.get<CallRecord>(sql`SELECT ${callColumns} FROM calls WHERE id = ${callId} AND user_id = ${userId} AND deleting_since IS NULL`);
  }

  /** Statuses of those of `ids` that the user owns; unknown and foreign ids are left out. */
  statusesOwned(userId: string, ids: readonly string[]): Promise<CallStatusRow[]> {
    // The few requested ids drive unique-index lookups on calls.id, whatever the user's call count.
    return this.db.all<CallStatusRow>(sql`
      SELECT id, status, seq, queued_at AS "queuedAt", progress FROM calls
      WHERE id IN ${listOf(ids)} AND user_id = ${userId} AND deleting_since IS NULL`);
  }

  /** One page, newest first; asks for `limit` rows (callers ask one extra to detect more). */
  page(query: CallPageQuery): Promise<CallRecord[]> {
    const beforeSeq = query.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    const statusFilter = query.statuses && query.statuses.length > 0 ? sql` AND status IN ${listOf(query.statuses)}` : sql``;
    return this.db.all<CallRecord>(sql`
      SELECT ${callColumns} FROM calls
      WHERE user_id = ${query.userId}${statusFilter} AND seq < ${beforeSeq} AND deleting_since IS NULL
      ORDER BY seq DESC LIMIT ${query.limit}`);
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
   */
  claimForDeletion(userId: string, callId: string, now: number): Promise<DeletionClaim> {
    return this.db.transaction(async (tx) => {
      const call = await tx.get<CallRecord>(sql`SELECT ${callColumns} FROM calls WHERE id = ${callId} AND user_id = ${userId}${tx.forUpdate}`);
      if (!call || call.deletingSince !== null) return call ? { outcome: 'claimed' as const, call } : { outcome: 'missing' as const };
      if (call.status !== 'COMPLETED' && call.status !== 'FAILED') return { outcome: 'in_progress' as const, status: call.status };
      await tx.run(sql`UPDATE calls SET deleting_since = ${now} WHERE id = ${callId}`);
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
