/**
 * `npm run bench:api`: load on the two polling endpoints of a database holding 10,000 calls.
 * Seeds a temp DATA_DIR, starts the built server (dist/server.js) as its own process with the
 * default configuration (local-user mode + API key; rate limit off, since one simulated user
 * sends all requests), then runs autocannon against GET /api/calls/status and GET /api/calls,
 * printing requests/s and p50/p99 latency. Target (2-core machine): status ≥ 3000 req/s at p99 ≤ 20 ms.
 *
 * Options (env): BENCH_SECONDS (default 20), BENCH_CONNECTIONS (default 16), BENCH_CALLS (default 10000).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const callCount = Number(process.env.BENCH_CALLS ?? 10_000);
const apiKey = 'bench-api-key-0123456789';
const port = 18000 + Math.floor(Math.random() * 1000);

const dataDir = mkdtempSync(join(tmpdir(), 'callscope-bench-'));
const statusIds = seedDatabase();
const server = spawn(process.execPath, ['dist/server.js'], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOCAL_AUTH: 'true', API_KEY: apiKey, RATE_LIMIT_PER_MINUTE: '0' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitForHealth();
  const headers = { 'x-local-user-id': 'bench-user', 'x-api-key': apiKey };
  const results = [];
  for (const [name, path] of [
    ['GET /api/calls/status (20 ids)', `/api/calls/status?ids=${statusIds.join(',')}`],
    ['GET /api/calls (limit 50)', '/api/calls?limit=50'],
  ] as const) {
    await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, connections, duration: 3 }); // warm-up
    const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, connections, duration: seconds });
    results.push({
      endpoint: name,
      'requests/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    });
  }
  console.log(`\nbench:api — ${callCount} calls in the database, ${connections} connections, ${seconds} s per endpoint, Node ${process.version}`);
  console.table(results);
  const status = results[0]!;
  const met = status['requests/s'] >= 3000 && status['p99 ms'] <= 20 && status.non2xx === 0;
  console.log(`status endpoint target (>= 3000 req/s at p99 <= 20 ms): ${met ? 'met' : 'NOT met'}`);
} finally {
  server.kill('SIGTERM');
  await sleep(300);
  rmSync(dataDir, { recursive: true, force: true });
}

/** Inserts the calls directly through the repository layer; returns 20 ids to poll (5 in flight). */
function seedDatabase(): string[] {
  const services = createServices(loadConfig({ DATA_DIR: dataDir, LOCAL_AUTH: 'true' }), { processMetrics: false });
  const user = services.users.findOrCreate({ externalUserId: 'local:bench-user' }, Date.now());
  const ids: string[] = [];
  const start = Date.now() - callCount * 60_000;
  services.database.sqlite.transaction(() => {
    for (let index = 0; index < callCount; index += 1) {
      const id = randomUUID();
      const inFlight = index >= callCount - 5;
      services.calls.insert({
        id, userId: user.id, title: `Call ${index}`, contactName: `Contact ${index % 300}`, direction: index % 2 ? 'INCOMING' : 'OUTGOING',
        status: inFlight ? 'QUEUED' : 'COMPLETED', durationSeconds: 60 + (index % 600), audioFormat: 'm4a', audioSizeBytes: 1_000_000,
        audioObjectKey: null, createdAt: start + index * 60_000, updatedAt: start + index * 60_000,
      });
      if (index >= callCount - 20) ids.push(id);
    }
  })();
  services.close();
  return ids;
}

async function waitForHealth(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('server did not become healthy');
}
