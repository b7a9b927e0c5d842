import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { users } from '../../infrastructure/database/tables.js';

export type UserRecord = typeof users.$inferSelect;

/** Who a verified credential says the caller is. */
export interface Identity {
  /** Identity-provider subject (`sub`), or `local:<id>` in local-user mode. */
  externalUserId: string;
  email?: string;
  name?: string;
}

const userColumns = columnsOf(users);

export class UserRepository {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * The user row of an identity, created on first sight. The email follows the identity
   * provider; the display name is taken from the `name` claim only while the user has none,
   * so a name the user chose with PATCH is never overwritten.
   */
  async findOrCreate(identity: Identity, now: number): Promise<UserRecord> {
    const existing = await this.findByExternalId(identity.externalUserId);
    if (existing) {
      const email = identity.email ?? existing.email;
      const displayName = existing.displayName ?? identity.name ?? null;
      if (email === existing.email && displayName === existing.displayName) return existing;
      const updated = await this.db.get<UserRecord>(sql`UPDATE users SET email = ${email}, display_name = ${displayName}, updated_at = ${now}
        WHERE id = ${existing.id} RETURNING ${userColumns}`);
      return updated ?? existing;
    }
    // ON CONFLICT covers two first requests of the same identity racing each other (on any node).
    await this.db.run(sql`${insertInto(users, [{
      id: randomUUID(),
      externalUserId: identity.externalUserId,
      email: identity.email ?? null,
      displayName: identity.name ?? null,
      createdAt: now,
      updatedAt: now,
    }])} ON CONFLICT DO NOTHING`);
    const created = await this.findByExternalId(identity.externalUserId);
    if (!created) throw new Error('user row vanished right after creation');
    return created;
  }

  findById(userId: string): Promise<UserRecord | undefined> {
    return this.db.get<UserRecord>(sql`SELECT ${userColumns} FROM users WHERE id = ${userId}`);
  }

  updateDisplayName(userId: string, displayName: string, now: number): Promise<UserRecord | undefined> {
    return this.db.get<UserRecord>(sql`UPDATE users SET display_name = ${displayName}, updated_at = ${now} WHERE id = ${userId} RETURNING ${userColumns}`);
  }

  /** Removes the user; calls, action items, events, idempotency records cascade. */
  async remove(userId: string): Promise<void> {
    await this.db.run(sql`DELETE FROM users WHERE id = ${userId}`);
  }

  private findByExternalId(externalUserId: string): Promise<UserRecord | undefined> {
    return this.db.get<UserRecord>(sql`SELECT ${userColumns} FROM users WHERE external_user_id = ${externalUserId}`);
  }
}
