import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from '../http/errors.js';

/**
 * Answers every request (probes too) 503 `service_unavailable` with `Retry-After: 1` until the
 * returned function is called: a node binds its port before it starts, and serves nothing until
 * it has. Call it before the app is ready (its hooks are fixed then).
 */
export function refuseRequestsUntilStarted(app: FastifyInstance): () => void {
  let started = false;
  app.addHook('onRequest', async (_request, reply) => {
    if (started) return;
    // Serialised here: the routes' own 503 schemas (a probe's `status` and `checks`) do not fit this answer.
    return reply.code(503).header('retry-after', '1').type('application/json; charset=utf-8')
      .send(JSON.stringify(errorEnvelope('service_unavailable', 'This node is starting; try again in a moment')));
  });
  return () => {
    started = true;
  };
}
