import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';
import { CallRepository } from '../src/domain/calls/CallRepository.js';
const dataDir = mkdtempSync(join(tmpdir(), 'prof-'));
const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOCAL_AUTH: 'true' }), { processMetrics: false });
const user = await services.users.findOrCreate({ externalUserId: 'local:bench-user' }, Date.now());
const ids: string[] = [];
await services.database.sql.transaction(async (tx) => { const calls = new CallRepository(tx); for (let i = 0; i < 10000; i++) { const id = randomUUID(); await calls.insert({ id, userId: user.id, title: 'c', direction: 'INCOMING', status: 'COMPLETED', audioFormat: 'm4a', audioSizeBytes: 1, createdAt: i, updatedAt: i }); if (i >= 9980) ids.push(id); } });
await services.close();
const port = 19123;
const args = process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', 'dist/server.js'] : ['dist/server.js'];
const server = spawn(process.execPath, args, { env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOCAL_AUTH: 'true', API_KEY: 'bench-api-key-0123456789', RATE_LIMIT_PER_MINUTE: '0', MODELS_AUTO_FETCH: 'false', LOG_LEVEL: process.env.SLOG ?? 'info' }, stdio: ['ignore', 'ignore', 'inherit'] });
for (;;) { try { if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break; } catch {} await sleep(200); }
const headers = { 'x-local-user-id': 'bench-user', 'x-api-key': 'bench-api-key-0123456789' };
await autocannon({ url: `http://127.0.0.1:${port}/api/calls/status?ids=${ids.join(",")}`, headers, connections: 16, duration: 1 });
for (const path of (process.env.PATHS ? process.env.PATHS.replace('IDS', ids.join(',')).split(' ') : [`/api/calls/status?ids=${ids.join(',')}`, `/api/calls/status?ids=${ids[0]}`, '/api/health', '/api/users/me', '/nothing-here'])) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, connections: 16, duration: 5 });
  console.log(path.slice(0, 40), 'rps', r.requests.average, 'p99', r.latency.p99, 'non2xx', r.non2xx);
}
server.kill('SIGINT'); await sleep(1500);
