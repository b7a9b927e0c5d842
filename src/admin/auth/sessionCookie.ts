import type { FastifyReply, FastifyRequest } from 'fastify';

export const sessionCookieName = 'callscope_admin';

/** The session id the browser sent in the admin cookie, if any. */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === sessionCookieName) return pair.slice(separator + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * Sets the session cookie: scoped to `/admin`, hidden from scripts, never sent cross-site, and
 * `Secure` when the request came over HTTPS (the LAN box usually serves plain HTTP).
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', cookie(request, `${sessionCookieName}=${id}`, maxAgeSeconds));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', cookie(request, `${sessionCookieName}=`, 0));
}

function cookie(request: FastifyRequest, nameValue: string, maxAgeSeconds: number): string {
  return `${nameValue}; Path=/admin; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`;
}
