import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { legalHolds } from '../../infrastructure/database/tables.js';

export type LegalHoldRecord = typeof legalHolds.$inferSelect;

/** What an admin asks to hold: a user (all their calls, present and future) or one call. */
export type LegalHoldTarget = { scope: 'user'; userId: string } | { scope: 'call'; callId: string };

export type HoldPlacement =
  | { outcome: 'placed'; hold: LegalHoldRecord }
  /** No such user, or no such call (a call being deleted counts as gone: its deletion had begun). */
  | { outcome: 'missing' };

const holdColumns = columnsOf(legalHolds);

/**
 * Legal holds: placed and lifted by an admin, never deleted (a lifted hold stays for the
 * record). Whether a hold covers a call is asked by the deletions themselves (`heldCalls.ts`).
 */
export class LegalHoldRepository {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Places a hold after checking, in one transaction, that its user or call exists. The call's
   * row is locked (`FOR UPDATE`, as the deletion claim locks it), so a hold and a deletion of
   * the same call are ordered: either the claim sees the hold, or the hold sees the call gone.
   */
  placeHold(target: LegalHoldTarget, reason: string, now: number): Promise<HoldPlacement> {
    return this.db.transaction(async (tx) => {
      let userId: string;
      let callId: string | null = null;
      if (target.scope === 'user') {
        const user = await tx.get<{ id: string }>(sql`SELECT id FROM users WHERE id = ${target.userId}${tx.forUpdate}`);
        if (!user) return { outcome: 'missing' as const };
        userId = user.id;
      } else {
        const call = await tx.get<{ id: string; userId: string; deletingSince: number | null }>(sql`SELECT id, user_id AS "userId",
          deleting_since AS "deletingSince" FROM calls WHERE id = ${target.callId}${tx.forUpdate}`);
        if (!call || call.deletingSince !== null) return { outcome: 'missing' as const };
        userId = call.userId;
        callId = call.id;
      }
      const hold = await tx.get<LegalHoldRecord>(sql`${insertInto(legalHolds, [{
        id: randomUUID(), scope: target.scope, userId, callId, reason, placedAt: now, liftedAt: null, liftReason: null,
      }])} RETURNING ${holdColumns}`);
      if (!hold) throw new Error('insert returned no row');
      return { outcome: 'placed' as const, hold };
    });
  }

  /** Lifts an active hold; undefined when there is no such hold or it was lifted already. */
  liftHold(holdId: string, reason: string, now: number): Promise<LegalHoldRecord | undefined> {
    return this.db.get<LegalHoldRecord>(sql`UPDATE legal_holds SET lifted_at = ${now}, lift_reason = ${reason}
      WHERE id = ${holdId} AND lifted_at IS NULL RETURNING ${holdColumns}`);
  }

  find(holdId: string): Promise<LegalHoldRecord | undefined> {
    return this.db.get<LegalHoldRecord>(sql`SELECT ${holdColumns} FROM legal_holds WHERE id = ${holdId}`);
  }

  /** Active holds first, then lifted ones; newest placed first within each; at most `limit`. */
  list(limit: number): Promise<LegalHoldRecord[]> {
    return this.db.all<LegalHoldRecord>(sql`SELECT ${holdColumns} FROM legal_holds
      ORDER BY CASE WHEN lifted_at IS NULL THEN 0 ELSE 1 END, placed_at DESC, id LIMIT ${limit}`);
  }

  async activeCount(): Promise<number> {
    const row = await this.db.get<{ count: number }>(sql`SELECT count(*) AS count FROM legal_holds WHERE lifted_at IS NULL`);
    return row?.count ?? 0;
  }
}
