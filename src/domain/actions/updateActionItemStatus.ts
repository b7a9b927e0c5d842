import type { Clock } from '../../infrastructure/clock.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import type { WebhookOutbox } from '../webhooks/WebhookOutbox.js';
import { ActionItemRepository, type ActionItemRecord, type ActionItemStatus } from './ActionItemRepository.js';

export interface ActionItemUpdateDependencies {
  database: SqlDatabase;
  clock: Clock;
  /** Records the `action_item.updated` webhook in the changing transaction. Defaults to none. */
  webhooks?: WebhookOutbox;
}

/**
 * `PATCH /api/actions/{id}`: sets a user's action item to `status`. A real change is reported by
 * an `action_item.updated` webhook recorded in the same transaction; setting the status it has
 * already only touches `updatedAt`, as before, and reports nothing. Undefined when the item is
 * missing or another user's.
 */
export async function updateActionItemStatus(dependencies: ActionItemUpdateDependencies, userId: string, itemId: string, status: ActionItemStatus): Promise<ActionItemRecord | undefined> {
  const { database, webhooks } = dependencies;
  const now = dependencies.clock();
  const { item, changed } = await database.transaction(async (tx) => {
    const items = new ActionItemRepository(tx);
    const changedItem = await items.changeStatus(userId, itemId, status, now);
    if (!changedItem) return { item: await items.setStatus(userId, itemId, status, now), changed: false };
    await webhooks?.actionItemUpdated(tx, changedItem, now);
    return { item: changedItem, changed: true };
  });
  if (changed) webhooks?.wake();
  return item;
}
