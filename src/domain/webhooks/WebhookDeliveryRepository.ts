import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { webhookDeliveries } from '../../infrastructure/database/tables.js';
import { withoutTranscript } from './webhookPayloads.js';

export type WebhookDeliveryRecord = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDeliveryRecord = typeof webhookDeliveries.$inferInsert;
export type WebhookDeliveryState = WebhookDeliveryRecord['state'];

/** A delivery as the admin page lists it: everything but the payload. */
export type WebhookDeliverySummary = Omit<WebhookDeliveryRecord, 'payload' | 'leaseOwner' | 'leaseUntil'>;

/** How an attempt ended, as the row records it (never the response body). */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

const deliveryColumns = columnsOf(webhookDeliveries);
const summaryColumns = sql.raw(`seq, message_id AS "messageId", event_type AS "eventType", url, state, attempts, next_attempt_at AS "nextAttemptAt",
  last_status_code AS "lastStatusCode", last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt", delivered_at AS "deliveredAt"`);
/** A pending row no dispatcher holds (none did, or its lease ran out: that node died mid-send). */
const free = (now: number) => sql`state = 'pending' AND (lease_until IS NULL OR lease_until < ${now})`;

/**
 * The outbox of signed webhooks (`webhook_deliveries`): one row per event and endpoint, written in
 * the transaction of the change it reports, claimed by a node's dispatcher under a lease, and kept
 * after delivery for the admin page until WEBHOOK_RETENTION_DAYS. Every write of an attempt's
 * result is conditional on the lease, so a dispatcher that lost its row cannot overwrite it.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly db: SqlDatabase) {}

  async insert(rows: readonly NewWebhookDeliveryRecord[]): Promise<void> {
    if (rows.length > 0) await this.db.run(insertInto(webhookDeliveries, rows));
  }

  /**
   * Takes up to `limit` due rows for `leaseOwner` until `leaseUntil`, oldest due first. One
   * statement: on PostgreSQL concurrent claims on other nodes skip the rows this one locks
   * (SKIP LOCKED), so no message is sent by two dispatchers at once. The choice is a
   * MATERIALIZED CTE: as a plain `IN (SELECT … LIMIT n)` PostgreSQL may run the subquery once per
   * row it looks at and take far more than `limit`.
   */
  claimDue(leaseOwner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDeliveryRecord[]> {
    return this.db.all<WebhookDeliveryRecord>(sql`WITH due AS MATERIALIZED (SELECT seq FROM webhook_deliveries
        WHERE ${free(now)} AND next_attempt_at <= ${now} ORDER BY next_attempt_at, seq LIMIT ${limit}${this.db.forUpdateSkipLocked})
      UPDATE webhook_deliveries SET lease_owner = ${leaseOwner}, lease_until = ${leaseUntil}
      WHERE seq IN (SELECT seq FROM due) AND ${free(now)}
      RETURNING ${deliveryColumns}`);
  }

  /** A 2xx: delivered. False when the lease was lost. */
  async recordDelivered(seq: number, leaseOwner: string, statusCode: number, now: number): Promise<boolean> {
    return (await this.db.run(sql`UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, last_status_code = ${statusCode},
        last_error = NULL, delivered_at = ${now}, updated_at = ${now}, lease_owner = NULL, lease_until = NULL
      WHERE seq = ${seq} AND lease_owner = ${leaseOwner}`)) === 1;
  }

  /** A failed attempt: tried again at `nextAttemptAt`, or, without one, given up (`failed`). False when the lease was lost. */
  async recordFailedAttempt(seq: number, leaseOwner: string, outcome: AttemptOutcome, nextAttemptAt: number | undefined, now: number): Promise<boolean> {
    const next = nextAttemptAt === undefined ? sql`state = 'failed'` : sql`next_attempt_at = ${nextAttemptAt}`;
    return (await this.db.run(sql`UPDATE webhook_deliveries SET ${next}, attempts = attempts + 1, last_status_code = ${outcome.statusCode},
        last_error = ${outcome.error}, updated_at = ${now}, lease_owner = NULL, lease_until = NULL
      WHERE seq = ${seq} AND lease_owner = ${leaseOwner}`)) === 1;
  }

  /** Gives a claimed row back unsent (the dispatcher stops): due at once for the next one, no attempt counted. */
  async release(seq: number, leaseOwner: string): Promise<void> {
    await this.db.run(sql`UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE seq = ${seq} AND lease_owner = ${leaseOwner}`);
  }

  /** The newest deliveries first. */
  recent(limit: number): Promise<WebhookDeliverySummary[]> {
    return this.db.all<WebhookDeliverySummary>(sql`SELECT ${summaryColumns} FROM webhook_deliveries ORDER BY seq DESC LIMIT ${limit}`);
  }

  find(seq: number): Promise<WebhookDeliverySummary | undefined> {
    return this.db.get<WebhookDeliverySummary>(sql`SELECT ${summaryColumns} FROM webhook_deliveries WHERE seq = ${seq}`);
  }

  /**
   * Resend: the row is due again now with a fresh count of attempts, under its own message id
   * (receivers recognise the repeat by it). A send under way keeps its lease and records its result.
   */
  async requeue(seq: number, now: number): Promise<WebhookDeliverySummary | undefined> {
    return this.db.get<WebhookDeliverySummary>(sql`UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ${now},
        delivered_at = NULL, updated_at = ${now}
      WHERE seq = ${seq} RETURNING ${summaryColumns}`);
  }

  /** How many rows are in each state. */
  async countByState(): Promise<Record<WebhookDeliveryState, number>> {
    const rows = await this.db.all<{ state: WebhookDeliveryState; count: number }>(sql`SELECT state, count(*) AS count FROM webhook_deliveries GROUP BY state`);
    const count = (state: WebhookDeliveryState) => rows.find((row) => row.state === state)?.count ?? 0;
    return { pending: count('pending'), delivered: count('delivered'), failed: count('failed') };
  }

  /** Removes delivered and failed rows last changed before `cutoff`; how many. */
  prune(cutoff: number): Promise<number> {
    return this.db.run(sql`DELETE FROM webhook_deliveries WHERE state IN ('delivered', 'failed') AND updated_at < ${cutoff}`);
  }

  /**
   * Takes the transcript out of the `call.completed` bodies of a call being deleted, delivered or
   * not: its text must not outlive the call here. Call ids are UUIDs: no LIKE wildcard in them.
   */
  async removeTranscriptsOf(callId: string): Promise<void> {
    const rows = await this.db.all<{ seq: number; payload: string }>(sql`SELECT seq, payload FROM webhook_deliveries
      WHERE event_type = 'call.completed' AND payload LIKE ${`%"callId":"${callId}"%`}${this.db.forUpdate}`);
    for (const row of rows) {
      const redacted = withoutTranscript(row.payload);
      if (redacted !== undefined) await this.db.run(sql`UPDATE webhook_deliveries SET payload = ${redacted} WHERE seq = ${row.seq}`);
    }
  }
}
