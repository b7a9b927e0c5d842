import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../infrastructure/database/SqlDatabase.js';
import { columnsOf } from '../infrastructure/database/sqlFragments.js';
import { processingEvents } from '../infrastructure/database/tables.js';

/** `WAITING`: the stage handed the work to a provider that answers with a callback (the run ended there). */
export type StageOutcome = 'RUNNING' | 'OK' | 'FAILED' | 'RETRIED' | 'WARNED' | 'INTERRUPTED' | 'WAITING';
export type ProcessingEventRecord = typeof processingEvents.$inferSelect;

/**
 * One row per stage run of a call: written when the stage starts (RUNNING), closed with its
 * outcome, end time and duration. A run cut by a crash stays visible as INTERRUPTED.
 * `detail` holds counts and figures only, never transcript text or personal data.
 */
export class ProcessingEventRepository {
  constructor(private readonly db: SqlDatabase) {}

  async start(callId: string, stage: string, now: number): Promise<number> {
    const row = await this.db.get<{ id: number }>(sql`INSERT INTO processing_events (call_id, stage, outcome, started_at)
      VALUES (${callId}, ${stage}, 'RUNNING', ${now}) RETURNING id`);
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async finish(eventId: number, outcome: Exclude<StageOutcome, 'RUNNING'>, now: number, detail?: Record<string, unknown>): Promise<void> {
    await this.db.run(sql`UPDATE processing_events SET outcome = ${outcome}, ended_at = ${now}, duration_ms = ${now} - started_at,
      detail = ${detail ? JSON.stringify(detail) : null} WHERE id = ${eventId}`);
  }

  /** Marks the events left RUNNING by runs that ended without closing them (a node that died): of these calls, or of every call. */
  closeInterrupted(now: number, callIds?: readonly string[]): Promise<number> {
    const ofCalls = callIds ? sql` AND call_id IN ${this.db.inList(callIds)}` : sql``;
    return this.db.run(sql`UPDATE processing_events SET outcome = 'INTERRUPTED', ended_at = ${now} WHERE outcome = 'RUNNING'${ofCalls}`);
  }

  forCall(callId: string): Promise<ProcessingEventRecord[]> {
    return this.db.all<ProcessingEventRecord>(sql`SELECT ${columnsOf(processingEvents)} FROM processing_events WHERE call_id = ${callId} ORDER BY id`);
  }
}
