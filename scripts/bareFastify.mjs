#!/usr/bin/env node
/**
 * The yardstick of `npm run bench:api`: a bare Fastify server (no logging, no hooks) with one GET
 * route that answers a small JSON object, the smallest thing a Fastify route can do. Listens on
 * 127.0.0.1:<argv[2]>; stops on SIGTERM.
 *
 * With argv[3] = N, the route first keeps the CPU busy for N µs (a fixed amount of work, standing
 * in for whatever a real route does: authentication, a database read, the request log), which
 * shows how fast the share of the bare route falls with the work a request does.
 */
import Fastify from 'fastify';

const workNanoseconds = BigInt(Math.round(Number(process.argv[3] ?? 0) * 1000));
const app = Fastify({ logger: false });
app.get('/bare', async () => {
  if (workNanoseconds > 0n) {
    const until = process.hrtime.bigint() + workNanoseconds;
    while (process.hrtime.bigint() < until);
  }
  return { items: [{ callId: '00000000-0000-4000-8000-000000000000', status: 'COMPLETED' }] };
});
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
