/**
 * `npm run bench:api`: the polling endpoints over a database of 10,000 calls, against a bare
 * Fastify route measured in the same run, and the same bare route made to do a fixed amount of CPU
 * work per request (20 µs by default), which shows what share of the bare route any route doing
 * that much work can reach on this machine.
 *
 * Starts, as their own processes: the yardstick (scripts/bareFastify.mjs: one route, no hooks,
 * no logging), the built server (dist/server.js) on a seeded SQLite DATA_DIR, and, when PostgreSQL
 * is installed, the same server on a seeded database of a throwaway cluster. The servers run the
 * default configuration (local-user mode + API key; the rate limit off, since one simulated user
 * sends every request; request logging on). autocannon then loads, in turns (`BENCH_ROUNDS`
 * rounds, so that a slow moment of the machine falls on every target alike): the bare route,
 * `GET /api/calls/status` with 20 ids and `GET /api/calls?limit=50` on each engine. It prints
 * requests/s, p50/p99 latency and each endpoint's share of the bare route's requests/s.
 * Target: status polling ≥ 50 % of the bare route on SQLite.
 *
 * The access audit trail's cost (skipped with BENCH_AUDIT=0): two more SQLite servers, seeded
 * alike, one with the trail on and one with it off (ACCESS_AUDIT=off); status polling (not
 * recorded) and `GET /api/calls/{id}/transcript` (a read the trail records) are loaded on both in
 * paired turns, order alternating (BENCH_AUDIT_ROUNDS rounds of BENCH_AUDIT_SECONDS). Targets:
 * status polling with the trail on keeps ≥ 90 % of its requests/s with it off (median over the
 * rounds), and so does the audited read.
 *
 * A second phase (skipped with BENCH_BUSY=0) repeats the SQLite load while the engine processes
 * two 30-minute recordings uploaded over HTTP (target: p99 ≤ 50 ms while processing).
 *
 * Options (env): BENCH_SECONDS (default 10 per turn), BENCH_ROUNDS (default 2), BENCH_CONNECTIONS
 * (default 16), BENCH_CALLS (default 10000), BENCH_BUSY (default 1), BENCH_POSTGRES (default 1),
 * BENCH_YARDSTICK_WORK_US (default 20), BENCH_AUDIT (default 1), BENCH_AUDIT_ROUNDS (default 6),
 * BENCH_AUDIT_SECONDS (default 5).
 */
import autocannon from 'autocannon';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';
import { CallRepository } from '../src/domain/calls/CallRepository.js';
import { freeLoopbackPort } from '../src/infrastructure/processes/freeLoopbackPort.js';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { median, waitForAnswer } from './benchSupport.js';
import { seedCall } from '../test/helpers/seedCalls.js';
import { createPostgresDatabaseOn, postgresBinDir, startThrowawayCluster, type ThrowawayCluster } from '../test/helpers/postgres/throwawayCluster.js';

const run = promisify(execFile);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const callCount = Number(process.env.BENCH_CALLS ?? 10_000);
const busyPhase = process.env.BENCH_BUSY !== '0';
const withPostgres = process.env.BENCH_POSTGRES !== '0' && postgresBinDir() !== undefined;
const auditComparison = process.env.BENCH_AUDIT !== '0';
/** Paired rounds of the audit trail's comparison, and seconds per turn in them. */
const auditRounds = Number(process.env.BENCH_AUDIT_ROUNDS ?? 6);
const auditSeconds = Number(process.env.BENCH_AUDIT_SECONDS ?? 5);
const apiKey = 'bench-api-key-0123456789';
/** The second yardstick: the bare route plus this much CPU work per request (BENCH_YARDSTICK_WORK_US), µs. */
const yardstickWorkMicroseconds = Number(process.env.BENCH_YARDSTICK_WORK_US ?? 20);
const headers = { 'x-local-user-id': 'bench-user', 'x-api-key': apiKey };

interface Target {
  name: string;
  engine: 'bare' | 'sqlite' | 'postgres';
  url: string;
  headers?: Record<string, string>;
}

interface Site {
  engine: 'sqlite' | 'postgres';
  /** ACCESS_AUDIT of its server. */
  accessAudit: 'on' | 'off';
  baseUrl: string;
  statusIds: string[];
  /** A completed call with a transcript, for the audited read. */
  transcriptCallId: string;
  server: ChildProcess;
  dataDir: string;
}

const started: ChildProcess[] = [];
let cluster: ThrowawayCluster | undefined;
try {
  const barePort = await startBareRoute();
  const workingBarePort = await startBareRoute(yardstickWorkMicroseconds);
  const sites = [await startSite('sqlite')];
  // A pair of servers with the same history (seeded alike, loaded only by the comparison).
  const auditPair = auditComparison ? { on: await startSite('sqlite'), off: await startSite('sqlite', undefined, 'off') } : undefined;
  if (withPostgres) {
    cluster = await startThrowawayCluster();
    sites.push(await startSite('postgres', await createPostgresDatabaseOn(cluster)));
  }
  const targets: Target[] = [
    { name: 'bare Fastify route', engine: 'bare', url: `http://127.0.0.1:${barePort}/bare` },
    { name: `bare route + ${yardstickWorkMicroseconds} µs of CPU work`, engine: 'bare', url: `http://127.0.0.1:${workingBarePort}/bare` },
    ...sites.flatMap((site): Target[] => [
      { name: 'GET /api/calls/status (20 ids)', engine: site.engine, url: `${site.baseUrl}/api/calls/status?ids=${site.statusIds.join(',')}`, headers },
      { name: 'GET /api/calls (limit 50)', engine: site.engine, url: `${site.baseUrl}/api/calls?limit=50`, headers },
    ]),
  ];
  const load = loadavg()[0]!.toFixed(2);
  const idle = await measureInTurns(targets);
  console.log(`\nbench:api — ${callCount} calls in each database, ${connections} connections, ${rounds} rounds of ${seconds} s per target, Node ${process.version}, ${cpus().length} cores, load average ${load} at the start`);
  console.table(idle);
  const [bare, workingBare] = idle;
  console.log(`the bare route doing ${yardstickWorkMicroseconds} µs of work per request: ${workingBare!['% of bare']} % of the bare route`);
  for (const row of idle.filter((entry) => entry.name === 'GET /api/calls/status (20 ids)')) {
    console.log(`status polling on ${row.engine}: ${row['requests/s']} req/s = ${row['% of bare']} % of the bare route's ${bare!['requests/s']} req/s${row.engine === 'sqlite' ? ` (target >= 50 %: ${row['% of bare'] >= 50 ? 'met' : 'NOT met'})` : ''}`);
  }
  if (auditPair) await measureAuditCost(auditPair.on, auditPair.off);
  if (busyPhase) await busyEngine(sites[0]!);
} finally {
  for (const child of started) child.kill('SIGTERM');
  await sleep(500);
  cluster?.stop();
}

/**
 * The trail's cost, on two servers with the same history, one with the trail on and one with it
 * off: status polling (not recorded) and the transcript read (one record each) in paired turns,
 * on then off in one round and off then on in the next, so that the machine's slow swings fall
 * on both alike. Each round gives a ratio (on / off) per endpoint; the median over the rounds is
 * reported, with the range.
 */
async function measureAuditCost(on: Site, off: Site): Promise<void> {
  const endpoints = [
    { name: 'GET /api/calls/status (20 ids)', path: (site: Site) => `/api/calls/status?ids=${site.statusIds.join(',')}` },
    { name: 'GET /api/calls/{id}/transcript (audited)', path: (site: Site) => `/api/calls/${site.transcriptCallId}/transcript` },
  ];
  const ratios = endpoints.map(() => [] as number[]);
  const rates = endpoints.map(() => ({ on: [] as number[], off: [] as number[] }));
  for (let round = 0; round < auditRounds; round += 1) {
    for (const [index, endpoint] of endpoints.entries()) {
      const pair = round % 2 === 0 ? [on, off] : [off, on];
      const measured = new Map<Site, number>();
      for (const site of pair) {
        const url = `${site.baseUrl}${endpoint.path(site)}`;
        await autocannon({ url, headers, connections, duration: 2 });
        measured.set(site, (await autocannon({ url, headers, connections, duration: auditSeconds })).requests.average);
      }
      rates[index]!.on.push(measured.get(on)!);
      rates[index]!.off.push(measured.get(off)!);
      ratios[index]!.push(measured.get(on)! / measured.get(off)!);
    }
  }
  console.log(`\naccess audit trail, SQLite: ${auditRounds} paired rounds of ${auditSeconds} s per endpoint and server, order alternating`);
  console.table(endpoints.map((endpoint, index) => ({
    endpoint: endpoint.name,
    'trail on req/s (median)': Math.round(median(rates[index]!.on)),
    'trail off req/s (median)': Math.round(median(rates[index]!.off)),
    'on / off (median) %': round1(median(ratios[index]!) * 100),
    'rounds range %': `${round1(Math.min(...ratios[index]!) * 100)}–${round1(Math.max(...ratios[index]!) * 100)}`,
  })));
  const [pollShare, readShare] = ratios.map((values) => round1(median(values) * 100)) as [number, number];
  console.log(`access audit trail: status polling with the trail on runs at ${pollShare} % of its rate with it off (cost ${round1(100 - pollShare)} %; target < 10 %: ${pollShare > 90 ? 'met' : 'NOT met'})`);
  console.log(`access audit trail: audited transcript reads with the trail on run at ${readShare} % of their rate with it off (cost ${round1(100 - readShare)} %; target < 10 %: ${readShare > 90 ? 'met' : 'NOT met'})`);
}

/** Starts scripts/bareFastify.mjs (doing `workMicroseconds` of CPU work per request) on a free port; returns the port. */
async function startBareRoute(workMicroseconds = 0): Promise<number> {
  const port = await freeLoopbackPort();
  started.push(spawn(process.execPath, ['scripts/bareFastify.mjs', String(port), String(workMicroseconds)], { stdio: ['ignore', 'ignore', 'inherit'] }));
  await waitForAnswer(`http://127.0.0.1:${port}/bare`);
  return port;
}

/** Each target loaded `rounds` times in turn (3 s warm-up before each); the rounds' mean per target. */
async function measureInTurns(targets: Target[]) {
  const results = new Map<Target, autocannon.Result[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const target of targets) {
      await autocannon({ url: target.url, headers: target.headers ?? {}, connections, duration: 3 });
      results.get(target)!.push(await autocannon({ url: target.url, headers: target.headers ?? {}, connections, duration: seconds }));
    }
  }
  const rows = targets.map((target) => {
    const runs = results.get(target)!;
    const mean = (pick: (result: autocannon.Result) => number) => runs.reduce((sum, result) => sum + pick(result), 0) / runs.length;
    return {
      name: target.name, engine: target.engine, 'requests/s': Math.round(mean((result) => result.requests.average)),
      'p50 ms': round1(mean((result) => result.latency.p50)), 'p99 ms': round1(mean((result) => result.latency.p99)),
      non2xx: runs.reduce((sum, result) => sum + result.non2xx, 0), errors: runs.reduce((sum, result) => sum + result.errors, 0), '% of bare': 0,
    };
  });
  const bareRate = rows[0]!['requests/s'];
  for (const row of rows) row['% of bare'] = Math.round((row['requests/s'] / bareRate) * 100);
  return rows;
}

/** Phase 2: the SQLite site's endpoints while its engine works on two 30-minute recordings. */
async function busyEngine(site: Site): Promise<void> {
  const recording = join(site.dataDir, 'bench-recording.m4a');
  await run(resolveFfmpegBinaries().ffmpegPath, ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.2:sample_rate=16000',
    '-t', '1800', '-c:a', 'aac', '-b:a', '32k', recording]);
  const uploaded: string[] = [];
  for (const index of [1, 2]) {
    const form = new FormData();
    form.append('file', new Blob([await readFile(recording)]), `recording-${index}.m4a`);
    const response = await fetch(`${site.baseUrl}/api/calls/analyze`, { method: 'POST', headers, body: form });
    uploaded.push(((await response.json()) as { callId: string }).callId);
  }
  const pollIds = [...site.statusIds.slice(0, 18), ...uploaded];
  const busy = [];
  for (const [name, path] of [[`GET /api/calls/status (${pollIds.length} ids)`, `/api/calls/status?ids=${pollIds.join(',')}`], ['GET /api/calls (limit 50)', '/api/calls?limit=50']] as const) {
    await autocannon({ url: `${site.baseUrl}${path}`, headers, connections, duration: 3 });
    const result = await autocannon({ url: `${site.baseUrl}${path}`, headers, connections, duration: seconds });
    busy.push({ endpoint: name, 'requests/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99, non2xx: result.non2xx, errors: result.errors });
  }
  const statuses = (await (await fetch(`${site.baseUrl}/api/calls/status?ids=${uploaded.join(',')}`, { headers })).json()) as { items: { status: string }[] };
  const stillProcessing = statuses.items.some((item) => item.status !== 'COMPLETED' && item.status !== 'FAILED');
  console.log(`SQLite, while processing two 30-minute recordings (${stillProcessing ? 'still processing at the end' : 'PROCESSING ENDED DURING THE RUN'}):`);
  console.table(busy);
  console.log(`while processing (p99 <= 50 ms on both endpoints): ${busy.every((row) => row['p99 ms'] <= 50 && row.non2xx === 0) && stillProcessing ? 'met' : 'NOT met'}`);
}

/** Seeds a database (SQLite in a temp DATA_DIR, or the given PostgreSQL one) and starts the built server on it. */
async function startSite(engine: 'sqlite' | 'postgres', databaseUrl?: string, accessAudit: 'on' | 'off' = 'on'): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), `callscope-bench-${engine}-`));
  const database = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const { statusIds, transcriptCallId } = await seedDatabase(dataDir, database);
  const port = await freeLoopbackPort();
  const server = spawn(process.execPath, ['dist/server.js'], {
    env: { ...process.env, ...database, DATA_DIR: dataDir, PORT: String(port), HTTPS_PORT: '0', HOST: '127.0.0.1', LOCAL_AUTH: 'true', API_KEY: apiKey, RATE_LIMIT_PER_MINUTE: '0', MODELS_AUTO_FETCH: 'false', ACCESS_AUDIT: accessAudit },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(server);
  server.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${baseUrl}/api/health`, headers);
  return { engine, accessAudit, baseUrl, statusIds, transcriptCallId, server, dataDir };
}

/**
 * Inserts the calls directly through the repository layer (all COMPLETED); returns 20 ids to poll,
 * and one more call stored with its transcript and analysis, as the pipeline stores them.
 */
async function seedDatabase(dataDir: string, database: { DATABASE_URL?: string }): Promise<{ statusIds: string[]; transcriptCallId: string }> {
  const services = await createServices(loadConfig({ ...database, DATA_DIR: dataDir, LOCAL_AUTH: 'true' }), { processMetrics: false });
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
  const transcriptCallId = await seedCall(services, 'bench-user');
  await services.close();
  return { statusIds: ids, transcriptCallId };
}


function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
