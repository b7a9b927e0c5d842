import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import type { Services } from '../../../createServices.js';
import { runChecks } from '../../../infrastructure/health/readinessChecks.js';
import { ApiError, errorEnvelope } from '../../errors.js';
import { isLoopbackAddress } from '../../loopback.js';

const StatusSchema = Type.Object({ status: Type.String() });
const CheckSchema = Type.Object({ status: Type.String(), detail: Type.Optional(Type.Object({}, { additionalProperties: true })) });
const ReadinessSchema = Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), CheckSchema) });

/**
 * Probes need no credentials and reveal no user data: `/api/health` (liveness, database
 * reachable), `/actuator/health`, `/actuator/health/readiness` (every readiness check) and the
 * metrics scrape, which only loopback clients or holders of METRICS_TOKEN may read.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const liveness = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const database = await runChecks({ database: services.readinessChecks.database! });
    if (database.status === 'UP') return reply.send({ status: 'UP' });
    return reply.code(503).send({ status: 'DOWN', ...errorEnvelope('service_unavailable', 'The database is unreachable') });
  };
  const livenessSchema = { response: { 200: StatusSchema, 503: Type.Object({ status: Type.String(), error: Type.Object({ code: Type.String(), message: Type.String() }) }) } };

  app.get('/api/health', { schema: { summary: 'Liveness: 200 while the database answers, else 503', ...livenessSchema } }, liveness);
  app.get('/actuator/health', { schema: { summary: 'Liveness (operations alias)', ...livenessSchema } }, liveness);
  // The liveness group's own path (as Spring Boot names it), for probes configured that way.
  app.get('/actuator/health/liveness', { schema: { summary: 'Liveness (operations alias)', ...livenessSchema } }, liveness);

  app.get('/actuator/health/readiness', {
    schema: { summary: 'Readiness: database, disk space, models, worker pool', response: { 200: ReadinessSchema, 503: ReadinessSchema } },
  }, async (_request, reply) => {
    const readiness = await runChecks(services.readinessChecks);
    return reply.code(readiness.status === 'UP' ? 200 : 503).send(readiness);
  });

  const metricsTokenDigest = services.config.METRICS_TOKEN ? digest(services.config.METRICS_TOKEN) : undefined;
  app.get('/actuator/prometheus', {
    schema: { summary: 'Prometheus metrics (loopback, or Bearer METRICS_TOKEN)', produces: ['text/plain'] },
  }, async (request, reply) => {
    const bearer = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const tokenAccepted = metricsTokenDigest !== undefined && bearer !== undefined && timingSafeEqual(digest(bearer), metricsTokenDigest);
    if (!tokenAccepted && !isLoopbackAddress(request.ip)) throw new ApiError('auth_invalid', 'Metrics are available on loopback or with the metrics token');
    return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
  });
};

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
