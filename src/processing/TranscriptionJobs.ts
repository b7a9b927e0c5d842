import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../infrastructure/database/SqlDatabase.js';

export type TranscriptionJobState = 'waiting' | 'received' | 'failed' | 'abandoned';

export interface TranscriptionJob {
  jobId: string;
  callId: string;
  state: TranscriptionJobState;
  submittedAt: number;
  /** Set when the provider reported a failure: the call's errorReason. */
  errorReason: string | null;
}

const jobColumns = sql`job_id AS "jobId", call_id AS "callId", state, submitted_at AS "submittedAt", error_reason AS "errorReason"`;

/**
 * Jobs submitted to a transcription provider that answers with a callback, and the
 * `webhook-id`s of the callbacks accepted (so that a replay changes nothing). A call has at most
 * one `waiting` job: a new submission (a retry, a reprocess) abandons the one before.
 */
export class TranscriptionJobs {
  constructor(private readonly db: SqlDatabase) {}

  /** A new job id: 24 random bytes, base64url (unguessable: it is what a callback names). */
  static newJobId(): string {
    return `job_${randomBytes(24).toString('base64url')}`;
  }

  /** Records a job about to be submitted; the call's earlier waiting jobs are abandoned. */
  open(jobId: string, callId: string, now: number): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(sql`UPDATE transcription_jobs SET state = 'abandoned', ended_at = ${now} WHERE call_id = ${callId} AND state = 'waiting'`);
      await tx.run(sql`INSERT INTO transcription_jobs (job_id, call_id, state, submitted_at) VALUES (${jobId}, ${callId}, 'waiting', ${now})`);
    });
  }

  find(jobId: string): Promise<TranscriptionJob | undefined> {
    return this.db.get<TranscriptionJob>(sql`SELECT ${jobColumns} FROM transcription_jobs WHERE job_id = ${jobId}`);
  }

  /** Ends a waiting job (with the call's errorReason when the provider reported a failure); false when it was not waiting. */
  async end(jobId: string, state: Exclude<TranscriptionJobState, 'waiting'>, now: number, errorReason: string | null = null): Promise<boolean> {
    return (await this.db.run(sql`UPDATE transcription_jobs SET state = ${state}, ended_at = ${now}, error_reason = ${errorReason}
      WHERE job_id = ${jobId} AND state = 'waiting'`)) === 1;
  }

  /** Gives up the call's waiting job (no callback in time): a late callback for it is refused. */
  async abandonWaiting(callId: string, now: number): Promise<void> {
    await this.db.run(sql`UPDATE transcription_jobs SET state = 'abandoned', ended_at = ${now} WHERE call_id = ${callId} AND state = 'waiting'`);
  }

  /** Whether a callback with this `webhook-id` was accepted before. */
  async seen(webhookId: string): Promise<boolean> {
    return (await this.db.get(sql`SELECT 1 AS seen FROM webhook_receipts WHERE webhook_id = ${webhookId}`)) !== undefined;
  }

  /** Remembers an accepted callback's `webhook-id` (inside the caller's transaction). */
  async remember(webhookId: string, jobId: string, now: number): Promise<void> {
    await this.db.run(sql`INSERT INTO webhook_receipts (webhook_id, job_id, received_at) VALUES (${webhookId}, ${jobId}, ${now}) ON CONFLICT DO NOTHING`);
  }
}
