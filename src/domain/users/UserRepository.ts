import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { users } from '../../infrastructure/database/schema.js';

export type UserRecord = typeof users.$inferSelect;

/** Who a verified credential says the caller is. */
export interface Identity {
  /** Identity-provider subject (`sub`), or `local:<id>` in local-user mode. */
  externalUserId: string;
  email?: string;
  name?: string;
}

export class UserRepository {
  private readonly byExternalId;

  constructor(private readonly db: Db) {
    this.byExternalId = db.select().from(users).where(eq(users.externalUserId, sql.placeholder('externalUserId'))).prepare();
  }

  /**
   * The user row of an identity, created on first sight. The email follows the identity
   * provider; the display name is taken from the `name` claim only while the user has none,
   * so a name the user chose with PATCH is never overwritten.
   */
  findOrCreate(identity: Identity, now: number): UserRecord {
    const existing = this.byExternalId.get({ externalUserId: identity.externalUserId });
    if (existing) {
      const email = identity.email ?? existing.email;
      const displayName = existing.displayName ?? identity.name ?? null;
      if (email === existing.email && displayName === existing.displayName) return existing;
      return this.db.update(users).set({ email, displayName, updatedAt: now }).where(eq(users.id, existing.id)).returning().get();
    }
    // ON CONFLICT covers two first requests of the same identity racing each other.
    this.db.insert(users).values({
      id: randomUUID(),
      externalUserId: identity.externalUserId,
      email: identity.email ?? null,
      displayName: identity.name ?? null,
      createdAt: now,
      updatedAt: now,
    }).onConflictDoNothing().run();
    const created = this.byExternalId.get({ externalUserId: identity.externalUserId });
    if (!created) throw new Error('user row vanished right after creation');
    return created;
  }

  findById(userId: string): UserRecord | undefined {
    return this.db.select().from(users).where(eq(users.id, userId)).get();
  }

  updateDisplayName(userId: string, displayName: string, now: number): UserRecord | undefined {
    return this.db.update(users).set({ displayName, updatedAt: now }).where(eq(users.id, userId)).returning().get();
  }

  /** Removes the user; calls, action items, events, idempotency records cascade. */
  remove(userId: string): void {
    this.db.delete(users).where(eq(users.id, userId)).run();
  }
}
