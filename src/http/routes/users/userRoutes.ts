import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../createServices.js';
import { computeUserStats } from '../../../domain/users/computeUserStats.js';
import { deleteUserData } from '../../../domain/users/deleteUserData.js';
import type { UserRecord } from '../../../domain/users/UserRepository.js';
import { toIsoTimestamp } from '../../../infrastructure/clock.js';
import { deleteIdentityProviderAccount } from '../../../infrastructure/identityProvider/deleteIdentityProviderAccount.js';
import { auditActorOf } from '../../accessAudit.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { errorResponses } from '../../schemas/commonSchemas.js';
import { UserPatchSchema, UserSchema, UserStatsSchema } from '../../schemas/userSchemas.js';

function toUser(user: UserRecord) {
  return {
    id: user.id,
    externalUserId: user.externalUserId,
    ...(user.email !== null ? { email: user.email } : {}),
    ...(user.displayName !== null ? { displayName: user.displayName } : {}),
    createdAt: toIsoTimestamp(user.createdAt),
    updatedAt: toIsoTimestamp(user.updatedAt),
  };
}

/** The caller's own profile, statistics and account deletion. */
export const userRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/users/me', {
    schema: { summary: 'The caller\'s profile (created on first request)', response: { 200: UserSchema, ...errorResponses(401, 429) } },
  }, async (request) => {
    // Read afresh: the request's user may be a few seconds old (UserRepository caches sign-ins), and a name changed on another node shows here at once.
    const user = await services.users.findById(currentUser(request).id);
    if (!user) throw new ApiError('auth_invalid');
    return toUser(user);
  });

  app.patch('/users/me', {
    schema: {
      summary: 'Change the display name used to recognise the user in transcripts',
      body: UserPatchSchema,
      response: { 200: UserSchema, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const updated = await services.users.updateDisplayName(currentUser(request).id, request.body.displayName.trim(), services.clock());
    if (!updated) throw new ApiError('auth_invalid');
    return toUser(updated);
  });

  app.delete('/users/me', {
    schema: {
      summary: 'Delete the account and all its data, irreversibly',
      description: 'Refused with 409 call_in_progress while any call is still processing, and with 409 legal_hold (nothing deleted) while an admin\'s legal hold covers the user or any of their calls (an extension of the specification).',
      response: { 204: {}, ...errorResponses(401, 409, 429) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const deletion = await deleteUserData(services, user.id, auditActorOf(request));
    if (deletion.outcome === 'in_progress') {
      throw new ApiError('call_in_progress', 'Calls are still being processed; delete the account once they have finished', { callIds: deletion.callIds });
    }
    if (deletion.outcome === 'held') throw new ApiError('legal_hold', undefined, { userHeld: deletion.userHeld, callIds: deletion.callIds });
    request.log.info('user account deleted');
    const { IDP_USER_DELETE_URL, IDP_USER_DELETE_TOKEN } = services.config;
    if (IDP_USER_DELETE_URL && !user.externalUserId.startsWith('local:')) {
      void deleteIdentityProviderAccount({ urlTemplate: IDP_USER_DELETE_URL, ...(IDP_USER_DELETE_TOKEN ? { bearerToken: IDP_USER_DELETE_TOKEN } : {}) }, user.externalUserId, request.log);
    }
    return reply.code(204).send();
  });

  app.get('/users/me/stats', {
    schema: { summary: 'Counts of the caller\'s calls and action items', response: { 200: UserStatsSchema, ...errorResponses(401, 429) } },
  }, async (request) => computeUserStats(services.database.sql, currentUser(request).id, services.clock()));
};
