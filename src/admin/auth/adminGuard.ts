import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import { sha256Digest } from '../credentials/sha256.js';
import type { AdminSession, AdminSessions } from './AdminSessions.js';
import { sessionIdOf } from './sessionCookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin session; set by the guard of the protected admin routes. */
    adminSession: AdminSession | null;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isStateChanging(request: FastifyRequest): boolean {
  return !safeMethods.has(request.method);
}

/** Refuses a request a page of another origin sent: its `Origin` (when sent) must name this host. */
export function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined; // `null` (sandboxed or privacy-sensitive contexts) or garbage
  }
  if (host !== request.host) throw new ApiError('admin_csrf_failed', 'The request comes from another origin');
}

/** The live session of the request's cookie, its idle clock restarted; 401 `admin_auth_required` otherwise. */
export async function requireSession(sessions: AdminSessions, request: FastifyRequest, now: number): Promise<AdminSession> {
  const id = sessionIdOf(request);
  const session = id ? await sessions.resume(id, now) : undefined;
  if (!session) throw new ApiError('admin_auth_required');
  return session;
}

/** The `X-CSRF-Token` header must equal the session's token (compared in constant time). */
export function checkCsrfToken(request: FastifyRequest, session: AdminSession): void {
  const presented = request.headers['x-csrf-token'];
  if (typeof presented !== 'string' || !timingSafeEqual(sha256Digest(presented), sha256Digest(session.csrfToken))) {
    throw new ApiError('admin_csrf_failed', 'The X-CSRF-Token header is missing or does not match the session');
  }
}
