import type { Clock } from '../../infrastructure/clock.js';
import { callObjectKeys, type ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import type { AccessAuditTrail, AuditActor } from '../audit/AccessAuditTrail.js';
import type { WebhookOutbox } from '../webhooks/WebhookOutbox.js';
import type { CallRepository } from './CallRepository.js';
import type { CallStatus } from './callTypes.js';

export type CallDeletion = { outcome: 'deleted' } | { outcome: 'missing' } | { outcome: 'in_progress'; status: CallStatus } | { outcome: 'held' };

export interface CallDeletionDependencies {
  calls: CallRepository;
  store: ObjectStore;
  clock: Clock;
  /** Records the `call.deleted` webhook in the claiming transaction. Defaults to none. */
  webhooks?: WebhookOutbox;
  /** Records `call.delete` for the deletion's actor (when one is given). Defaults to none. */
  accessAudit?: Pick<AccessAuditTrail, 'record'>;
}

/**
 * Deletes a terminal call of the user: claims it (so nothing picks it up again), removes its
 * files, then its row (artifacts, action items and processing events cascade). A crash between
 * the two steps leaves a claimed row that start-up recovery finishes deleting. With `actor`, the
 * deletion is recorded in the access audit trail (`call.delete`).
 */
export async function deleteCall(dependencies: CallDeletionDependencies, userId: string, callId: string, actor?: AuditActor): Promise<CallDeletion> {
  const { webhooks } = dependencies;
  const now = dependencies.clock();
  const claim = await dependencies.calls.claimForDeletion(userId, callId, now, webhooks && ((tx) => webhooks.callDeleted(tx, { callId, userId }, now)));
  if (claim.outcome !== 'claimed') return claim;
  webhooks?.wake();
  await dependencies.store.remove(callObjectKeys.prefix(callId));
  await dependencies.calls.removeRow(callId);
  if (actor) dependencies.accessAudit?.record({ ...actor, action: 'call.delete', callId });
  return { outcome: 'deleted' };
}
