import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { idempotencyRecords } from '../../infrastructure/database/schema.js';

/** How long a key is remembered for its user: 24 hours. */
export const idempotencyRetentionMs = 24 * 60 * 60 * 1000;

export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;

/** The response first given to a key, replayed to every repeat. */
export interface StoredResponse {
  statusCode: number;
  /** Serialized JSON body; null for 204. */
  body: string | null;
}

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /** The live record of a key; an expired one is removed and reported absent. */
  find(userId: string, key: string, now: number): IdempotencyRecord | undefined {
    const record = this.db.select().from(idempotencyRecords)
      .where(and(eq(idempotencyRecords.userId, userId), eq(idempotencyRecords.key, key))).get();
    if (record && record.createdAt <= now - idempotencyRetentionMs) {
      this.release(userId, key);
      return undefined;
    }
    return record;
  }

  /**
   * Claims a key for a request about to run. Returns the existing record instead when the key
   * is taken (by a finished request, or one still running).
   */
  claim(userId: string, key: string, fingerprint: string, now: number): { claimed: true } | { claimed: false; existing: IdempotencyRecord } {
    return this.db.transaction((tx) => {
      const existing = this.find(userId, key, now);
      if (existing) return { claimed: false as const, existing };
      tx.insert(idempotencyRecords).values({ userId, key, fingerprint, state: 'PENDING', createdAt: now }).run();
      return { claimed: true as const };
    }, { behavior: 'immediate' });
  }

  /** Stores a finished request's response under its claimed key. */
  complete(userId: string, key: string, response: StoredResponse): void {
    this.db.update(idempotencyRecords)
      .set({ state: 'COMPLETE', statusCode: response.statusCode, responseBody: response.body })
      .where(and(eq(idempotencyRecords.userId, userId), eq(idempotencyRecords.key, key))).run();
  }

  /** Records a key and its response in one step (inside the caller's transaction). */
  insertComplete(userId: string, key: string, fingerprint: string, response: StoredResponse, now: number): void {
    this.db.insert(idempotencyRecords).values({
      userId, key, fingerprint, state: 'COMPLETE', statusCode: response.statusCode, responseBody: response.body, createdAt: now,
    }).run();
  }

  /** Forgets a key, so a retry runs the request again (after a server-side failure). */
  release(userId: string, key: string): void {
    this.db.delete(idempotencyRecords).where(and(eq(idempotencyRecords.userId, userId), eq(idempotencyRecords.key, key))).run();
  }

  purgeExpired(now: number): number {
    return this.db.delete(idempotencyRecords).where(lt(idempotencyRecords.createdAt, now - idempotencyRetentionMs)).run().changes;
  }
}
