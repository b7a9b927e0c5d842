import { sql, type SQL } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';

/**
 * True for a row of `calls` (named `calls` in the outer query) that an active legal hold covers:
 * one on the call itself, or one on its owner. Two `EXISTS`, so each is one lookup in its index
 * (`legal_holds_call_idx`, `legal_holds_user_idx`) whatever the number of holds.
 */
export const coveredByActiveHold: SQL = sql`(EXISTS (SELECT 1 FROM legal_holds WHERE legal_holds.call_id = calls.id AND legal_holds.lifted_at IS NULL)
  OR EXISTS (SELECT 1 FROM legal_holds WHERE legal_holds.user_id = calls.user_id AND legal_holds.scope = 'user' AND legal_holds.lifted_at IS NULL))`;

/**
 * Those of `callIds` an active hold covers. Takes the database or a transaction (`tx`), so a
 * deletion checks within the transaction that claims its calls.
 */
export async function heldCallIds(db: SqlDatabase, callIds: readonly string[]): Promise<string[]> {
  if (callIds.length === 0) return [];
  const rows = await db.all<{ id: string }>(sql`SELECT id FROM calls WHERE id IN ${db.inList(callIds)} AND ${coveredByActiveHold} ORDER BY id`);
  return rows.map((row) => row.id);
}

/** What holds keep a user's data: whether the user is held as a whole, and which of their calls are held (by either kind). */
export interface UserHoldState {
  userHeld: boolean;
  heldCallIds: string[];
}

/** The holds on a user and their calls; nothing is held when `userHeld` is false and `heldCallIds` empty. */
export async function userHoldState(db: SqlDatabase, userId: string): Promise<UserHoldState> {
  // One after the other: inside a transaction both go through its one connection.
  const userHold = await db.get(sql`SELECT 1 AS found FROM legal_holds WHERE user_id = ${userId} AND scope = 'user' AND lifted_at IS NULL`);
  const calls = await db.all<{ id: string }>(sql`SELECT id FROM calls WHERE user_id = ${userId} AND ${coveredByActiveHold} ORDER BY id`);
  return { userHeld: userHold !== undefined, heldCallIds: calls.map((row) => row.id) };
}

export const isHeld = (state: UserHoldState): boolean => state.userHeld || state.heldCallIds.length > 0;
