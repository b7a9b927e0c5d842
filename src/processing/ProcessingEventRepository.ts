import { eq, sql } from 'drizzle-orm';
import type { Db } from '../infrastructure/database/openDatabase.js';
import { processingEvents } from '../infrastructure/database/schema.js';

/** `WAITING`: the stage handed the work to a provider that answers with a callback (the run ended there). */
export type StageOutcome = 'RUNNING' | 'OK' | 'FAILED' | 'RETRIED' | 'WARNED' | 'INTERRUPTED' | 'WAITING';
export type ProcessingEventRecord = typeof processingEvents.$inferSelect;

/**
 * One row per stage run of a call: written when the stage starts (RUNNING), closed with its
 * outcome, end time and duration. A run cut by a crash stays visible as INTERRUPTED.
 * `detail` holds counts and figures only, never transcript text or personal data.
 */
export class ProcessingEventRepository {
  constructor(private readonly db: Db) {}

  start(callId: string, stage: string, now: number): number {
    return this.db.insert(processingEvents).values({ callId, stage, outcome: 'RUNNING', startedAt: now }).returning({ id: processingEvents.id }).get().id;
  }

  finish(eventId: number, outcome: Exclude<StageOutcome, 'RUNNING'>, now: number, detail?: Record<string, unknown>): void {
    this.db.update(processingEvents)
      .set({ outcome, endedAt: now, durationMs: sql`${now} - ${processingEvents.startedAt}`, detail: detail ? JSON.stringify(detail) : null })
      .where(eq(processingEvents.id, eventId)).run();
  }

  /** Marks events left RUNNING by a process that died. */
  closeInterrupted(now: number): number {
    return this.db.update(processingEvents).set({ outcome: 'INTERRUPTED', endedAt: now })
      .where(eq(processingEvents.outcome, 'RUNNING')).run().changes;
  }

  forCall(callId: string): ProcessingEventRecord[] {
    return this.db.select().from(processingEvents).where(eq(processingEvents.callId, callId)).orderBy(processingEvents.id).all();
  }

}
