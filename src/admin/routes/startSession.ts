import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../createServices.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { setSessionCookie } from '../auth/sessionCookie.js';

/** Signs the browser in: a new session, its cookie, and the body the pages need (CSRF token, expiry). */
export async function startSession(services: Pick<Services, 'admin' | 'clock' | 'config'>, request: FastifyRequest, reply: FastifyReply) {
  const session = await services.admin.sessions.start(services.clock());
  setSessionCookie(request, reply, session.id, services.config.ADMIN_SESSION_MAX_HOURS * 3600);
  return { csrfToken: session.csrfToken, expiresAt: toIsoTimestamp(session.expiresAt) };
}
