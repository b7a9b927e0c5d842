import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import type { CallStatus } from './callTypes.js';

/** Where a call stands, as the live-status stream reports it. */
export interface CallState {
  callId: string;
  /** The owner: only their streams hear of the call. */
  userId: string;
  status: CallStatus;
  /** Progress of the run in flight, 0..1. */
  progress: number;
  /** The pipeline stage running now; null when not in flight. */
  stage: string | null;
  errorReason: string | null;
  /** When the row last changed (status, progress or stage), ms since the epoch, by the writing node's clock. */
  updatedAt: number;
}

const stateColumns = sql`id AS "callId", user_id AS "userId", status, progress, stage, error_reason AS "errorReason", updated_at AS "updatedAt"`;

/** The reads of the live-status stream: what changed lately (all users at once) and where a user's calls stand. */
export class CallStateRepository {
  /** The feed's query, run about once a second while any stream is open: compiled once. */
  private readonly changedQuery = sql`SELECT ${stateColumns} FROM calls
    WHERE updated_at > ${sql.placeholder('since')} AND deleting_since IS NULL
    ORDER BY updated_at, seq`;
  /** Served by calls_user_status_seq_idx. */
  private readonly unfinishedQuery = sql`SELECT ${stateColumns} FROM calls
    WHERE user_id = ${sql.placeholder('userId')} AND status IN ('QUEUED', 'TRANSCRIBING', 'ANALYZING') AND deleting_since IS NULL
    ORDER BY seq`;
  /** A reconnect's look back: walks the user's calls (calls_user_seq_idx), once per reconnect. */
  private readonly unfinishedOrChangedQuery = sql`SELECT ${stateColumns} FROM calls
    WHERE user_id = ${sql.placeholder('userId')} AND deleting_since IS NULL
      AND (status IN ('QUEUED', 'TRANSCRIBING', 'ANALYZING') OR updated_at > ${sql.placeholder('since')})
    ORDER BY seq`;

  constructor(private readonly db: SqlDatabase) {}

  /** Every user's calls whose row changed after `since` (ms), oldest change first. */
  changedSince(since: number): Promise<CallState[]> {
    return this.db.all<CallState>(this.changedQuery, { since });
  }

  /** The user's calls not yet finished, in upload order; with `changedSince` (ms) also those that changed after it. */
  unfinishedOf(userId: string, changedSince?: number): Promise<CallState[]> {
    return changedSince === undefined
      ? this.db.all<CallState>(this.unfinishedQuery, { userId })
      : this.db.all<CallState>(this.unfinishedOrChangedQuery, { userId, since: changedSince });
  }
}
