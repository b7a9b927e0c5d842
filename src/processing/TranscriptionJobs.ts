import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Db } from '../infrastructure/database/openDatabase.js';

export type TranscriptionJobState = 'waiting' | 'received' | 'failed' | 'abandoned';

export interface TranscriptionJob {
  jobId: string;
  callId: string;
  state: TranscriptionJobState;
  submittedAt: number;
  /** Set when the provider reported a failure: the call's errorReason. */
  errorReason: string | null;
}

const jobColumns = 'job_id AS jobId, call_id AS callId, state, submitted_at AS submittedAt, error_reason AS errorReason';

/**
 * Jobs submitted to a transcription provider that answers with a callback, and the
 * `webhook-id`s of the callbacks accepted (so that a replay changes nothing). A call has at most
 * one `waiting` job: a new submission (a retry, a reprocess) abandons the one before.
 */
export class TranscriptionJobs {
  private readonly sqlite: Database.Database;

  constructor(db: Db) {
    this.sqlite = db.$client;
  }

  /** A new job id: 24 random bytes, base64url (unguessable: it is what a callback names). */
  static newJobId(): string {
    return `job_${randomBytes(24).toString('base64url')}`;
  }

  /** Records a job about to be submitted; the call's earlier waiting jobs are abandoned. */
  open(jobId: string, callId: string, now: number): void {
    this.sqlite.transaction(() => {
      this.sqlite.prepare(`UPDATE transcription_jobs SET state = 'abandoned', ended_at = ? WHERE call_id = ? AND state = 'waiting'`).run(now, callId);
      this.sqlite.prepare(`INSERT INTO transcription_jobs (job_id, call_id, state, submitted_at) VALUES (?, ?, 'waiting', ?)`).run(jobId, callId, now);
    }).immediate();
  }

  find(jobId: string): TranscriptionJob | undefined {
    return this.sqlite.prepare(`SELECT ${jobColumns} FROM transcription_jobs WHERE job_id = ?`)
      .get(jobId) as TranscriptionJob | undefined;
  }

  /** Ends a waiting job (with the call's errorReason when the provider reported a failure); false when it was not waiting. */
  end(jobId: string, state: Exclude<TranscriptionJobState, 'waiting'>, now: number, errorReason: string | null = null): boolean {
    return this.sqlite.prepare(`UPDATE transcription_jobs SET state = ?, ended_at = ?, error_reason = ? WHERE job_id = ? AND state = 'waiting'`)
      .run(state, now, errorReason, jobId).changes === 1;
  }

  /** Gives up the call's waiting job (no callback in time): a late callback for it is refused. */
  abandonWaiting(callId: string, now: number): void {
    this.sqlite.prepare(`UPDATE transcription_jobs SET state = 'abandoned', ended_at = ? WHERE call_id = ? AND state = 'waiting'`).run(now, callId);
  }

  /** Whether the call's latest job has been answered (a callback that came before the call was marked as waiting). */
  latestReceived(callId: string): TranscriptionJob | undefined {
    return this.sqlite.prepare(`SELECT ${jobColumns} FROM transcription_jobs
      WHERE call_id = ? ORDER BY submitted_at DESC, rowid DESC LIMIT 1`).get(callId) as TranscriptionJob | undefined;
  }

  /** Whether a callback with this `webhook-id` was accepted before. */
  seen(webhookId: string): boolean {
    return this.sqlite.prepare('SELECT 1 FROM webhook_receipts WHERE webhook_id = ?').get(webhookId) !== undefined;
  }

  /** Remembers an accepted callback's `webhook-id` (inside the caller's transaction). */
  remember(webhookId: string, jobId: string, now: number): void {
    this.sqlite.prepare('INSERT OR IGNORE INTO webhook_receipts (webhook_id, job_id, received_at) VALUES (?, ?, ?)').run(webhookId, jobId, now);
  }

  /** Runs `work` in one immediate transaction. */
  atomically<T>(work: () => T): T {
    return this.sqlite.transaction(work).immediate();
  }
}
