/**
 * `npm run bench:api`: load on the two polling endpoints of a database holding 10,000 calls.
 * Seeds a temp DATA_DIR, starts the built server (dist/server.js) as its own process with the
 * default configuration (local-user mode + API key; rate limit off, since one simulated user
 * sends all requests), then runs autocannon against GET /api/calls/status and GET /api/calls,
 * printing requests/s and p50/p99 latency. Target (2-core machine): status ≥ 3000 req/s at p99 ≤ 20 ms.
 * A second phase repeats the load while the server's engine processes two 30-minute recordings
 * uploaded over HTTP (target: p99 ≤ 50 ms while processing).
 *
 * Options (env): BENCH_SECONDS (default 20), BENCH_CONNECTIONS (default 16), BENCH_CALLS (default 10000).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';
import { CallRepository } from '../src/domain/calls/CallRepository.js';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const callCount = Number(process.env.BENCH_CALLS ?? 10_000);
const apiKey = 'bench-api-key-0123456789';
const port = 18000 + Math.floor(Math.random() * 1000);

const dataDir = mkdtempSync(join(tmpdir(), 'callscope-bench-'));
const statusIds = await seedDatabase();
const server = spawn(process.execPath, ['dist/server.js'], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOCAL_AUTH: 'true', API_KEY: apiKey, RATE_LIMIT_PER_MINUTE: '0' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitForHealth();
  const headers = { 'x-local-user-id': 'bench-user', 'x-api-key': apiKey };
  const idle = await measure(headers, statusIds);

  // Phase 2: the same load while the engine works on real recordings.
  const recording = join(dataDir, 'bench-recording.m4a');
  await run(resolveFfmpegBinaries().ffmpegPath, ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.2:sample_rate=16000',
    '-t', '1800', '-c:a', 'aac', '-b:a', '32k', recording]);
  const uploaded: string[] = [];
  for (const index of [1, 2]) {
    const form = new FormData();
    form.append('file', new Blob([await readFile(recording)]), `recording-${index}.m4a`);
    const response = await fetch(`http://127.0.0.1:${port}/api/calls/analyze`, { method: 'POST', headers, body: form });
    uploaded.push(((await response.json()) as { callId: string }).callId);
  }
  const pollIds = [...statusIds.slice(0, 18), ...uploaded];
  const busy = await measure(headers, pollIds);
  const statuses = (await (await fetch(`http://127.0.0.1:${port}/api/calls/status?ids=${uploaded.join(',')}`, { headers })).json()) as { items: { status: string }[] };
  const stillProcessing = statuses.items.some((item) => item.status !== 'COMPLETED' && item.status !== 'FAILED');

  console.log(`\nbench:api — ${callCount} calls in the database, ${connections} connections, ${seconds} s per endpoint, Node ${process.version}`);
  console.log('idle engine:');
  console.table(idle);
  console.log(`while processing two 30-minute recordings (${stillProcessing ? 'still processing at the end' : 'PROCESSING ENDED DURING THE RUN'}):`);
  console.table(busy);
  const statusIdle = idle[0]!;
  const statusBusy = busy[0]!;
  console.log(`status endpoint target (>= 3000 req/s at p99 <= 20 ms): ${statusIdle['requests/s'] >= 3000 && statusIdle['p99 ms'] <= 20 && statusIdle.non2xx === 0 ? 'met' : 'NOT met'}`);
  console.log(`while processing (p99 <= 50 ms on both endpoints): ${busy.every((row) => row['p99 ms'] <= 50 && row.non2xx === 0) && stillProcessing ? 'met' : 'NOT met'}`);
} finally {
  server.kill('SIGTERM');
  await sleep(300);
  rmSync(dataDir, { recursive: true, force: true });
}

/** Runs autocannon on the status and list endpoints (3 s warm-up each). */
async function measure(headers: Record<string, string>, ids: string[]) {
  const rows = [];
  for (const [name, path] of [
    [`GET /api/calls/status (${ids.length} ids)`, `/api/calls/status?ids=${ids.join(',')}`],
    ['GET /api/calls (limit 50)', '/api/calls?limit=50'],
  ] as const) {
    await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, connections, duration: 3 });
    const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers, connections, duration: seconds });
    rows.push({ endpoint: name, 'requests/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99, non2xx: result.non2xx, errors: result.errors });
  }
  return rows;
}

/** Inserts the calls directly through the repository layer (all COMPLETED); returns 20 ids to poll. */
async function seedDatabase(): Promise<string[]> {
  const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOCAL_AUTH: 'true' }), { processMetrics: false });
  const user = await services.users.findOrCreate({ externalUserId: 'local:bench-user' }, Date.now());
  const ids: string[] = [];
  const start = Date.now() - callCount * 60_000;
  await services.database.sql.transaction(async (tx) => {
    const calls = new CallRepository(tx);
    for (let index = 0; index < callCount; index += 1) {
      const id = randomUUID();
      await calls.insert({
        id, userId: user.id, title: `Call ${index}`, contactName: `Contact ${index % 300}`, direction: index % 2 ? 'INCOMING' : 'OUTGOING',
        status: 'COMPLETED', durationSeconds: 60 + (index % 600), audioFormat: 'm4a', audioSizeBytes: 1_000_000,
        audioObjectKey: null, createdAt: start + index * 60_000, updatedAt: start + index * 60_000,
      });
      if (index >= callCount - 20) ids.push(id);
    }
  });
  await services.close();
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
