// Route schemas carry OpenAPI fields (summary, description, consumes); this types them.
import type {} from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { adminRoutes } from './admin/adminRoutes.js';
import type { Services } from './createServices.js';
import { createValidatorCompiler } from './http/createValidatorCompiler.js';
import { handleError } from './http/errorHandler.js';
import { registerOpenApi } from './http/openApi.js';
import { registerRequestTimeout } from './http/requestTimeout.js';
import { registerTransportSecurity } from './http/transportSecurity.js';
import { ApiError, errorEnvelope } from './http/errors.js';
import { apiRoutes } from './http/routes/apiRoutes.js';
import { healthRoutes } from './http/routes/health/healthRoutes.js';
import { loggerOptions } from './infrastructure/logging/loggerOptions.js';
import { transcriptionCallbackRoute } from './http/routes/callbacks/transcriptionCallbackRoute.js';

export interface AppOptions {
  services: Services;
  /** pino logger settings; defaults to the service's redacting configuration. */
  logger?: FastifyServerOptions['logger'];
  /**
   * `full` (a `serve` node): the API, the callbacks, the admin page and the probes; `health`
   * (a `worker` node): only the probes and the metrics. Defaults to `full`.
   */
  surface?: 'full' | 'health';
  /**
   * The certificate and key to serve HTTPS with (`TLS=auto`, see {@link tlsServerOptions}): the
   * app's server is then an HTTPS server, and a plain HTTP one beside it (`listenNode`) answers
   * only loopback clients and the probes. Unset: plain HTTP (`TLS=off`, a worker, tests).
   */
  https?: SecureContextOptions;
}

/** TLS 1.2 and 1.3 only: 1.0 and 1.1 are deprecated (RFC 8996). Given with every certificate the server is handed. */
export function tlsServerOptions(pair: { certificatePem: string; keyPem: string }): SecureContextOptions {
  return { cert: pair.certificatePem, key: pair.keyPem, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3' };
}

/** Maintenance that runs while the app is up: expired idempotency keys, idle rate buckets. */
const housekeepingIntervalMs = 10 * 60 * 1000;

/**
 * Builds the Callscope HTTP app. `server.ts` starts it; tests build the very same app.
 * The app does not own `services`: whoever created them closes them (after `app.close()`).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services } = options;
  const { config } = services;
  const app = Fastify({
    // An HTTPS server. Fastify types the instance by its server; the app is returned as the plain
    // FastifyInstance (below): no route or hook here depends on the kind of server.
    ...(options.https ? { https: options.https } : {}),
    logger: options.logger ?? loggerOptions(config),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.TRUST_PROXY,
    // One line per request (in onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Query strings of this API never repeat keys; ids lists are comma-separated.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The router's own refusals (a path parameter over maxParamLength, percent-escapes that do
    // not decode) happen before any route or hook: answer them in the envelope too, as 400.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorEnvelope('validation_failed', 'The request path is not valid', { reason: error.code }));
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as FastifyInstance;

  // First of the hooks: a plain-HTTP request from another machine is sent to HTTPS before anything else is done with it.
  // The port is the one bound (HTTPS_PORT=0 picks one); before the server listens (`inject`), the setting.
  if (options.https) registerTransportSecurity(app, () => (app.server.address() as AddressInfo | null)?.port ?? config.HTTPS_PORT);
  app.setValidatorCompiler(createValidatorCompiler());
  registerRequestTimeout(app, config.REQUEST_TIMEOUT_MS);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request) => {
    throw new ApiError('route_not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    // Answered before the body was read to the end (an upload refused mid-stream): discard the
    // rest, so the client can finish sending, read the answer and reuse the connection, instead
    // of both sides waiting on a paused stream until the request times out.
    if (!request.raw.complete && !request.raw.destroyed) request.raw.resume();
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    request.log.info({ req: request, res: reply, responseTimeMs: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
    services.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    services.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  // Before the routes: @fastify/swagger documents the routes registered after it.
  await registerOpenApi(app);
  await app.register(healthRoutes, { services });
  if (options.surface === 'health') return app;
  // Before /api's routes, and outside their user authentication: verified by its own signature.
  await app.register(transcriptionCallbackRoute, { services, prefix: '/api/callbacks' });
  await app.register(apiRoutes, { services, prefix: '/api' });
  await app.register(adminRoutes, { services, prefix: '/admin' });

  const housekeeping = setInterval(() => {
    const now = services.clock();
    services.rateLimiter.sweep(now);
    services.idempotency.purgeExpired(now).catch((error: unknown) => app.log.warn({ err: error }, 'could not purge expired idempotency keys'));
  }, housekeepingIntervalMs);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));

  return app;
}
