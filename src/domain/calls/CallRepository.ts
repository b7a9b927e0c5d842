import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { calls } from '../../infrastructure/database/schema.js';
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

/**
 * Calls of users. Every read takes the owner's id: a call of another user is simply not
 * found, which the HTTP layer turns into 404. Calls being deleted are invisible.
 */
export class CallRepository {
  private readonly byOwner;
  private readonly statusesOfIds;
  private readonly pageAll;
  private readonly pageFiltered;
  private readonly queuedBeforeStatement;
  private readonly inFlightStatement;

  constructor(private readonly db: Db) {
    this.byOwner = db.select().from(calls)
      .where(and(eq(calls.id, sql.placeholder('callId')), eq(calls.userId, sql.placeholder('userId')), isNull(calls.deletingSince)))
      .prepare();
    // json_each lets one prepared statement take a variable-length id list. CROSS JOIN fixes the
    // join order (SQLite never reorders it): the few requested ids drive unique-index lookups,
    // instead of a scan of all the user's calls (70x slower at 10,000 calls).
    this.statusesOfIds = db.$client.prepare<[string, string], CallStatusRow>(`
      SELECT c.id AS id, c.status AS status, c.seq AS seq, c.queued_at AS queuedAt, c.progress AS progress
      FROM json_each(?) AS requested CROSS JOIN calls AS c ON c.id = requested.value
      WHERE c.user_id = ? AND c.deleting_since IS NULL`);
    this.pageAll = db.select().from(calls)
      .where(and(eq(calls.userId, sql.placeholder('userId')), sql`${calls.seq} < ${sql.placeholder('beforeSeq')}`, isNull(calls.deletingSince)))
      .orderBy(sql`${calls.seq} DESC`).limit(sql.placeholder('limit'))
      .prepare();
    this.pageFiltered = db.select().from(calls)
      .where(and(
        eq(calls.userId, sql.placeholder('userId')),
        sql`${calls.status} IN (SELECT value FROM json_each(${sql.placeholder('statuses')}))`,
        sql`${calls.seq} < ${sql.placeholder('beforeSeq')}`,
        isNull(calls.deletingSince),
      ))
      .orderBy(sql`${calls.seq} DESC`).limit(sql.placeholder('limit'))
      .prepare();
    // Queue order is (queued_at, seq), as the engine claims calls.
    this.queuedBeforeStatement = db.$client.prepare<{ queuedAt: number; seq: number }, { count: number }>(`
      SELECT count(*) AS count FROM calls
      WHERE status = 'QUEUED' AND (queued_at < @queuedAt OR (queued_at = @queuedAt AND seq < @seq))`);
    this.inFlightStatement = db.select({ count: sql<number>`count(*)` }).from(calls)
      .where(sql`${calls.status} IN ('TRANSCRIBING', 'ANALYZING')`).prepare();
  }

  insert(call: NewCallRecord): CallRecord {
    return this.db.insert(calls).values(call).returning().get();
  }

  findOwned(userId: string, callId: string): CallRecord | undefined {
    return this.byOwner.get({ userId, callId });
  }

  /** Statuses of those of `ids` that the user owns; unknown and foreign ids are left out. */
  statusesOwned(userId: string, ids: readonly string[]): CallStatusRow[] {
    return this.statusesOfIds.all(JSON.stringify(ids), userId);
  }

  /** One page, newest first; asks for `limit` rows (callers ask one extra to detect more). */
  page(query: CallPageQuery): CallRecord[] {
    const beforeSeq = query.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    if (query.statuses && query.statuses.length > 0) {
      return this.pageFiltered.all({ userId: query.userId, statuses: JSON.stringify(query.statuses), beforeSeq, limit: query.limit });
    }
    return this.pageAll.all({ userId: query.userId, beforeSeq, limit: query.limit });
  }

  /** Queued calls of any user ahead of this one in the queue. */
  queuedBefore(position: { queuedAt: number; seq: number }): number {
    return this.queuedBeforeStatement.get(position)?.count ?? 0;
  }

  /** Calls of any user being processed now. */
  inFlightCount(): number {
    return this.inFlightStatement.get()?.count ?? 0;
  }

  /** Ids of the user's calls still being processed. */
  inFlightIdsOf(userId: string): string[] {
    return this.db.select({ id: calls.id }).from(calls)
      .where(and(eq(calls.userId, userId), sql`${calls.status} IN ('QUEUED', 'TRANSCRIBING', 'ANALYZING')`))
      .all().map((row) => row.id);
  }

  allIdsOf(userId: string): string[] {
    return this.db.select({ id: calls.id }).from(calls).where(eq(calls.userId, userId)).all().map((row) => row.id);
  }

  /**
   * Marks a terminal call as being deleted, atomically with the status check, so a worker or
   * an operator reprocess can no longer pick it up while its files are removed.
   */
  claimForDeletion(userId: string, callId: string, now: number): DeletionClaim {
    return this.db.transaction((tx) => {
      const call = tx.select().from(calls).where(and(eq(calls.id, callId), eq(calls.userId, userId))).get();
      if (!call || call.deletingSince !== null) return call ? { outcome: 'claimed' as const, call } : { outcome: 'missing' as const };
      if (call.status !== 'COMPLETED' && call.status !== 'FAILED') return { outcome: 'in_progress' as const, status: call.status };
      tx.update(calls).set({ deletingSince: now }).where(eq(calls.id, callId)).run();
      return { outcome: 'claimed' as const, call: { ...call, deletingSince: now } };
    }, { behavior: 'immediate' });
  }

  /** Removes the row; artifacts, action items and processing events go with it (cascade). */
  removeRow(callId: string): void {
    this.db.delete(calls).where(eq(calls.id, callId)).run();
  }

  /** Whether the row exists at all, even while being deleted. */
  existsEvenDeleting(callId: string): boolean {
    return this.db.select({ id: calls.id }).from(calls).where(eq(calls.id, callId)).get() !== undefined;
  }

  /** Calls whose deletion was interrupted (crash between file removal and row removal). */
  interruptedDeletions(): { id: string }[] {
    return this.db.select({ id: calls.id }).from(calls).where(sql`${calls.deletingSince} IS NOT NULL`).all();
  }

  /** Sets fields of a call (used by processing and by tests that seed data). */
  update(callId: string, fields: Partial<NewCallRecord>): void {
    this.db.update(calls).set(fields).where(eq(calls.id, callId)).run();
  }
}
