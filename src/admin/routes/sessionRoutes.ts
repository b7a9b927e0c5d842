import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../createServices.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import type { AdminSession } from '../auth/AdminSessions.js';
import { clearSessionCookie } from '../auth/sessionCookie.js';
import { PasswordChangeBodySchema, SessionSchema } from '../schemas/adminSchemas.js';
import { checkAdminPassword } from './signInRoute.js';

/** The signed-in session of a request behind the admin guard. */
export function adminSessionOf(request: FastifyRequest): AdminSession {
  if (!request.adminSession) throw new ApiError('admin_auth_required');
  return request.adminSession;
}

/** The current session (its CSRF token, for a page just loaded), sign-out, and the password change. */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/session', {
    schema: { summary: 'The signed-in session: its CSRF token and expiry', response: { 200: SessionSchema, ...errorResponses(401) } },
  }, async (request) => {
    const session = adminSessionOf(request);
    return { csrfToken: session.csrfToken, expiresAt: toIsoTimestamp(session.expiresAt) };
  });

  app.delete('/session', {
    schema: { summary: 'Sign out', response: { 204: {}, ...errorResponses(401, 403) } },
  }, async (request, reply) => {
    await services.admin.sessions.end(adminSessionOf(request).idHash);
    clearSessionCookie(request, reply);
    await recordAdminAction(services, request, { actor: 'admin', action: 'sign_out', target: 'session' });
    return reply.code(204).send();
  });

  app.post('/password', {
    schema: {
      summary: 'Change the admin password; other sessions are signed out',
      body: PasswordChangeBodySchema,
      response: { 204: {}, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (request, reply) => {
    const session = adminSessionOf(request);
    if (!(await checkAdminPassword(services, request, reply, request.body.currentPassword))) {
      await recordAdminAction(services, request, { actor: 'admin', action: 'password_change_failed', target: 'password' });
      throw new ApiError('validation_failed', 'The current password is wrong', { fields: [{ path: 'body/currentPassword', message: 'is not the current password' }] });
    }
    await services.admin.account.setPassword(request.body.newPassword, services.clock());
    await services.admin.sessions.endAllExcept(session.idHash);
    await recordAdminAction(services, request, { actor: 'admin', action: 'password_change', target: 'password' });
    return reply.code(204).send();
  });
};
