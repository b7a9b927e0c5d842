/**
 * `npm run bench:scale`: how processing grows with worker nodes on one PostgreSQL database and
 * one storage folder, on this machine, with the stub models.
 *
 * For 1, 2 and 4 `callscope worker` processes (each WORKER_CONCURRENCY=1, WORKER_THREADS=1) beside
 * one API node (EMBEDDED_WORKER=false), on a fresh database of a throwaway PostgreSQL cluster and
 * a fresh DATA_DIR: uploads a batch of real recordings (../shared/audio/pyannote-sample/sample.wav,
 * 30 s) over HTTP and times the batch from the first upload until every call is COMPLETED. Prints
 * calls per minute, the speed-up over one worker, and what the database did per call (its
 * transactions and rows written, from pg_stat_database), the figures for sizing a site.
 * Status polling on SQLite and PostgreSQL is measured by `npm run bench:api`.
 *
 * Options (env): BENCH_SCALE_CALLS (default 12), BENCH_SCALE_WORKERS (default "1,2,4").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freeLoopbackPort } from '../src/infrastructure/processes/freeLoopbackPort.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { createPostgresDatabaseOn, startThrowawayCluster } from '../test/helpers/postgres/throwawayCluster.js';
import { modelsWithSharedFallback, waitForAnswer } from './benchSupport.js';

const batch = Number(process.env.BENCH_SCALE_CALLS ?? 12);
const workerCounts = (process.env.BENCH_SCALE_WORKERS ?? '1,2,4').split(',').map(Number);
const recording = readFileSync(resolve(packageRoot, '../shared/audio/pyannote-sample/sample.wav'));
const headers = { 'x-local-user-id': 'bench-scale' };

const cluster = await startThrowawayCluster();
const rows = [];
try {
  for (const workers of workerCounts) rows.push(await runBatch(workers));
} finally {
  cluster.stop();
}
const single = rows[0]!['calls/min'];
console.log(`\nbench:scale — ${batch} calls of 30 s per run, Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)} at the end`);
console.table(rows.map((row) => ({ ...row, 'speed-up': Math.round((row['calls/min'] / single) * 100) / 100 })));

async function runBatch(workers: number) {
  const databaseUrl = await createPostgresDatabaseOn(cluster);
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-bench-scale-'));
  const site = { ...process.env, ...modelsWithSharedFallback(), DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', LOCAL_AUTH: 'true',
    RATE_LIMIT_PER_MINUTE: '0', MODELS_AUTO_FETCH: 'false', ANALYSER: 'builtin', LOG_LEVEL: 'warn', WORKER_CONCURRENCY: '1', WORKER_THREADS: '1' };
  const children: ChildProcess[] = [];
  try {
    const apiPort = await freeLoopbackPort();
    children.push(spawn(process.execPath, ['dist/server.js'], { env: { ...site, PORT: String(apiPort), HTTPS_PORT: '0', EMBEDDED_WORKER: 'false' }, stdio: ['ignore', 'ignore', 'inherit'] }));
    const api = `http://127.0.0.1:${apiPort}`;
    await waitForAnswer(`${api}/api/health`, headers);
    for (let index = 0; index < workers; index += 1) {
      const port = await freeLoopbackPort();
      children.push(spawn(process.execPath, ['bin/callscope.js', 'worker'], { env: { ...site, NODE_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] }));
      await waitForAnswer(`http://127.0.0.1:${port}/actuator/health`);
    }
    const before = await databaseActivity(databaseUrl);
    const startedAt = performance.now();
    const callIds: string[] = [];
    for (let index = 0; index < batch; index += 1) {
      const form = new FormData();
      form.append('file', new Blob([recording]), `call-${index}.wav`);
      const response = await fetch(`${api}/api/calls/analyze`, { method: 'POST', headers, body: form });
      if (response.status !== 202) throw new Error(`upload refused: ${response.status} ${await response.text()}`);
      callIds.push(((await response.json()) as { callId: string }).callId);
    }
    let statuses: string[] = [];
    for (;;) {
      const answer = (await (await fetch(`${api}/api/calls/status?ids=${callIds.join(',')}`, { headers })).json()) as { items: { status: string }[] };
      statuses = answer.items.map((item) => item.status);
      if (statuses.every((status) => status === 'COMPLETED' || status === 'FAILED')) break;
      await sleep(250);
    }
    const minutes = (performance.now() - startedAt) / 60_000;
    const after = await databaseActivity(databaseUrl);
    const completed = statuses.filter((status) => status === 'COMPLETED').length;
    return {
      workers, calls: batch, completed, 'wall s': Math.round(minutes * 600) / 10, 'calls/min': Math.round((completed / minutes) * 10) / 10,
      'transactions/call': Math.round((after.transactions - before.transactions) / batch),
      'rows written/call': Math.round((after.rowsWritten - before.rowsWritten) / batch),
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once('exit', done)))));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Committed transactions and rows inserted, updated or deleted in the database so far (statistics lag by up to half a second). */
async function databaseActivity(url: string): Promise<{ transactions: number; rowsWritten: number }> {
  await sleep(600);
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ transactions: string; written: string }>(`SELECT xact_commit AS transactions,
      tup_inserted + tup_updated + tup_deleted AS written FROM pg_stat_database WHERE datname = current_database()`);
    return { transactions: Number(rows[0]!.transactions), rowsWritten: Number(rows[0]!.written) };
  } finally {
    await client.end();
  }
}
