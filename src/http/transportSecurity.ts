import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { isLoopbackAddress } from './loopback.js';

/** Paths plain HTTP answers to any client with `TLS=auto`: the probes of load balancers and monitors that speak only HTTP. */
export const plainHttpProbePaths: ReadonlySet<string> = new Set(['/actuator/health', '/actuator/health/liveness', '/actuator/health/readiness']);

/** How long browsers keep to HTTPS for the box after an HTTPS answer, seconds: one year. */
const strictTransportSecurityMaxAge = 365 * 24 * 60 * 60;

/**
 * With `TLS=auto`, for every route (hooks on the root, before any other):
 * - a request that came over plain HTTP from another machine is answered `308` to the same
 *   path and query on HTTPS (the method and body are kept by a 308), but for
 *   {@link plainHttpProbePaths}; the box itself (loopback) is served over HTTP as before;
 * - every HTTPS answer carries `Strict-Transport-Security` (no `includeSubDomains`: the box
 *   does not speak for the site's other hosts).
 * `httpsPort` is read per request: the port is known once the server listens.
 */
export function registerTransportSecurity(app: FastifyInstance, httpsPort: () => number): void {
  app.addHook('onRequest', async (request, reply) => {
    const socket = request.raw.socket;
    if (isEncrypted(request) || isLoopbackAddress(socket.remoteAddress)) return;
    const path = request.url.split('?')[0]!.replace(/(.)\/+$/, '$1');
    if (plainHttpProbePaths.has(path)) return;
    return reply.redirect(httpsLocation(request, httpsPort()), 308);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (isEncrypted(request)) reply.header('strict-transport-security', `max-age=${strictTransportSecurityMaxAge}`);
    return payload;
  });
}

function isEncrypted(request: FastifyRequest): boolean {
  return (request.raw.socket as Partial<TLSSocket>).encrypted === true;
}

/**
 * The request's URL on HTTPS: the host the client asked for (its `Host` header, when it is a
 * plain host name or address), else the address it reached; the HTTPS port; the same path.
 */
export function httpsLocation(request: FastifyRequest, port: number): string {
  const hostHeader = request.headers.host ?? '';
  const named = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d+)?$/.exec(hostHeader)?.[1];
  // An IPv4 address a dual-stack socket reports as IPv6 (`::ffff:10.0.0.5`) is named as IPv4.
  const reached = (request.raw.socket.localAddress ?? 'localhost').replace(/^::ffff:(?=\d+\.)/, '');
  const host = named ?? (reached.includes(':') ? `[${reached}]` : reached);
  return `https://${host}${port === 443 ? '' : `:${port}`}${request.url}`;
}
