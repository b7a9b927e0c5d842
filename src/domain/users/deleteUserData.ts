import { deleteCall, type CallDeletionDependencies } from '../calls/deleteCall.js';
import type { UserRepository } from './UserRepository.js';

export type UserDeletion = { outcome: 'deleted' } | { outcome: 'in_progress'; callIds: string[] };

/** What deleting each call needs (its `call.deleted` webhook included), and the users. */
export interface UserDeletionDependencies extends CallDeletionDependencies {
  users: UserRepository;
}

/** Object prefix of per-user files. None are written today (a voice profile is a database row); the prefix is still swept so future ones cannot outlive the account. */
export const userObjectPrefix = (userId: string) => `users/${userId}`;

/**
 * Hard-deletes everything of a user: each call (files first), per-user files, then the user row,
 * whose cascade takes action items, processing events, idempotency records and the voice profile.
 * Refused while any call is still being processed, so no worker writes into deleted data.
 */
export async function deleteUserData(dependencies: UserDeletionDependencies, userId: string): Promise<UserDeletion> {
  const inFlight = await dependencies.calls.inFlightIdsOf(userId);
  if (inFlight.length > 0) return { outcome: 'in_progress', callIds: inFlight };
  for (const callId of await dependencies.calls.allIdsOf(userId)) {
    const deletion = await deleteCall(dependencies, userId, callId);
    // A call queued after the check above (a concurrent upload) stops the deletion here.
    if (deletion.outcome === 'in_progress') return { outcome: 'in_progress', callIds: [callId] };
  }
  await dependencies.store.remove(userObjectPrefix(userId));
  await dependencies.users.remove(userId);
  return { outcome: 'deleted' };
}
