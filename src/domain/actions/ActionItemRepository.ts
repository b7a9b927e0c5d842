import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { actionItems } from '../../infrastructure/database/schema.js';

export const actionItemStatuses = ['PENDING', 'COMPLETED'] as const;
export type ActionItemStatus = (typeof actionItemStatuses)[number];

export type ActionItemRecord = typeof actionItems.$inferSelect;
export type NewActionItemRecord = typeof actionItems.$inferInsert;

export class ActionItemRepository {
  constructor(private readonly db: Db) {}

  /** The user's items: PENDING before COMPLETED, newest first within each group. */
  listForUser(userId: string, status?: ActionItemStatus): ActionItemRecord[] {
    return this.db.select().from(actionItems)
      .where(status ? and(eq(actionItems.userId, userId), eq(actionItems.status, status)) : eq(actionItems.userId, userId))
      .orderBy(sql`CASE ${actionItems.status} WHEN 'PENDING' THEN 0 ELSE 1 END`, sql`${actionItems.createdAt} DESC`, sql`${actionItems.seq} DESC`)
      .all();
  }

  listForCall(callId: string): ActionItemRecord[] {
    return this.db.select().from(actionItems).where(eq(actionItems.callId, callId)).orderBy(actionItems.seq).all();
  }

  findOwned(userId: string, itemId: string): ActionItemRecord | undefined {
    return this.db.select().from(actionItems).where(and(eq(actionItems.id, itemId), eq(actionItems.userId, userId))).get();
  }

  setStatus(userId: string, itemId: string, status: ActionItemStatus, now: number): ActionItemRecord | undefined {
    return this.db.update(actionItems).set({ status, updatedAt: now })
      .where(and(eq(actionItems.id, itemId), eq(actionItems.userId, userId)))
      .returning().get();
  }

  /** Replaces a call's items in one transaction (first extraction and reprocess alike). */
  replaceForCall(callId: string, items: readonly NewActionItemRecord[]): void {
    this.db.transaction((tx) => {
      tx.delete(actionItems).where(eq(actionItems.callId, callId)).run();
      if (items.length > 0) tx.insert(actionItems).values([...items]).run();
    });
  }
}
