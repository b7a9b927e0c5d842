import autocannon from 'autocannon';
import Fastify from 'fastify';
const variant = process.argv[2];
if (variant) {
  const app = Fastify({ logger: variant.includes('log') ? { level: 'info' } : false, disableRequestLogging: true });
  if (variant.includes('hook')) app.addHook('onResponse', async (request, reply) => { request.log.info({ req: request, res: reply }, 'request completed'); });
  if (variant.includes('send')) app.addHook('onSend', async (request, reply, payload) => { reply.header('x-request-id', request.id); return payload; });
  app.get('/bare', async () => ({ items: [{ callId: '00000000-0000-4000-8000-000000000000', status: 'COMPLETED' }] }));
  await app.listen({ port: Number(process.argv[3]), host: '127.0.0.1' });
} else {
  const { spawn } = await import('node:child_process');
  const { setTimeout: sleep } = await import('node:timers/promises');
  for (const v of ['plain', 'log', 'log-hook', 'log-hook-send']) {
    const port = 19400 + Math.floor(Math.random() * 100);
    const s = spawn(process.execPath, ['scripts/exp.tmp.mjs', v, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
    await sleep(700);
    await autocannon({ url: `http://127.0.0.1:${port}/bare`, connections: 16, duration: 2 });
    const r = await autocannon({ url: `http://127.0.0.1:${port}/bare`, connections: 16, duration: 5 });
    console.log(v, Math.round(r.requests.average));
    s.kill(); await sleep(300);
  }
}
