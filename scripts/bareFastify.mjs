#!/usr/bin/env node
/**
 * The yardstick of `npm run bench:api`: a bare Fastify server (no logging, no hooks) with one GET
 * route that answers a small JSON object, the smallest thing a Fastify route can do. Listens on
 * 127.0.0.1:<argv[2]>; stops on SIGTERM.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ items: [{ callId: '00000000-0000-4000-8000-000000000000', status: 'COMPLETED' }] }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
