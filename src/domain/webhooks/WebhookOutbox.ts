import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/configSchema.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import type { ActionItemStatus } from '../actions/ActionItemRepository.js';
import { WebhookDeliveryRepository } from './WebhookDeliveryRepository.js';
import { webhookEndpointsOf } from './webhookEndpoints.js';
import {
  actionItemUpdatedPayload, callCompletedPayload, callDeletedPayload, callFailedPayload,
  type CompletedCall, type FailedCall, type WebhookPayload,
} from './webhookPayloads.js';

/**
 * Where the changes that the site's systems hear about are written down: each event becomes one
 * `webhook_deliveries` row per endpoint of WEBHOOK_URLS (read now: the admin page may change it
 * while the service runs), inside the caller's transaction, so an event is recorded exactly when
 * the change it reports commits. A node's WebhookDispatcher sends the rows.
 *
 * After the transaction commits, the caller calls {@link wake}: this node's dispatcher then sends
 * at once instead of at its next poll (on PostgreSQL it could not see the rows before the commit).
 */
export class WebhookOutbox {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly config: Pick<Config, 'WEBHOOK_URLS' | 'WEBHOOK_INCLUDE_TRANSCRIPT'>) {}

  /** Whether any endpoint is configured now (no rows are written otherwise). */
  get enabled(): boolean {
    return webhookEndpointsOf(this.config.WEBHOOK_URLS).length > 0;
  }

  /** `call.completed`; the transcript's text goes in only with WEBHOOK_INCLUDE_TRANSCRIPT. `now`: ms since the epoch. */
  callCompleted(tx: SqlDatabase, call: CompletedCall, now: number): Promise<void> {
    return this.record(tx, callCompletedPayload(call, this.config.WEBHOOK_INCLUDE_TRANSCRIPT, now), now);
  }

  /** `call.failed`, one message per call. */
  async callsFailed(tx: SqlDatabase, calls: readonly FailedCall[], now: number): Promise<void> {
    for (const call of calls) await this.record(tx, callFailedPayload(call, now), now);
  }

  /**
   * `call.deleted`, in the transaction that claims the call for deletion (the point of no return:
   * start-up recovery finishes an interrupted deletion). The transcript text of the call's earlier
   * `call.completed` bodies is removed with it.
   */
  async callDeleted(tx: SqlDatabase, call: { callId: string; userId: string }, now: number): Promise<void> {
    await new WebhookDeliveryRepository(tx).removeTranscriptsOf(call.callId);
    await this.record(tx, callDeletedPayload(call, now), now);
  }

  /** `action_item.updated`: the item's status changed. */
  actionItemUpdated(tx: SqlDatabase, item: { id: string; callId: string; userId: string; status: ActionItemStatus }, now: number): Promise<void> {
    return this.record(tx, actionItemUpdatedPayload(item, now), now);
  }

  /** Events were committed: this node's dispatcher looks now. */
  wake(): void {
    for (const listener of this.listeners) listener();
  }

  /** The dispatcher's wake-up; returns the function that stops listening. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async record(tx: SqlDatabase, payload: WebhookPayload, now: number): Promise<void> {
    const endpoints = webhookEndpointsOf(this.config.WEBHOOK_URLS);
    if (endpoints.length === 0) return;
    // One message (one `webhook-id`) for every endpoint, every attempt and every resend.
    const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
    const body = JSON.stringify(payload);
    await new WebhookDeliveryRepository(tx).insert(endpoints.map((url) => ({
      messageId, eventType: payload.type, url, payload: body, state: 'pending' as const, attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now,
    })));
  }
}
