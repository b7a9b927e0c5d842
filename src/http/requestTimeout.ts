import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from './errors.js';

/** Node's own timer fires this long after ours, only if ours could not answer (a stuck socket). */
const nodeBackstopMs = 10_000;

/**
 * Answers a request that runs longer than `timeoutMs` (a slow-drip upload, a client that stops
 * sending) with 408 `request_timeout` in the envelope and closes the connection. Node's built-in
 * request timeout would answer a bare 408 without the envelope, so it is set later, as a backstop.
 * The handler still running then fails on the closed stream and cleans up its temp file.
 */
export function registerRequestTimeout(app: FastifyInstance, timeoutMs: number): void {
  app.server.requestTimeout = timeoutMs + nodeBackstopMs;
  const timers = new WeakMap<object, NodeJS.Timeout>();
  app.addHook('onRequest', async (request, reply) => {
    const timer = setTimeout(() => {
      if (reply.sent) return;
      request.log.info({ timeoutMs }, 'request timed out');
      // Once the answer is out, end the request stream and the connection: Node stops tracking a
      // request whose response has finished, so without this the handler waiting on the body
      // would wait forever (holding its partial file) even after the client leaves.
      reply.raw.once('finish', () => {
        const socket = request.raw.socket;
        request.raw.destroy();
        socket?.destroy();
      });
      void reply.code(408).header('connection', 'close').type('application/json; charset=utf-8')
        .send(errorEnvelope('request_timeout', `The request took longer than ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    timer.unref();
    timers.set(request, timer);
  });
  const clear = async (request: object) => clearTimeout(timers.get(request));
  app.addHook('onResponse', clear);
  app.addHook('onRequestAbort', clear);
}
