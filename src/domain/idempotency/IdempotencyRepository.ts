import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { idempotencyRecords } from '../../infrastructure/database/tables.js';

/** How long a key is remembered for its user: 24 hours. */
export const idempotencyRetentionMs = 24 * 60 * 60 * 1000;

export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;

/** The response first given to a key, replayed to every repeat. */
export interface StoredResponse {
  statusCode: number;
  /** Serialized JSON body; null for 204. */
  body: string | null;
}

export type KeyClaim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

export class IdempotencyRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** The live record of a key; an expired one is removed and reported absent. */
  async find(userId: string, key: string, now: number): Promise<IdempotencyRecord | undefined> {
    const record = await this.db.get<IdempotencyRecord>(sql`SELECT ${columnsOf(idempotencyRecords)} FROM idempotency_records
      WHERE user_id = ${userId} AND key = ${key}`);
    if (record && record.createdAt <= now - idempotencyRetentionMs) {
      await this.db.run(sql`DELETE FROM idempotency_records WHERE user_id = ${userId} AND key = ${key} AND created_at = ${record.createdAt}`);
      return undefined;
    }
    return record;
  }

  /**
   * Claims a key for a request about to run. Returns the existing record instead when the key
   * is taken (by a finished request, or one still running, on this node or another).
   */
  claim(userId: string, key: string, fingerprint: string, now: number): Promise<KeyClaim> {
    return this.insertUnlessTaken(userId, key, now, { userId, key, fingerprint, state: 'PENDING', createdAt: now });
  }

  /**
   * Records a key with its response in one step (inside the caller's transaction, with the call
   * it created): `claimed: false` with the record that holds the key when it is taken.
   */
  claimCompleted(userId: string, key: string, fingerprint: string, response: StoredResponse, now: number): Promise<KeyClaim> {
    return this.insertUnlessTaken(userId, key, now, {
      userId, key, fingerprint, state: 'COMPLETE', statusCode: response.statusCode, responseBody: response.body, createdAt: now,
    });
  }

  /** Stores a finished request's response under its claimed key. */
  async complete(userId: string, key: string, response: StoredResponse): Promise<void> {
    await this.db.run(sql`UPDATE idempotency_records SET state = 'COMPLETE', status_code = ${response.statusCode}, response_body = ${response.body}
      WHERE user_id = ${userId} AND key = ${key}`);
  }

  /** Forgets a key, so a retry runs the request again (after a server-side failure). */
  async release(userId: string, key: string): Promise<void> {
    await this.db.run(sql`DELETE FROM idempotency_records WHERE user_id = ${userId} AND key = ${key}`);
  }

  purgeExpired(now: number): Promise<number> {
    return this.db.run(sql`DELETE FROM idempotency_records WHERE created_at < ${now - idempotencyRetentionMs}`);
  }

  /**
   * Inserts the record unless a live one holds the key. The insert itself decides between
   * concurrent requests (ON CONFLICT DO NOTHING), so exactly one of them claims the key; an
   * expired holder is removed first and the insert tried again.
   */
  private async insertUnlessTaken(userId: string, key: string, now: number, record: typeof idempotencyRecords.$inferInsert): Promise<KeyClaim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await this.find(userId, key, now);
      if (existing) return { claimed: false, existing };
      if (await this.db.run(sql`${insertInto(idempotencyRecords, [record])} ON CONFLICT DO NOTHING`) === 1) return { claimed: true };
    }
    throw new Error('idempotency key kept changing hands');
  }
}
