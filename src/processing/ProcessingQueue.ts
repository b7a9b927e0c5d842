import type Database from 'better-sqlite3';
import type { CallRecord } from '../domain/calls/callTypes.js';
import { eq } from 'drizzle-orm';
import type { Db } from '../infrastructure/database/openDatabase.js';
import { calls } from '../infrastructure/database/schema.js';

/** A claimed call: the record as it was claimed plus the lease that every later write must present. */
export interface ClaimedCall {
  call: CallRecord;
  lease: string;
}

/** What start-up recovery did with calls an earlier process left in flight. */
export interface RecoveryOutcome {
  requeued: string[];
  failed: string[];
}

/**
 * The durable job queue, kept in the `calls` table itself: QUEUED calls wait in `queued_at`
 * order; a claimed call carries the claiming engine's lease in `worker_lease`. Every write a run
 * makes is conditional on that lease (and on the call not being deleted), so a run that lost its
 * call (deleted, swept as stale, handed back) can never write to it again.
 */
export class ProcessingQueue {
  private readonly sqlite: Database.Database;
  private readonly claimStatement;
  private readonly progressStatement;
  private readonly statusStatement;
  private readonly holdsStatement;
  private readonly failStatement;
  private readonly completeStatement;

  constructor(private readonly db: Db) {
    this.sqlite = db.$client;
    // One statement: the oldest queued call becomes TRANSCRIBING under our lease, atomically.
    this.claimStatement = this.sqlite.prepare<{ lease: string; now: number }, { id: string }>(`
      UPDATE calls SET status = 'TRANSCRIBING', worker_lease = @lease, stage = NULL, progress = 0,
        last_progress_at = @now, processing_attempts = processing_attempts + 1, error_reason = NULL, updated_at = @now
      WHERE seq = (SELECT seq FROM calls WHERE status = 'QUEUED' AND deleting_since IS NULL ORDER BY queued_at, seq LIMIT 1)
      RETURNING id`);
    this.progressStatement = this.sqlite.prepare<{ id: string; lease: string; stage: string; progress: number; now: number }>(`
      UPDATE calls SET stage = @stage, progress = @progress, last_progress_at = @now
      WHERE id = @id AND worker_lease = @lease AND deleting_since IS NULL`);
    this.statusStatement = this.sqlite.prepare<{ id: string; lease: string; status: string; now: number }>(`
      UPDATE calls SET status = @status, updated_at = @now, last_progress_at = @now
      WHERE id = @id AND worker_lease = @lease AND deleting_since IS NULL`);
    // Checked before every stage and on every write of a run.
    this.holdsStatement = this.sqlite.prepare<[string, string]>('SELECT 1 FROM calls WHERE id = ? AND worker_lease = ? AND deleting_since IS NULL');
    this.failStatement = this.sqlite.prepare<[string, number, string, string]>(`
      UPDATE calls SET status = 'FAILED', error_reason = ?, worker_lease = NULL, stage = NULL, updated_at = ?
      WHERE id = ? AND worker_lease = ? AND deleting_since IS NULL`);
    this.completeStatement = this.sqlite.prepare<[number | null, number, string, string]>(`
      UPDATE calls SET status = 'COMPLETED', error_reason = NULL, worker_lease = NULL, stage = NULL, progress = 1,
        duration_seconds = coalesce(?, duration_seconds), updated_at = ?
      WHERE id = ? AND worker_lease = ? AND deleting_since IS NULL`);
  }

  /** Takes the oldest queued call, or undefined when none waits. */
  claimNext(lease: string, now: number): ClaimedCall | undefined {
    const claimed = this.claimStatement.get({ lease, now });
    const call = claimed && this.db.select().from(calls).where(eq(calls.id, claimed.id)).get();
    return call ? { call, lease } : undefined;
  }

  /** Records stage progress; false when the run no longer holds the call. */
  reportProgress(callId: string, lease: string, stage: string, progress: number, now: number): boolean {
    return this.progressStatement.run({ id: callId, lease, stage, progress, now }).changes === 1;
  }

  /** Moves a held call to another in-flight status; false when the run no longer holds it. */
  setStatus(callId: string, lease: string, status: 'TRANSCRIBING' | 'ANALYZING', now: number): boolean {
    return this.statusStatement.run({ id: callId, lease, status, now }).changes === 1;
  }

  /** Whether the run still holds the call (not deleted, swept or handed back). */
  holds(callId: string, lease: string): boolean {
    return this.holdsStatement.get(callId, lease) !== undefined;
  }

  /** Ends a run as FAILED with a reason for the user; false when the run no longer holds the call. */
  fail(callId: string, lease: string, errorReason: string, now: number): boolean {
    return this.failStatement.run(errorReason, now, callId, lease).changes === 1;
  }

  /** Ends a held run as COMPLETED (inside the caller's transaction that stored the results). */
  complete(callId: string, lease: string, durationSeconds: number | undefined, now: number): boolean {
    return this.completeStatement.run(durationSeconds ?? null, now, callId, lease).changes === 1;
  }

  /** Gives a held call back to the queue (graceful shutdown): the next start runs it again. */
  handBack(callId: string, lease: string, now: number): boolean {
    return this.sqlite.prepare(`
      UPDATE calls SET status = 'QUEUED', worker_lease = NULL, stage = NULL, progress = 0, processing_attempts = max(processing_attempts - 1, 0), updated_at = ?
      WHERE id = ? AND worker_lease = ?`).run(now, callId, lease).changes === 1;
  }

  /**
   * Start-up recovery: calls left in flight by a process that died go back to the queue (keeping
   * their place), unless they have been started `maxAttempts` times already (a call that kills
   * the process every time must not take the box down in a loop): those fail.
   */
  recoverAbandoned(currentLease: string, maxAttempts: number, now: number): RecoveryOutcome {
    return this.sqlite.transaction(() => {
      const abandoned = this.sqlite.prepare(`
        SELECT id, processing_attempts AS attempts FROM calls
        WHERE status IN ('TRANSCRIBING', 'ANALYZING') AND (worker_lease IS NULL OR worker_lease <> ?) AND deleting_since IS NULL
          AND awaiting_callback_since IS NULL`)
        .all(currentLease) as { id: string; attempts: number }[];
      const outcome: RecoveryOutcome = { requeued: [], failed: [] };
      for (const { id, attempts } of abandoned) {
        if (attempts >= maxAttempts) {
          this.sqlite.prepare(`UPDATE calls SET status = 'FAILED', worker_lease = NULL, stage = NULL, updated_at = ?,
            error_reason = ? WHERE id = ?`).run(now, `Processing was interrupted ${attempts} times (the service stopped while working on this call); it was not tried again`, id);
          outcome.failed.push(id);
        } else {
          this.sqlite.prepare(`UPDATE calls SET status = 'QUEUED', worker_lease = NULL, stage = NULL, progress = 0, updated_at = ?
            WHERE id = ?`).run(now, id);
          outcome.requeued.push(id);
        }
      }
      return outcome;
    }).immediate();
  }

  /** In-flight calls whose last progress is older than `cutoff`: the stale-job sweep's candidates (calls waiting for a callback have their own bound). */
  staleCalls(cutoff: number): { id: string; lease: string | null; stage: string | null }[] {
    return this.sqlite.prepare(`
      SELECT id, worker_lease AS lease, stage FROM calls
      WHERE status IN ('TRANSCRIBING', 'ANALYZING') AND deleting_since IS NULL AND awaiting_callback_since IS NULL
        AND coalesce(last_progress_at, updated_at) < ?`)
      .all(cutoff) as { id: string; lease: string | null; stage: string | null }[];
  }

  /**
   * A run that submitted its transcription job lets go of the call: no lease, no slot, status
   * still TRANSCRIBING, waiting since `now`. When the callback came already (a fast provider),
   * the call goes straight back to the queue. False when the run no longer held the call.
   */
  awaitCallback(callId: string, lease: string, answered: boolean, now: number): boolean {
    return this.sqlite.prepare(`
      UPDATE calls SET worker_lease = NULL, stage = 'transcription', last_progress_at = @now, updated_at = @now,
        awaiting_callback_since = CASE WHEN @answered THEN NULL ELSE @now END,
        status = CASE WHEN @answered THEN 'QUEUED' ELSE status END,
        queued_at = CASE WHEN @answered THEN @now ELSE queued_at END,
        processing_attempts = CASE WHEN @answered THEN max(processing_attempts - 1, 0) ELSE processing_attempts END
      WHERE id = @id AND worker_lease = @lease AND deleting_since IS NULL`).run({ id: callId, lease, answered: answered ? 1 : 0, now }).changes === 1;
  }

  /**
   * The provider's transcript arrived: a waiting call goes back to the queue, to be resumed from
   * what its first run kept (the pair of runs counts as one attempt). False when it was not waiting.
   */
  resumeAfterCallback(callId: string, now: number): boolean {
    return this.sqlite.prepare(`
      UPDATE calls SET status = 'QUEUED', awaiting_callback_since = NULL, stage = NULL, queued_at = ?, updated_at = ?,
        processing_attempts = max(processing_attempts - 1, 0)
      WHERE id = ? AND status = 'TRANSCRIBING' AND awaiting_callback_since IS NOT NULL AND deleting_since IS NULL`).run(now, now, callId).changes === 1;
  }

  /** Fails a call waiting for a callback (the provider's error, or no answer in time); false when it was not waiting. */
  failWaiting(callId: string, errorReason: string, now: number, waitingBefore = Number.POSITIVE_INFINITY): boolean {
    return this.sqlite.prepare(`
      UPDATE calls SET status = 'FAILED', error_reason = ?, awaiting_callback_since = NULL, stage = NULL, updated_at = ?
      WHERE id = ? AND status = 'TRANSCRIBING' AND awaiting_callback_since IS NOT NULL AND awaiting_callback_since < ?`)
      .run(errorReason, now, callId, Number.isFinite(waitingBefore) ? waitingBefore : Number.MAX_SAFE_INTEGER).changes === 1;
  }

  /** Calls waiting for a callback since before `cutoff`: the sweep fails them. */
  overdueCallbacks(cutoff: number): string[] {
    return (this.sqlite.prepare(`SELECT id FROM calls WHERE status = 'TRANSCRIBING' AND awaiting_callback_since < ? AND deleting_since IS NULL`)
      .all(cutoff) as { id: string }[]).map((row) => row.id);
  }

  /** Fails a stale call whatever lease it has (the run is stuck or gone). */
  failStale(callId: string, errorReason: string, cutoff: number, now: number): boolean {
    return this.sqlite.prepare(`
      UPDATE calls SET status = 'FAILED', error_reason = ?, worker_lease = NULL, stage = NULL, updated_at = ?
      WHERE id = ? AND status IN ('TRANSCRIBING', 'ANALYZING') AND coalesce(last_progress_at, updated_at) < ?`)
      .run(errorReason, now, callId, cutoff).changes === 1;
  }

  /**
   * Operator reprocess: a finished call whose audio is still held goes back to the queue.
   * Its analysis and action items are replaced when the new run completes.
   */
  requeue(callId: string, now: number): 'queued' | 'missing' | 'in_progress' | 'audio_gone' {
    return this.sqlite.transaction(() => {
      const call = this.sqlite.prepare('SELECT status, audio_object_key AS audio, deleting_since AS deleting FROM calls WHERE id = ?').get(callId) as
        { status: string; audio: string | null; deleting: number | null } | undefined;
      if (!call || call.deleting !== null) return 'missing' as const;
      if (call.status !== 'COMPLETED' && call.status !== 'FAILED') return 'in_progress' as const;
      if (call.audio === null) return 'audio_gone' as const;
      this.sqlite.prepare(`UPDATE calls SET status = 'QUEUED', queued_at = ?, error_reason = NULL, stage = NULL, progress = 0,
        processing_attempts = 0, updated_at = ? WHERE id = ?`).run(now, now, callId);
      return 'queued' as const;
    }).immediate();
  }

  /** Finished calls whose audio is older than `cutoff` and still held (audio retention). */
  expiredAudio(cutoff: number): { id: string; audioKey: string }[] {
    return this.sqlite.prepare(`
      SELECT id, audio_object_key AS audioKey FROM calls
      WHERE status IN ('COMPLETED', 'FAILED') AND audio_object_key IS NOT NULL AND deleting_since IS NULL AND updated_at < ?`)
      .all(cutoff) as { id: string; audioKey: string }[];
  }

  /** Records that a call's audio is gone; false when the call was requeued meanwhile. */
  forgetAudio(callId: string, audioKey: string): boolean {
    return this.sqlite.prepare(`UPDATE calls SET audio_object_key = NULL
      WHERE id = ? AND audio_object_key = ? AND status IN ('COMPLETED', 'FAILED')`).run(callId, audioKey).changes === 1;
  }

  /** How many calls wait or run (for readiness and the poll hint); `awaitingCallback` of the in-flight ones wait for a transcription callback, in no engine. */
  depth(): { queued: number; inFlight: number; awaitingCallback: number } {
    return this.sqlite.prepare(`SELECT coalesce(sum(status = 'QUEUED'), 0) AS queued,
      coalesce(sum(status IN ('TRANSCRIBING', 'ANALYZING')), 0) AS inFlight,
      coalesce(sum(awaiting_callback_since IS NOT NULL), 0) AS awaitingCallback FROM calls WHERE deleting_since IS NULL`).get() as { queued: number; inFlight: number; awaitingCallback: number };
  }
}
