import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { actionItems } from '../../infrastructure/database/tables.js';

export const actionItemStatuses = ['PENDING', 'COMPLETED'] as const;
export type ActionItemStatus = (typeof actionItemStatuses)[number];

export type ActionItemRecord = typeof actionItems.$inferSelect;
export type NewActionItemRecord = typeof actionItems.$inferInsert;

const itemColumns = columnsOf(actionItems);

export class ActionItemRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** The user's items: PENDING before COMPLETED, newest first within each group. */
  listForUser(userId: string, status?: ActionItemStatus): Promise<ActionItemRecord[]> {
    return this.db.all<ActionItemRecord>(sql`SELECT ${itemColumns} FROM action_items
      WHERE user_id = ${userId}${status ? sql` AND status = ${status}` : sql``}
      ORDER BY CASE status WHEN 'PENDING' THEN 0 ELSE 1 END, created_at DESC, seq DESC`);
  }

  listForCall(callId: string): Promise<ActionItemRecord[]> {
    return this.db.all<ActionItemRecord>(sql`SELECT ${itemColumns} FROM action_items WHERE call_id = ${callId} ORDER BY seq`);
  }

  findOwned(userId: string, itemId: string): Promise<ActionItemRecord | undefined> {
    return this.db.get<ActionItemRecord>(sql`SELECT ${itemColumns} FROM action_items WHERE id = ${itemId} AND user_id = ${userId}`);
  }

  setStatus(userId: string, itemId: string, status: ActionItemStatus, now: number): Promise<ActionItemRecord | undefined> {
    return this.db.get<ActionItemRecord>(sql`UPDATE action_items SET status = ${status}, updated_at = ${now}
      WHERE id = ${itemId} AND user_id = ${userId} RETURNING ${itemColumns}`);
  }

  /** Replaces a call's items in one transaction (first extraction and reprocess alike). */
  replaceForCall(callId: string, items: readonly NewActionItemRecord[]): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(sql`DELETE FROM action_items WHERE call_id = ${callId}`);
      if (items.length > 0) await tx.run(insertInto(actionItems, items));
    });
  }
}
