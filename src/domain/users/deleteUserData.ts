import type { AuditActor } from '../audit/AccessAuditTrail.js';
import { deleteCall, type CallDeletionDependencies } from '../calls/deleteCall.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { isHeld, userHoldState } from '../legalHolds/heldCalls.js';
import type { UserRepository } from './UserRepository.js';

export type UserDeletion =
  | { outcome: 'deleted' }
  | { outcome: 'in_progress'; callIds: string[] }
  /** A legal hold on the user or on some of their calls (`callIds`: the held calls). */
  | { outcome: 'held'; userHeld: boolean; callIds: string[] };

/** What deleting each call needs (its `call.deleted` webhook included), and the users. */
export interface UserDeletionDependencies extends CallDeletionDependencies {
  users: UserRepository;
  /** Where the legal holds are asked. */
  database: { sql: SqlDatabase };
}

/** Object prefix of per-user files. None are written today (a voice profile is a database row); the prefix is still swept so future ones cannot outlive the account. */
export const userObjectPrefix = (userId: string) => `users/${userId}`;

/**
 * Hard-deletes everything of a user: each call (files first), per-user files, then the user row,
 * whose cascade takes action items, processing events, idempotency records and the voice profile.
 * Refused while any call is still being processed, so no worker writes into deleted data, and
 * while a legal hold covers the user or any of their calls: then nothing is deleted. (A hold
 * placed while the deletion runs stops it at the first call it covers, as the claim checks, or
 * before the user row goes, as its removal checks.)
 */
export async function deleteUserData(dependencies: UserDeletionDependencies, userId: string, actor?: AuditActor): Promise<UserDeletion> {
  const inFlight = await dependencies.calls.inFlightIdsOf(userId);
  if (inFlight.length > 0) return { outcome: 'in_progress', callIds: inFlight };
  const holds = await userHoldState(dependencies.database.sql, userId);
  if (isHeld(holds)) return { outcome: 'held', userHeld: holds.userHeld, callIds: holds.heldCallIds };
  for (const callId of await dependencies.calls.allIdsOf(userId)) {
    const deletion = await deleteCall(dependencies, userId, callId, actor);
    // A call queued after the check above (a concurrent upload) stops the deletion here.
    if (deletion.outcome === 'in_progress') return { outcome: 'in_progress', callIds: [callId] };
    if (deletion.outcome === 'held') return { outcome: 'held', userHeld: false, callIds: [callId] };
  }
  await dependencies.store.remove(userObjectPrefix(userId));
  const removal = await dependencies.users.removeOnceEmpty(userId);
  if (removal.outcome === 'held') return removal;
  if (removal.outcome === 'calls_remain') return { outcome: 'in_progress', callIds: removal.callIds };
  if (actor) dependencies.accessAudit?.record({ ...actor, action: 'user.delete', target: userId });
  return { outcome: 'deleted' };
}
