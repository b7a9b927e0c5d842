import { sql } from 'drizzle-orm';
import type { CallRecord } from '../domain/calls/callTypes.js';
import type { FailedCall } from '../domain/webhooks/webhookPayloads.js';
import type { WebhookOutbox } from '../domain/webhooks/WebhookOutbox.js';
import type { SqlDatabase } from '../infrastructure/database/SqlDatabase.js';
import { columnsOf } from '../infrastructure/database/sqlFragments.js';
import { calls } from '../infrastructure/database/tables.js';
import { coveredByActiveHold } from '../domain/legalHolds/heldCalls.js';
import { pastRetention } from '../domain/retention/retentionCandidates.js';

/** A claimed call: the record as it was claimed plus the lease that every later write must present. */
export interface ClaimedCall {
  call: CallRecord;
  lease: string;
}

/** What a takeover did with calls whose holder stopped beating. */
export interface RecoveryOutcome {
  requeued: string[];
  failed: string[];
}

/**
 * Told, in the transaction that failed them, which calls became FAILED: the webhooks' outbox
 * (`call.failed`), woken once that transaction has committed.
 */
export type FailureRecorder = Pick<WebhookOutbox, 'enabled' | 'callsFailed' | 'wake'>;

const callColumns = columnsOf(calls);
/** What a statement that fails calls returns of each. */
const failedColumns = sql`id AS "callId", user_id AS "userId", error_reason AS "errorReason"`;
const inFlight = sql`status IN ('TRANSCRIBING', 'ANALYZING')`;
/** processing_attempts - 1, never below 0 (a hand-back does not count as an attempt). */
const oneAttemptLess = sql`CASE WHEN processing_attempts > 0 THEN processing_attempts - 1 ELSE 0 END`;

/**
 * The durable job queue, kept in the `calls` table itself and shared by every node: QUEUED calls
 * wait in `queued_at` order; a claimed call carries the claiming engine's lease in
 * `worker_lease`, and `heartbeat_at` shows the holder is alive. Every write a run makes is
 * conditional on that lease (and on the call not being deleted), so a run that lost its call
 * (deleted, swept as stale, taken over, handed back) can never write to it again.
 */
export class ProcessingQueue {
  constructor(private readonly db: SqlDatabase, private readonly failures?: FailureRecorder) {}

  /**
   * Takes the oldest queued call, or undefined when none waits. One statement: on PostgreSQL
   * concurrent claims from many nodes skip each other's row (SKIP LOCKED) instead of waiting or
   * taking the same call; SQLite runs one writer at a time.
   */
  async claimNext(lease: string, now: number): Promise<ClaimedCall | undefined> {
    const call = await this.db.get<CallRecord>(sql`
      UPDATE calls SET status = 'TRANSCRIBING', worker_lease = ${lease}, stage = NULL, progress = 0, last_progress_at = ${now},
        heartbeat_at = ${now}, processing_attempts = processing_attempts + 1, error_reason = NULL, updated_at = ${now}
      WHERE seq = (SELECT seq FROM calls WHERE status = 'QUEUED' AND deleting_since IS NULL ORDER BY queued_at, seq LIMIT 1${this.db.forUpdateSkipLocked})
        AND status = 'QUEUED'
      RETURNING ${callColumns}`);
    return call ? { call, lease } : undefined;
  }

  /**
   * Records stage progress; false when the run no longer holds the call. Moves `updated_at` too:
   * the live-status feed (CallStatusFeed) finds changed calls, progress included, by it.
   */
  async reportProgress(callId: string, lease: string, stage: string, progress: number, now: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE calls SET stage = ${stage}, progress = ${progress}, last_progress_at = ${now}, heartbeat_at = ${now}, updated_at = ${now}
      WHERE id = ${callId} AND worker_lease = ${lease} AND deleting_since IS NULL`)) === 1;
  }

  /** Moves a held call to another in-flight status; false when the run no longer holds it. */
  async setStatus(callId: string, lease: string, status: 'TRANSCRIBING' | 'ANALYZING', now: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE calls SET status = ${status}, updated_at = ${now}, last_progress_at = ${now}, heartbeat_at = ${now}
      WHERE id = ${callId} AND worker_lease = ${lease} AND deleting_since IS NULL`)) === 1;
  }

  /** Whether the run still holds the call (not deleted, swept, taken over or handed back). */
  async holds(callId: string, lease: string): Promise<boolean> {
    return (await this.db.get(sql`SELECT 1 AS held FROM calls WHERE id = ${callId} AND worker_lease = ${lease} AND deleting_since IS NULL`)) !== undefined;
  }

  /**
   * The holder's heartbeat: every call the lease holds is marked alive now. Returns the ids it
   * still holds, so the node can stop runs whose call went elsewhere (deleted, failed as stale
   * or taken over by another node while this one could not reach the database).
   */
  async beat(lease: string, now: number): Promise<string[]> {
    await this.db.run(sql`UPDATE calls SET heartbeat_at = ${now} WHERE worker_lease = ${lease} AND ${inFlight} AND deleting_since IS NULL`);
    return (await this.db.all<{ id: string }>(sql`SELECT id FROM calls WHERE worker_lease = ${lease} AND ${inFlight} AND deleting_since IS NULL`)).map((row) => row.id);
  }

  /** Ends a run as FAILED with a reason for the user; false when the run no longer holds the call. */
  async fail(callId: string, lease: string, errorReason: string, now: number): Promise<boolean> {
    return (await this.failing(now, (db) => db.all(sql`UPDATE calls SET status = 'FAILED', error_reason = ${errorReason}, worker_lease = NULL, stage = NULL, updated_at = ${now}
      WHERE id = ${callId} AND worker_lease = ${lease} AND deleting_since IS NULL RETURNING ${failedColumns}`))).length === 1;
  }

  /** Ends a held run as COMPLETED (inside the caller's transaction that stored the results). */
  async complete(callId: string, lease: string, durationSeconds: number | undefined, now: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE calls SET status = 'COMPLETED', error_reason = NULL, worker_lease = NULL, stage = NULL, progress = 1,
        duration_seconds = coalesce(${durationSeconds ?? null}, duration_seconds), updated_at = ${now}
      WHERE id = ${callId} AND worker_lease = ${lease} AND deleting_since IS NULL`)) === 1;
  }

  /** Gives a held call back to the queue (graceful shutdown): the next start runs it again. */
  async handBack(callId: string, lease: string, now: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE calls SET status = 'QUEUED', worker_lease = NULL, stage = NULL, progress = 0,
        processing_attempts = ${oneAttemptLess}, updated_at = ${now}
      WHERE id = ${callId} AND worker_lease = ${lease}`)) === 1;
  }

  /**
   * Takes over in-flight calls whose holder is gone: those with no heartbeat since `cutoff` (a
   * node killed or cut off for longer than LEASE_TIMEOUT_SECONDS), those held by one of
   * `goneLeases` (nodes known dead without waiting: see NodeRegistry.survey), or, with `everyOtherLease`,
   * every call another lease holds (at the start of the one engine on an embedded database, which
   * knows every earlier holder is dead). They go back to the queue keeping their place, unless
   * they have been started `maxAttempts` times already (a call that kills its node every time must
   * not take the site down in a loop): those fail. Each call is taken by one statement, so of
   * nodes sweeping at once exactly one takes it.
   */
  async takeOverAbandoned(lease: string, options: { cutoff: number; everyOtherLease?: boolean; goneLeases?: readonly string[]; maxAttempts: number; now: number }): Promise<RecoveryOutcome> {
    const { cutoff, everyOtherLease = false, goneLeases = [], maxAttempts, now } = options;
    const ofGoneHolder = goneLeases.length > 0 ? sql` OR worker_lease IN ${this.db.inList(goneLeases)}` : sql``;
    const abandoned = everyOtherLease
      ? sql`(worker_lease IS NULL OR worker_lease <> ${lease})`
      : sql`(worker_lease IS NULL OR coalesce(heartbeat_at, last_progress_at, updated_at) < ${cutoff}${ofGoneHolder})`;
    const candidates = sql`${inFlight} AND ${abandoned} AND deleting_since IS NULL AND awaiting_callback_since IS NULL`;
    const failed = await this.failing(now, (db) => db.all(sql`UPDATE calls SET status = 'FAILED', worker_lease = NULL, stage = NULL, updated_at = ${now},
        error_reason = 'Processing was interrupted ' || processing_attempts || ' times (the service stopped while working on this call); it was not tried again'
      WHERE ${candidates} AND processing_attempts >= ${maxAttempts} RETURNING ${failedColumns}`));
    const requeued = await this.db.all<{ id: string }>(sql`UPDATE calls SET status = 'QUEUED', worker_lease = NULL, stage = NULL, progress = 0, updated_at = ${now}
      WHERE ${candidates} AND processing_attempts < ${maxAttempts} RETURNING id`);
    return { requeued: requeued.map((row) => row.id), failed: failed.map((row) => row.callId) };
  }

  /** In-flight calls whose last progress is older than `cutoff`: the stale-job sweep's candidates (calls waiting for a callback have their own bound). */
  staleCalls(cutoff: number): Promise<{ id: string; lease: string | null; stage: string | null }[]> {
    return this.db.all(sql`SELECT id, worker_lease AS lease, stage FROM calls
      WHERE ${inFlight} AND deleting_since IS NULL AND awaiting_callback_since IS NULL AND coalesce(last_progress_at, updated_at) < ${cutoff}`);
  }

  /**
   * A run that submitted its transcription job lets go of the call: no lease, no slot, status
   * still TRANSCRIBING, waiting since `now`. When the callback came already (a fast provider),
   * the call goes straight back to the queue. False when the run no longer held the call.
   */
  async awaitCallback(callId: string, lease: string, answered: boolean, now: number): Promise<boolean> {
    const held = sql`WHERE id = ${callId} AND worker_lease = ${lease} AND deleting_since IS NULL`;
    const changed = answered
      ? await this.db.run(sql`UPDATE calls SET worker_lease = NULL, stage = 'transcription', last_progress_at = ${now}, updated_at = ${now},
          awaiting_callback_since = NULL, status = 'QUEUED', queued_at = ${now}, processing_attempts = ${oneAttemptLess} ${held}`)
      : await this.db.run(sql`UPDATE calls SET worker_lease = NULL, stage = 'transcription', last_progress_at = ${now}, updated_at = ${now},
          awaiting_callback_since = ${now} ${held}`);
    return changed === 1;
  }

  /**
   * The provider's transcript arrived: a waiting call goes back to the queue, to be resumed from
   * what its first run kept (the pair of runs counts as one attempt). False when it was not waiting.
   */
  async resumeAfterCallback(callId: string, now: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE calls SET status = 'QUEUED', awaiting_callback_since = NULL, stage = NULL, queued_at = ${now}, updated_at = ${now},
        processing_attempts = ${oneAttemptLess}
      WHERE id = ${callId} AND status = 'TRANSCRIBING' AND awaiting_callback_since IS NOT NULL AND deleting_since IS NULL`)) === 1;
  }

  /** Fails a call waiting for a callback (the provider's error, or no answer in time); false when it was not waiting. */
  async failWaiting(callId: string, errorReason: string, now: number, waitingBefore = Number.MAX_SAFE_INTEGER): Promise<boolean> {
    return (await this.failing(now, (db) => db.all(sql`UPDATE calls SET status = 'FAILED', error_reason = ${errorReason}, awaiting_callback_since = NULL, stage = NULL, updated_at = ${now}
      WHERE id = ${callId} AND status = 'TRANSCRIBING' AND awaiting_callback_since IS NOT NULL AND awaiting_callback_since < ${waitingBefore}
      RETURNING ${failedColumns}`))).length === 1;
  }

  /** Calls waiting for a callback since before `cutoff`: the sweep fails them. */
  async overdueCallbacks(cutoff: number): Promise<string[]> {
    return (await this.db.all<{ id: string }>(sql`SELECT id FROM calls WHERE status = 'TRANSCRIBING' AND awaiting_callback_since < ${cutoff} AND deleting_since IS NULL`))
      .map((row) => row.id);
  }

  /** Fails a stale call whatever lease it has (the run is stuck or gone). */
  async failStale(callId: string, errorReason: string, cutoff: number, now: number): Promise<boolean> {
    return (await this.failing(now, (db) => db.all(sql`UPDATE calls SET status = 'FAILED', error_reason = ${errorReason}, worker_lease = NULL, stage = NULL, updated_at = ${now}
      WHERE id = ${callId} AND ${inFlight} AND coalesce(last_progress_at, updated_at) < ${cutoff} RETURNING ${failedColumns}`))).length === 1;
  }

  /**
   * Runs a statement that fails calls and returns them; with webhooks configured, their
   * `call.failed` events are recorded in the same transaction (and sent once it commits).
   */
  private async failing(now: number, statement: (db: SqlDatabase) => Promise<FailedCall[]>): Promise<FailedCall[]> {
    const recorder = this.failures;
    if (!recorder?.enabled) return statement(this.db);
    const failed = await this.db.transaction(async (tx) => {
      const rows = await statement(tx);
      if (rows.length > 0) await recorder.callsFailed(tx, rows, now);
      return rows;
    });
    if (failed.length > 0) recorder.wake();
    return failed;
  }

  /**
   * Operator reprocess: a finished call whose audio is still held goes back to the queue.
   * Its analysis and action items are replaced when the new run completes.
   */
  async requeue(callId: string, now: number): Promise<'queued' | 'missing' | 'in_progress' | 'audio_gone'> {
    // One conditional statement decides (a delete or another reprocess on another node cannot slip in); the read after only explains a refusal.
    const queued = await this.db.run(sql`UPDATE calls SET status = 'QUEUED', queued_at = ${now}, error_reason = NULL, stage = NULL, progress = 0,
        processing_attempts = 0, updated_at = ${now}
      WHERE id = ${callId} AND status IN ('COMPLETED', 'FAILED') AND audio_object_key IS NOT NULL AND deleting_since IS NULL`);
    if (queued === 1) return 'queued';
    const call = await this.db.get<{ status: string; audio: string | null; deleting: number | null }>(sql`SELECT status,
      audio_object_key AS audio, deleting_since AS deleting FROM calls WHERE id = ${callId}`);
    if (!call || call.deleting !== null) return 'missing';
    if (call.status !== 'COMPLETED' && call.status !== 'FAILED') return 'in_progress';
    return 'audio_gone';
  }

  /** Finished calls whose audio is older than `cutoff` and still kept (audio retention); a legal hold keeps the audio too. */
  expiredAudio(cutoff: number): Promise<{ id: string; audioKey: string }[]> {
    return this.db.all(sql`SELECT id, audio_object_key AS "audioKey" FROM calls
      WHERE ${pastRetention('audio', cutoff)} AND NOT ${coveredByActiveHold}`);
  }

  /** Records that a call's audio is gone; false when the call was requeued or put under a legal hold meanwhile. */
  async forgetAudio(callId: string, audioKey: string): Promise<boolean> {
    return (await this.db.run(sql`UPDATE calls SET audio_object_key = NULL
      WHERE id = ${callId} AND audio_object_key = ${audioKey} AND status IN ('COMPLETED', 'FAILED') AND NOT ${coveredByActiveHold}`)) === 1;
  }

  /** How many calls wait or run (for readiness and the poll hint); `awaitingCallback` of the in-flight ones wait for a transcription callback, in no engine. */
  async depth(): Promise<{ queued: number; inFlight: number; awaitingCallback: number }> {
    const row = await this.db.get<{ queued: number; inFlight: number; awaitingCallback: number }>(sql`SELECT
      count(CASE WHEN status = 'QUEUED' THEN 1 END) AS queued,
      count(CASE WHEN ${inFlight} THEN 1 END) AS "inFlight",
      count(awaiting_callback_since) AS "awaitingCallback" FROM calls WHERE deleting_since IS NULL`);
    return row ?? { queued: 0, inFlight: 0, awaitingCallback: 0 };
  }
}
