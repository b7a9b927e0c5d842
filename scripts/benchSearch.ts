/**
 * `npm run bench:search`: `GET /api/search` over 10,000 completed calls (BENCH_CALLS), on SQLite
 * and, when PostgreSQL is installed, on a throwaway cluster (BENCH_POSTGRES=0 skips it).
 *
 * Seeds each database in bulk through the repositories (scripts/evaluation/searchCorpus.ts: 30-50
 * segments of everyday vocabulary per call, a title, summary bullets, 1-3 action items; five
 * users, `bench-user` owning 80 % of the calls), starts the server on it as its own process
 * (from source, local-user mode, API key, rate limit off), then for each kind of query (rare
 * word, common word, phrase, prefix, two words, no hit) sends BENCH_REQUESTS requests from
 * BENCH_CLIENTS concurrent clients as `bench-user`, cycling through a few queries of the kind,
 * after a warm-up. Prints p50/p95/p99/max per kind and engine. Target: p99 < 50 ms on SQLite.
 *
 * Options (env): BENCH_CALLS (default 10000), BENCH_REQUESTS (default 400 per kind),
 * BENCH_CLIENTS (default 4), BENCH_POSTGRES (default 1).
 */
import { sql } from 'drizzle-orm';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/loadConfig.js';
import { createServices } from '../src/createServices.js';
import type { NewActionItemRecord } from '../src/domain/actions/ActionItemRepository.js';
import type { NewCallRecord } from '../src/domain/calls/callTypes.js';
import { searchDocumentsOf } from '../src/domain/search/searchDocumentsOf.js';
import { SearchIndex } from '../src/domain/search/SearchIndex.js';
import { insertInto } from '../src/infrastructure/database/sqlFragments.js';
import { actionItems, calls } from '../src/infrastructure/database/tables.js';
import { freeLoopbackPort } from '../src/infrastructure/processes/freeLoopbackPort.js';
import { createPostgresDatabaseOn, postgresBinDir, startThrowawayCluster, type ThrowawayCluster } from '../test/helpers/postgres/throwawayCluster.js';
import { waitForAnswer } from './benchSupport.js';
import { corpusGenerator, rareWords } from './evaluation/searchCorpus.js';

const callCount = Number(process.env.BENCH_CALLS ?? 10_000);
const requestsPerKind = Number(process.env.BENCH_REQUESTS ?? 400);
const clients = Number(process.env.BENCH_CLIENTS ?? 4);
const withPostgres = process.env.BENCH_POSTGRES !== '0' && postgresBinDir() !== undefined;
const apiKey = 'bench-api-key-0123456789';
const headers = { 'x-local-user-id': 'bench-user', 'x-api-key': apiKey };
/** Users besides bench-user; together they own a fifth of the calls. */
const otherUsers = ['bench-other-1', 'bench-other-2', 'bench-other-3', 'bench-other-4'];
/** Calls inserted per statement. */
const batchSize = 250;

const queryKinds: Record<string, string[]> = {
  'rare word': rareWords.slice(0, 8),
  'common word': ['the', 'you', 'and', 'order', 'delivery', 'okay'],
  'phrase': ['"thank you"', '"next week"', '"call you back"', '"send the invoice"', '"the delivery date"'],
  'prefix': ['deliv*', 'sched*', 'invo*', 'conf*', 'pa*'],
  'two words': ['invoice tuesday', 'contract renewal', 'refund card', 'meeting friday', 'truck driver'],
  'no hit': ['zyzzyva', 'quetzalcoatl', '"tuesday aardvark invoice"', 'xylograph*'],
};

const started: ChildProcess[] = [];
let cluster: ThrowawayCluster | undefined;
try {
  const results: Record<string, string | number>[] = [];
  results.push(...await benchEngine('sqlite'));
  if (withPostgres) {
    cluster = await startThrowawayCluster();
    results.push(...await benchEngine('postgres', await createPostgresDatabaseOn(cluster)));
  }
  console.log(`\nbench:search — ${callCount} completed calls (80 % of them bench-user's), ${clients} concurrent clients, ${requestsPerKind} requests per kind, `
    + `Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)}`);
  console.table(results);
  for (const engine of ['sqlite', 'postgres']) {
    const rows = results.filter((row) => row.engine === engine && row.kind !== 'all');
    if (rows.length === 0) continue;
    const worst = Math.max(...rows.map((row) => row['p99 ms'] as number));
    const all = results.find((row) => row.engine === engine && row.kind === 'all')!;
    console.log(`${engine}: p99 over all queries ${all['p99 ms']} ms, worst kind's p99 ${worst} ms${engine === 'sqlite' ? ` (target < 50 ms: ${worst < 50 ? 'met' : 'NOT met'})` : ''}`);
  }
} finally {
  for (const child of started) child.kill('SIGTERM');
  await sleep(500);
  cluster?.stop();
}

async function benchEngine(engine: 'sqlite' | 'postgres', databaseUrl?: string): Promise<Record<string, string | number>[]> {
  const dataDir = mkdtempSync(join(tmpdir(), `callscope-bench-search-${engine}-`));
  const database = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const seeding = performance.now();
  await seedDatabase(dataDir, database, engine);
  console.log(`${engine}: seeded ${callCount} calls in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const port = await freeLoopbackPort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env, ...database, DATA_DIR: dataDir, PORT: String(port), HTTPS_PORT: '0', HOST: '127.0.0.1', LOCAL_AUTH: 'true', API_KEY: apiKey,
      RATE_LIMIT_PER_MINUTE: '0', MODELS_AUTO_FETCH: 'false', EMBEDDED_WORKER: 'false', LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(server);
  server.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${baseUrl}/api/health`, headers);

  const rows: Record<string, string | number>[] = [];
  const everything: number[] = [];
  for (const [kind, queries] of Object.entries(queryKinds)) {
    await load(baseUrl, queries, Math.min(50, requestsPerKind));
    const { latencies, hits } = await load(baseUrl, queries, requestsPerKind);
    everything.push(...latencies);
    rows.push({ engine, kind, ...summary(latencies), 'calls found (first query)': hits });
  }
  rows.push({ engine, kind: 'all', ...summary(everything), 'calls found (first query)': '' });
  server.kill('SIGTERM');
  return rows;
}

/** `count` requests from `clients` concurrent loops, cycling through `queries`; latencies in ms. */
async function load(baseUrl: string, queries: string[], count: number): Promise<{ latencies: number[]; hits: string }> {
  const latencies: number[] = [];
  let next = 0;
  let hits = '';
  const client = async () => {
    while (next < count) {
      const index = next++;
      const q = queries[index % queries.length]!;
      const sent = performance.now();
      const response = await fetch(`${baseUrl}/api/search?q=${encodeURIComponent(q)}&limit=20`, { headers });
      const body = (await response.json()) as { items?: unknown[]; nextCursor?: string };
      latencies.push(performance.now() - sent);
      if (!response.ok) throw new Error(`${q}: ${response.status} ${JSON.stringify(body)}`);
      if (index === 0) hits = `${body.items?.length ?? 0}${body.nextCursor ? '+' : ''} for ${q}`;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { latencies, hits };
}

function summary(latencies: number[]): Record<string, number> {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (fraction: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]! * 10) / 10;
  return { requests: sorted.length, 'p50 ms': at(0.5), 'p95 ms': at(0.95), 'p99 ms': at(0.99), 'max ms': at(1) };
}

/** Users, calls (all COMPLETED), action items and the search rows, in batches in one transaction (on PostgreSQL then VACUUM ANALYZE). */
async function seedDatabase(dataDir: string, database: { DATABASE_URL?: string }, engine: 'sqlite' | 'postgres'): Promise<void> {
  const services = await createServices(loadConfig({ ...database, DATA_DIR: dataDir, LOCAL_AUTH: 'true' }), { processMetrics: false });
  try {
    const now = Date.now();
    const main = await services.users.findOrCreate({ externalUserId: 'local:bench-user' }, now);
    const others = await Promise.all(otherUsers.map((name) => services.users.findOrCreate({ externalUserId: `local:${name}` }, now)));
    const corpus = corpusGenerator(20, callCount);
    const start = now - callCount * 60_000;
    await services.database.sql.transaction(async (tx) => {
      const index = new SearchIndex(tx);
      for (let first = 0; first < callCount; first += batchSize) {
        const batch = Array.from({ length: Math.min(batchSize, callCount - first) }, (_, offset) => {
          const position = first + offset;
          const content = corpus.next();
          const owner = position % 5 === 4 ? others[Math.floor(position / 5) % others.length]! : main;
          const createdAt = start + position * 60_000;
          const call: NewCallRecord = {
            id: randomUUID(), userId: owner.id, title: content.title, contactName: content.contactName, direction: position % 2 ? 'INCOMING' : 'OUTGOING',
            status: 'COMPLETED', durationSeconds: Math.round(content.segments.length * 6.5), audioFormat: 'm4a', audioSizeBytes: 1_000_000,
            audioObjectKey: null, createdAt, updatedAt: createdAt,
          };
          const items: NewActionItemRecord[] = content.actionItems.map((item) => ({
            id: randomUUID(), callId: call.id, userId: owner.id, title: item.title, description: item.description, status: 'PENDING',
            sourceSegmentIds: '[]', createdAt, updatedAt: createdAt,
          }));
          return { call, items, content };
        });
        const inserted = await tx.all<{ id: string; seq: number }>(sql`${insertInto(calls, batch.map((entry) => entry.call))} RETURNING id, seq`);
        const seqOf = new Map(inserted.map((row) => [row.id, row.seq]));
        await tx.run(insertInto(actionItems, batch.flatMap((entry) => entry.items)));
        for (const { call, items, content } of batch) {
          const transcript = { segments: content.segments.map((segment, position) => ({ ...segment, id: `seg_${String(position + 1).padStart(4, '0')}` })) };
          const analysis = { schemaVersion: 2, oneLineSummary: content.oneLineSummary, executiveSummaryBullets: content.bullets.map((text) => ({ text })) };
          await index.replaceCall(searchDocumentsOf({ id: call.id, seq: seqOf.get(call.id)!, userId: call.userId, title: call.title }, transcript, analysis, items));
        }
      }
    });
    // Autovacuum does this shortly after a bulk load (statistics, and the GIN index's pending list merged); the bench measures that steady state.
    if (engine === 'postgres') await services.database.sql.run(sql`VACUUM ANALYZE`);
  } finally {
    await services.close();
  }
}
