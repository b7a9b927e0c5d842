/**
 * `npm run bench:load`: 50 simulated mobile clients against the real server on loopback while the
 * processing engine drains what they upload. Each client (users `load-01`…`load-50`), for
 * BENCH_LOAD_SECONDS:
 * - uploads a short real recording (../shared/audio) every 15–20 s with a fresh UUID
 *   Idempotency-Key; with probability ~0.3 the same request is sent again with the same key (a
 *   retried duplicate: half right after the answer, half overlapping the first send), which must
 *   answer with the same callId;
 * - polls `GET /api/calls/status?ids=` for its in-flight calls, waiting `nextPollMs` clamped to 3–5 s;
 * - lists its calls and its action items every ~10 s.
 * Then it waits up to BENCH_DRAIN_SECONDS for the queue to empty and prints per endpoint:
 * count, req/s, p50/p99 latency, non-2xx by status and network errors; duplicate calls created;
 * calls accepted vs finished; audio-minutes processed per wall-clock minute; peak memory.
 * Server, engine and clients share this process (clients use global fetch, which keeps
 * connections alive), so latencies include client-side event-loop time.
 * Exits 1 on any unintended non-2xx, network error or duplicate call.
 *
 * Options (env): BENCH_LOAD_SECONDS (default 60), BENCH_LOAD_CLIENTS (default 50),
 * BENCH_DRAIN_SECONDS (default 60), plus any Callscope setting (models, threads, concurrency).
 * A model slot whose configured file is missing falls back to ../shared/models, as bench:pipeline does.
 */
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { startProcessing } from '../src/processing/startProcessing.js';
import { modelsWithSharedFallback, residentMegabytes } from './benchSupport.js';

const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const clientCount = Number(process.env.BENCH_LOAD_CLIENTS ?? 50);
const drainSeconds = Number(process.env.BENCH_DRAIN_SECONDS ?? 60);
const duplicateProbability = 0.3;

// ---------------------------------------------------------------------------------------------
// Recordings: short real calls from the shared audio (16 kHz mono WAV, 6–11 s).
const sharedAudio = resolve(packageRoot, '../shared/audio');
const recordings = [
  join(sharedAudio, 'speakers/speaker1_a_en_16k.wav'),
  join(sharedAudio, 'speakers/speaker1_b_en_16k.wav'),
  join(sharedAudio, 'speakers/speaker2_a_en_16k.wav'),
  join(sharedAudio, 'jfk/jfk.wav'),
].map((path) => {
  const bytes = readFileSync(path);
  // 16-bit mono 16 kHz: bytes after the 44-byte header / 32000 per second.
  return { name: basename(path), bytes, seconds: Math.round((bytes.length - 44) / 32000) };
});

// ---------------------------------------------------------------------------------------------
// Server and engine.
const dataDir = mkdtempSync(join(tmpdir(), 'callscope-bench-load-'));
const models = modelsWithSharedFallback();
const config = loadConfig({ ...process.env, ...models, DATA_DIR: dataDir, LOCAL_AUTH: 'true', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const services = await createServices(config, { processMetrics: false });
const app = await buildApp({ services });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
const baseUrl = `http://127.0.0.1:${address.port}`;
const processing = await startProcessing(services, app.log);

// ---------------------------------------------------------------------------------------------
// Measurements.
type Endpoint = 'POST /api/calls/analyze' | 'POST /api/calls/analyze (retried duplicate)' | 'GET /api/calls/status' | 'GET /api/calls' | 'GET /api/actions';
interface EndpointStats { latencies: number[]; byStatus: Map<number, number>; networkErrors: number; errorCodes: Map<string, number> }
const stats = new Map<Endpoint, EndpointStats>();
/** Refusals the scenario provokes on purpose (none: every request here is well-formed). */
const intendedRefusals = (_endpoint: Endpoint, _status: number): boolean => false;

let peakRssMb = 0;
let peakTreeMb = 0;
const memorySampler = setInterval(() => {
  peakRssMb = Math.max(peakRssMb, process.memoryUsage.rss() / 1048576);
  void residentMegabytes().then((mb) => { peakTreeMb = Math.max(peakTreeMb, mb); });
}, 250);

async function timed(endpoint: Endpoint, path: string, init: RequestInit): Promise<{ status: number; body: unknown } | null> {
  const entry: EndpointStats = stats.get(endpoint) ?? { latencies: [], byStatus: new Map<number, number>(), networkErrors: 0, errorCodes: new Map<string, number>() };
  stats.set(endpoint, entry);
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    entry.latencies.push(performance.now() - started);
    entry.byStatus.set(response.status, (entry.byStatus.get(response.status) ?? 0) + 1);
    const body = text ? JSON.parse(text) as unknown : null;
    if (response.status >= 300) {
      const code = (body as { code?: string } | null)?.code ?? '?';
      entry.errorCodes.set(`${response.status} ${code}`, (entry.errorCodes.get(`${response.status} ${code}`) ?? 0) + 1);
    }
    return { status: response.status, body };
  } catch (error) {
    entry.networkErrors += 1;
    entry.errorCodes.set(`network ${(error as Error).message}`, (entry.errorCodes.get(`network ${(error as Error).message}`) ?? 0) + 1);
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Clients.
interface Upload { key: string; callId: string; clientIndex: number }
const accepted: Upload[] = [];
const duplicateMismatches: { key: string; first: string; repeat: string | null }[] = [];
let duplicatesSent = 0;
const started = performance.now();
const startedAtMs = Date.now();
const deadline = started + loadSeconds * 1000;
const remaining = () => deadline - performance.now();

async function client(clientIndex: number): Promise<void> {
  const user = `load-${String(clientIndex).padStart(2, '0')}`;
  const headers = { 'x-local-user-id': user };
  const inFlight = new Set<string>();

  const uploadOnce = async (): Promise<void> => {
    const recording = recordings[Math.floor(Math.random() * recordings.length)]!;
    const key = randomUUID();
    const metadata = JSON.stringify({
      title: `Load call ${user} ${new Date().toISOString()}`, contactName: `Contact ${clientIndex}`,
      direction: Math.random() < 0.5 ? 'INCOMING' : 'OUTGOING', recordedAt: new Date().toISOString(), durationSeconds: recording.seconds,
    });
    // The same bytes for every send with this key, as a retrying client would send them.
    const send = (endpoint: Endpoint) => {
      const form = new FormData();
      form.append('metadata', metadata);
      form.append('file', new Blob([recording.bytes], { type: 'audio/wav' }), recording.name);
      return timed(endpoint, '/api/calls/analyze', { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: form });
    };
    const duplicate = Math.random() < duplicateProbability;
    const overlapping = duplicate && Math.random() < 0.5;
    let first: Awaited<ReturnType<typeof send>>;
    let repeat: Awaited<ReturnType<typeof send>> | undefined;
    if (overlapping) {
      // A retry that overtakes the first send (the client gave up on it while it was still in flight).
      [first, repeat] = await Promise.all([send('POST /api/calls/analyze'), sleep(Math.random() * 20).then(() => send('POST /api/calls/analyze (retried duplicate)'))]);
    } else {
      first = await send('POST /api/calls/analyze');
      if (duplicate) repeat = await send('POST /api/calls/analyze (retried duplicate)');
    }
    const firstId = first?.status === 202 ? (first.body as { callId: string }).callId : null;
    const repeatId = repeat && repeat.status === 202 ? (repeat.body as { callId: string }).callId : null;
    if (repeat !== undefined) {
      duplicatesSent += 1;
      if (firstId === null || repeatId !== firstId) duplicateMismatches.push({ key, first: firstId ?? `(status ${first?.status ?? 'network error'})`, repeat: repeatId });
    }
    const callId = firstId ?? repeatId;
    if (callId) {
      accepted.push({ key, callId, clientIndex });
      inFlight.add(callId);
    }
  };

  const uploads = (async () => {
    await sleep(Math.random() * 15_000);
    while (remaining() > 0) {
      await uploadOnce();
      await sleep(Math.min(15_000 + Math.random() * 5_000, Math.max(0, remaining())));
    }
  })();

  const polling = (async () => {
    while (remaining() > 0) {
      let waitMs = 3_000 + Math.random() * 2_000;
      if (inFlight.size > 0) {
        const ids = [...inFlight].slice(0, 100);
        const answer = await timed('GET /api/calls/status', `/api/calls/status?ids=${ids.join(',')}`, { headers });
        if (answer?.status === 200) {
          const body = answer.body as { items: { callId: string; status: string }[]; nextPollMs?: number };
          for (const item of body.items) if (item.status === 'COMPLETED' || item.status === 'FAILED') inFlight.delete(item.callId);
          if (body.nextPollMs !== undefined) waitMs = Math.min(5_000, Math.max(3_000, body.nextPollMs));
        }
      }
      await sleep(Math.min(waitMs, Math.max(0, remaining())));
    }
  })();

  const listing = (async () => {
    await sleep(Math.random() * 10_000);
    while (remaining() > 0) {
      await timed('GET /api/calls', '/api/calls?limit=20', { headers });
      await timed('GET /api/actions', '/api/actions', { headers });
      await sleep(Math.min(9_000 + Math.random() * 2_000, Math.max(0, remaining())));
    }
  })();

  await Promise.all([uploads, polling, listing]);
}

console.log(`bench:load — ${clientCount} clients for ${loadSeconds} s against ${baseUrl} (WORKER_CONCURRENCY ${config.WORKER_CONCURRENCY || 'auto'}, WORKER_THREADS ${config.WORKER_THREADS || 'auto'}; engine concurrency ${processing.engine.concurrency})…`);
await Promise.all(Array.from({ length: clientCount }, (_, index) => client(index + 1)));
const loadWallSeconds = (performance.now() - started) / 1000;
const loadEndMs = Date.now();

// ---------------------------------------------------------------------------------------------
// Drain: wait for the queue to empty (up to drainSeconds).
const database = services.database.sql;
const unfinished = async () => (await database.get<{ n: number }>(sql`SELECT count(*) AS n FROM calls WHERE status NOT IN ('COMPLETED','FAILED')`))?.n ?? 0;
const atLoadEnd = await unfinished();
const drainStarted = performance.now();
while ((await unfinished()) > 0 && performance.now() - drainStarted < drainSeconds * 1000) await sleep(500);
const drainWallSeconds = (performance.now() - drainStarted) / 1000;
const drainEndMs = Date.now();
clearInterval(memorySampler);

// ---------------------------------------------------------------------------------------------
// Results.
const byStatus = await database.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM calls GROUP BY status`);
const callsInDb = byStatus.reduce((sum, row) => sum + row.n, 0);
const completedBetween = async (from: number, to: number) => (await database.get<{ n: number; seconds: number }>(
  sql`SELECT count(*) AS n, coalesce(sum(duration_seconds), 0) AS seconds FROM calls WHERE status = 'COMPLETED' AND updated_at BETWEEN ${from} AND ${to}`,
))!;
const duringLoad = await completedBetween(startedAtMs, loadEndMs);
const overall = await completedBetween(startedAtMs, drainEndMs);
const distinctKeys = new Set(accepted.map((upload) => upload.key)).size;
const distinctCallIds = new Set(accepted.map((upload) => upload.callId)).size;
// Every call in the database must belong to exactly one accepted Idempotency-Key.
const duplicateCalls = Math.max(0, callsInDb - distinctKeys) + (distinctKeys - distinctCallIds) + duplicateMismatches.length;
const failures = await database.all<{ reason: string | null; n: number }>(sql`SELECT error_reason AS reason, count(*) AS n FROM calls WHERE status = 'FAILED' GROUP BY error_reason`);

await processing.stop(0);
app.server.closeAllConnections();
await app.close();
await services.close();
rmSync(dataDir, { recursive: true, force: true });

const rows = [...stats.entries()].map(([endpoint, entry]) => {
  const sorted = [...entry.latencies].sort((a, b) => a - b);
  const non2xx = [...entry.byStatus.entries()].filter(([status]) => status < 200 || status >= 300);
  return {
    endpoint,
    requests: sorted.length + entry.networkErrors,
    'req/s': round(sorted.length / loadWallSeconds, 1),
    'p50 ms': round(percentile(sorted, 0.5), 1),
    'p99 ms': round(percentile(sorted, 0.99), 1),
    'max ms': round(sorted.at(-1) ?? 0, 1),
    non2xx: non2xx.filter(([status]) => !intendedRefusals(endpoint, status)).reduce((sum, [, n]) => sum + n, 0),
    'intended refusals': non2xx.filter(([status]) => intendedRefusals(endpoint, status)).reduce((sum, [, n]) => sum + n, 0),
    'network errors': entry.networkErrors,
  };
});
const totalRequests = rows.reduce((sum, row) => sum + row.requests, 0);
const unintended = rows.reduce((sum, row) => sum + row.non2xx + row['network errors'], 0);

console.log(`\nbench:load — ${clientCount} clients, ${round(loadWallSeconds)} s of load, Node ${process.version}, ${(await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm)?.length ?? '?'} cores`);
console.table(rows);
console.log(`all endpoints: ${totalRequests} requests, ${round(totalRequests / loadWallSeconds, 1)} req/s`);
for (const [endpoint, entry] of stats) for (const [code, n] of entry.errorCodes) console.log(`  ${endpoint}: ${code} × ${n}`);
console.log(`uploads accepted: ${distinctKeys} keys → ${distinctCallIds} calls; retried duplicates sent ${duplicatesSent}, same callId ${duplicatesSent - duplicateMismatches.length}; calls in database ${callsInDb}`);
for (const mismatch of duplicateMismatches.slice(0, 10)) console.log(`  duplicate mismatch: key ${mismatch.key} first ${mismatch.first} repeat ${mismatch.repeat ?? '(no callId)'}`);
console.log(`duplicate calls created: ${duplicateCalls}`);
console.log(`unfinished at end of load: ${atLoadEnd}; after ${round(drainWallSeconds)} s drain: ${byStatus.filter((row) => row.status !== 'COMPLETED' && row.status !== 'FAILED').map((row) => `${row.n} ${row.status}`).join(', ') || 'none'} (final: ${byStatus.map((row) => `${row.status} ${row.n}`).join(', ')})`);
if (failures.length > 0) console.log(`failed calls: ${failures.map((row) => `${row.reason ?? '(no reason)'} × ${row.n}`).join('; ')}`);
console.log(`completed during the load: ${duringLoad.n} calls, ${round(duringLoad.seconds / 60, 2)} audio-min in ${round(loadWallSeconds / 60, 2)} wall-min → ${round(duringLoad.seconds / loadWallSeconds, 2)} audio-min per wall-min`);
console.log(`completed by the end of the drain: ${overall.n} calls, ${round(overall.seconds / 60, 2)} audio-min in ${round((drainEndMs - startedAtMs) / 60_000, 2)} wall-min → ${round(overall.seconds / ((drainEndMs - startedAtMs) / 1000), 2)} audio-min per wall-min`);
console.log(`peak RSS: ${round(peakRssMb)} MB this process (server + engine worker threads + clients), ${round(peakTreeMb)} MB with child processes (ffmpeg, whisper.cpp)`);
console.log(`models: ${Object.entries(models).map(([slot, path]) => `${slot}=${basename(path)}`).join(', ')}`);
console.log(unintended === 0 && duplicateCalls === 0 ? 'result: PASS (0 unintended non-2xx, 0 duplicate calls)' : `result: FAIL (${unintended} unintended non-2xx/network errors, ${duplicateCalls} duplicate calls)`);
process.exit(unintended === 0 && duplicateCalls === 0 ? 0 : 1);

// ---------------------------------------------------------------------------------------------
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}
