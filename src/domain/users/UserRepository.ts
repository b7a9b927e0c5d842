import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { users } from '../../infrastructure/database/tables.js';
import { isHeld, userHoldState } from '../legalHolds/heldCalls.js';

export type UserRecord = typeof users.$inferSelect;

export type UserRemoval =
  | { outcome: 'removed' }
  /** A legal hold placed while the user's calls were being deleted. */
  | { outcome: 'held'; userHeld: boolean; callIds: string[] }
  /** Calls uploaded while the others were being deleted. */
  | { outcome: 'calls_remain'; callIds: string[] };

/** Who a verified credential says the caller is. */
export interface Identity {
  /** Identity-provider subject (`sub`), or `local:<id>` in local-user mode. */
  externalUserId: string;
  email?: string;
  name?: string;
}

const userColumns = columnsOf(users);
// Compiled once (every request that is not a recent sign-in reads one of them).
const byIdQuery = sql`SELECT ${userColumns} FROM users WHERE id = ${sql.placeholder('userId')}`;
const byExternalIdQuery = sql`SELECT ${userColumns} FROM users WHERE external_user_id = ${sql.placeholder('externalUserId')}`;

/** How long a looked-up user row may be reused for reads, ms (monotonic). */
export const userReuseMs = 5_000;
/** Most identities remembered at once; the oldest is forgotten first. */
const rememberedIdentities = 10_000;

export class UserRepository {
  /** Recent sign-ins by `externalUserId`: polling clients are answered without a user lookup each time. */
  private readonly recent = new Map<string, { user: UserRecord; readAt: number }>();

  constructor(private readonly db: SqlDatabase, private readonly monotonicMs: () => number = () => performance.now()) {}

  /**
   * The user row of an identity, created on first sight. The email follows the identity
   * provider; the display name is taken from the `name` claim only while the user has none,
   * so a name the user chose with PATCH is never overwritten.
   */
  async findOrCreate(identity: Identity, now: number, options: { reuse?: boolean } = {}): Promise<UserRecord> {
    const existing = (options.reuse ? this.recentlySeen(identity.externalUserId) : undefined) ?? await this.findByExternalId(identity.externalUserId);
    if (existing) {
      const email = identity.email ?? existing.email;
      const displayName = existing.displayName ?? identity.name ?? null;
      if (email === existing.email && displayName === existing.displayName) return this.remember(existing);
      const updated = await this.db.get<UserRecord>(sql`UPDATE users SET email = ${email}, display_name = ${displayName}, updated_at = ${now}
        WHERE id = ${existing.id} RETURNING ${userColumns}`);
      return this.remember(updated ?? existing);
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
    return this.remember(created);
  }

  findById(userId: string): Promise<UserRecord | undefined> {
    return this.db.get<UserRecord>(byIdQuery, { userId });
  }

  async updateDisplayName(userId: string, displayName: string, now: number): Promise<UserRecord | undefined> {
    this.forget(userId);
    return this.db.get<UserRecord>(sql`UPDATE users SET display_name = ${displayName}, updated_at = ${now} WHERE id = ${userId} RETURNING ${userColumns}`);
  }

  /**
   * Removes the user once their calls are gone: action items, events, idempotency records and the
   * voice profile cascade. In one transaction under the user's row lock (which placing a user
   * hold and every call's deletion claim also take), it refuses when a hold arrived after the
   * calls were deleted (a hold outlives its user otherwise) or a call arrived (an upload racing
   * the deletion, whose files a cascade would leave behind).
   */
  removeOnceEmpty(userId: string): Promise<UserRemoval> {
    this.forget(userId);
    return this.db.transaction(async (tx) => {
      await tx.get(sql`SELECT 1 AS found FROM users WHERE id = ${userId}${tx.forUpdate}`);
      const holds = await userHoldState(tx, userId);
      if (isHeld(holds)) return { outcome: 'held' as const, userHeld: holds.userHeld, callIds: holds.heldCallIds };
      const remaining = await tx.all<{ id: string }>(sql`SELECT id FROM calls WHERE user_id = ${userId} ORDER BY id`);
      if (remaining.length > 0) return { outcome: 'calls_remain' as const, callIds: remaining.map((row) => row.id) };
      await tx.run(sql`DELETE FROM users WHERE id = ${userId}`);
      return { outcome: 'removed' as const };
    });
  }

  /**
   * The row looked up for this identity within {@link userReuseMs}. Only reads may use it: a
   * change made on another node (a new name, a deleted account) shows here within that time,
   * and a write always looks the user up, so it never acts for an account deleted elsewhere.
   */
  private recentlySeen(externalUserId: string): UserRecord | undefined {
    const entry = this.recent.get(externalUserId);
    return entry && this.monotonicMs() - entry.readAt < userReuseMs ? entry.user : undefined;
  }

  private remember(user: UserRecord): UserRecord {
    this.recent.delete(user.externalUserId);
    if (this.recent.size >= rememberedIdentities) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(user.externalUserId, { user, readAt: this.monotonicMs() });
    return user;
  }

  private forget(userId: string): void {
    for (const [externalUserId, entry] of this.recent) if (entry.user.id === userId) this.recent.delete(externalUserId);
  }

  private findByExternalId(externalUserId: string): Promise<UserRecord | undefined> {
    return this.db.get<UserRecord>(byExternalIdQuery, { externalUserId });
  }
}
