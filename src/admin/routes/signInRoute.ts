import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../createServices.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { SessionSchema, SignInBodySchema } from '../schemas/adminSchemas.js';
import { startSession } from './startSession.js';

/** POST /session: sign in with the admin password, under the lockout. */
export const signInRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post('/session', {
    schema: {
      summary: 'Sign in to the admin area',
      body: SignInBodySchema,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (request, reply) => {
    if (!(await services.admin.account.hasPassword())) throw new ApiError('admin_auth_required', 'No admin password is set yet; open the setup link first');
    if (!(await checkAdminPassword(services, request, reply, request.body.password))) {
      await recordAdminAction(services, request, { actor: 'admin', action: 'sign_in_failed', target: 'session' });
      throw new ApiError('admin_auth_required', 'Wrong password');
    }
    await recordAdminAction(services, request, { actor: 'admin', action: 'sign_in', target: 'session' });
    return startSession(services, request, reply);
  });
};

/**
 * Checks the admin password under the lockout (per client IP, and for the account): 429
 * `admin_locked` with `Retry-After` while locked; true when it matches.
 */
export async function checkAdminPassword(services: Pick<Services, 'admin' | 'clock'>, request: FastifyRequest, reply: FastifyReply, password: string): Promise<boolean> {
  const { account, signInThrottle } = services.admin;
  const outcome = await signInThrottle.attempt([`ip:${request.ip}`, 'account'], services.clock, () => account.checkPassword(password));
  if ('verified' in outcome) return outcome.verified;
  request.log.warn({ retryAfterSeconds: outcome.retryAfterSeconds }, 'admin sign-in refused: locked');
  reply.header('retry-after', String(outcome.retryAfterSeconds));
  throw new ApiError('admin_locked', undefined, { retryAfterSeconds: outcome.retryAfterSeconds });
}
