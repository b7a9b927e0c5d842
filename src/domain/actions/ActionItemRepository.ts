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

  /**
   * Sets the status only when it is another one: the item as changed, or undefined when it is
   * missing, another user's, or had that status already. Of concurrent changes to one status, one
   * changes it (the others find it changed when they get the row).
   */
  changeStatus(userId: string, itemId: string, status: ActionItemStatus, now: number): Promise<ActionItemRecord | undefined> {
    return this.db.get<ActionItemRecord>(sql`UPDATE action_items SET status = ${status}, updated_at = ${now}
      WHERE id = ${itemId} AND user_id = ${userId} AND status <> ${status} RETURNING ${itemColumns}`);
  }

  /** After a speaker correction: the item's owner and the text a speaker's name appears in. */
  async updateOwnerAndText(item: ActionItemRecord, now: number): Promise<void> {
    await this.db.run(sql`UPDATE action_items SET title = ${item.title}, description = ${item.description}, intent_metadata = ${item.intentMetadata},
      owner_speaker_id = ${item.ownerSpeakerId}, owner_speaker_label = ${item.ownerSpeakerLabel}, owner_display_name = ${item.ownerDisplayName},
      owner_role = ${item.ownerRole}, updated_at = ${now} WHERE id = ${item.id}`);
  }

  /** Replaces a call's items in one transaction (first extraction and reprocess alike). */
  replaceForCall(callId: string, items: readonly NewActionItemRecord[]): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(sql`DELETE FROM action_items WHERE call_id = ${callId}`);
      if (items.length > 0) await tx.run(insertInto(actionItems, items));
    });
  }
}
