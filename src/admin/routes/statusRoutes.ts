import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { AuditQuerySchema, AuditSchema, StatusSchema } from '../schemas/adminSchemas.js';
import { collectStatus } from '../status/collectStatus.js';

/** What the status page shows, and the audit log. */
export const statusRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/status', {
    schema: { summary: 'Health, readiness, queue, throughput, stage timings and recent failures (no call content)', response: { 200: StatusSchema, ...errorResponses(401) } },
  }, async () => collectStatus(services));

  app.get('/audit', {
    schema: { summary: 'Admin actions, newest first', querystring: AuditQuerySchema, response: { 200: AuditSchema, ...errorResponses(400, 401) } },
  }, async (request) => ({
    entries: (await services.admin.audit.newest(request.query.limit)).map((entry) => ({ ...entry, at: toIsoTimestamp(entry.at) })),
  }));
};
