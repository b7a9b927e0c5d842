import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { afterEach } from 'vitest';
import { waitFor } from './processingHarness.js';
import { openDatabase } from '../../src/infrastructure/database/openDatabase.js';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';
import { testDatabaseEngine, createPostgresDatabase } from './testDatabase.js';

// The real service as an operator runs it (`node --import tsx src/server.ts`), in its own process
// group so that SIGKILL takes its ffmpeg and whisper-cli children with it, as a power cut or the
// service manager's kill would.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** What the server wrote to stdout and stderr (for failure messages). */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
const dataDirs: string[] = [];
/** On a PostgreSQL run: each site's database, by its DATA_DIR (every server started on that folder uses it). */
const siteDatabases = new Map<string, string>();

/**
 * The database settings of the site on `dataDir`: nothing on SQLite (the database file lives in
 * DATA_DIR); on a PostgreSQL run (TEST_DATABASE=postgres) a `DATABASE_URL` of its own, created on
 * first use, so a restarted server finds the calls of the one before.
 */
export async function siteEnvironment(dataDir: string): Promise<Record<string, string>> {
  if (testDatabaseEngine !== 'postgres') return {};
  let url = siteDatabases.get(dataDir);
  if (!url) {
    url = await createPostgresDatabase();
    siteDatabases.set(dataDir, url);
  }
  return { DATABASE_URL: url };
}

/** Kills every server a test left running and removes the test's DATA_DIRs (registered in each file that imports this module). */
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) killProcessGroup(child);
  children.clear();
  for (const dataDir of dataDirs.splice(0)) {
    rmSync(dataDir, { recursive: true, force: true });
    siteDatabases.delete(dataDir);
  }
});

/** A fresh DATA_DIR, removed after the test. */
export function newDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-server-'));
  dataDirs.push(dataDir);
  return dataDir;
}

/** SIGKILL to the server and everything it started (ffmpeg, whisper-cli). */
export function killProcessGroup(child: ChildProcess): void {
  if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
}

/** SIGKILL, then waits until the server is gone. */
export async function killServer(server: ServerProcess): Promise<void> {
  killProcessGroup(server.child);
  const exit = await server.exited;
  if (exit.signal !== 'SIGKILL') throw new Error(`the server ended with ${JSON.stringify(exit)} before it was killed: ${server.output()}`);
}


/** Starts the service on `dataDir` with `env` on top of a local-user test setup; resolves once it answers. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  // On another address than loopback, plain HTTP answers the probes only (the rest is sent to HTTPS).
  const host = env.HOST ?? '127.0.0.1';
  const start = async (port: number) => startNodeProcess(['src/server.ts'], {
    LOCAL_AUTH: 'true', DATA_DIR: dataDir, PORT: String(port), HOST: host, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0',
    ...(env.DATABASE_URL ? {} : await siteEnvironment(dataDir)), ...env,
  }, `http://${host}:${port}`, host === '127.0.0.1' ? '/api/health' : '/actuator/health');
  // A test may choose the port (to restart a service where its PUBLIC_URL points).
  return env.PORT ? start(Number(env.PORT)) : onAFreePort(start);
}

/** Attempts at a port freeLoopbackPort found free before a start gives up on "already in use". */
const PORT_ATTEMPTS = 3;

/**
 * Starts a node on a port freeLoopbackPort finds free, again on another one when the node
 * finds it taken (exit 78, "already in use"): between the probe and the node's listen, any
 * process may take the port, such as an outgoing connection of a test running beside this one
 * (the kernel hands out ephemeral ports from the same range). Seen once in a CI rehearsal.
 */
export async function onAFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freeLoopbackPort());
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !/exited with 78: .*already in use/s.test((error as Error).message)) throw error;
    }
  }
}

/**
 * Starts `callscope worker` (processing only) on `dataDir` with `env`, as an operator runs it on
 * another machine; resolves once its `/actuator/health` answers on NODE_PORT.
 */
export async function startWorker(dataDir: string, env: Record<string, string>): Promise<ServerProcess> {
  return onAFreePort((port) => startNodeProcess(['src/cli/callscope.ts', 'worker'], {
    DATA_DIR: dataDir, NODE_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env,
  }, `http://127.0.0.1:${port}`, '/actuator/health'));
}

/** A node process that ended on its own (one that could not start): its exit code and what it wrote, stdout and stderr apart. */
export interface EndedNodeProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the service (`src/server.ts`, as `npm start` does) or `callscope worker` on `dataDir` with
 * `env` and waits until it exits by itself: for a node that is refused at start.
 */
export async function runNodeUntilExit(role: 'serve' | 'worker', dataDir: string, env: Record<string, string>): Promise<EndedNodeProcess> {
  const args = role === 'serve' ? ['src/server.ts'] : ['src/cli/callscope.ts', 'worker'];
  const node = spawnNodeProcess(args, { LOCAL_AUTH: 'true', DATA_DIR: dataDir, HOST: '127.0.0.1', ...(env.DATABASE_URL ? {} : await siteEnvironment(dataDir)), ...env });
  const [{ code }] = await Promise.all([node.exited, node.closed]);
  return { code, stdout: node.stdout(), stderr: node.stderr() };
}

/**
 * Runs a node of the service (`node --import tsx <args>`) with the test defaults under `env`, in
 * its own process group; resolves once `healthPath` answers.
 */
async function startNodeProcess(args: string[], env: Record<string, string>, baseUrl: string, healthPath: string): Promise<ServerProcess> {
  const { child, output, exited } = spawnNodeProcess(args, env);
  await waitFor(`${args.join(' ')} to answer`, async () => {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${output()}`);
    return fetch(`${baseUrl}${healthPath}`).then((response) => response.ok, () => false);
  }, 30_000);
  return { child, baseUrl, output, exited };
}

/** Spawns `node --import tsx <args>` with the test defaults under `env`, in its own process group, and collects what it writes. */
function spawnNodeProcess(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: projectRoot,
    env: {
      ...process.env, WORKER_CONCURRENCY: '1', WORKER_THREADS: '1', SHUTDOWN_GRACE_SECONDS: '1',
      // No download at start unless a test asks for one (and then from its own mirror on loopback).
      MODELS_AUTO_FETCH: 'false',
      // HTTPS (TLS=auto) on a port of its own: servers of tests running side by side never share 8443.
      HTTPS_PORT: '0', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a kill can take its child processes with it.
    detached: true,
  });
  children.add(child);
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); stdout += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); stderr += chunk.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  // After 'exit' and once its output pipes are closed: everything it wrote has been read.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, exited, closed, output: () => output, stdout: () => stdout, stderr: () => stderr };
}

/** Waits until the server has logged that it holds at a `FAULT_HOLD_AT` point. */
export function waitForHold(server: ServerProcess, point: string, timeoutMs = 60_000): Promise<true> {
  return waitFor(`the server to hold at ${point}`, () => {
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`);
    return server.output().includes(`"holdPoint":"${point}"`) || undefined;
  }, timeoutMs);
}

/** A request as the local user `user` (LOCAL_AUTH). */
/**
 * How often the service's engine has looked at the queue for calls to take (the metric
 * callscope_queue_looks_total on /actuator/prometheus): the looks with `outcome`, or all of them.
 */
export async function queueLooks(server: ServerProcess, outcome?: 'claimed' | 'nothing_claimed' | 'waiting_for_models'): Promise<number> {
  const metrics = await (await fetch(`${server.baseUrl}/actuator/prometheus`)).text();
  let looks = 0;
  for (const [, label, count] of metrics.matchAll(/^callscope_queue_looks_total\{outcome="([^"]+)"\} (\d+)$/gm)) {
    if (outcome === undefined || label === outcome) looks += Number(count);
  }
  return looks;
}

export function asUser(server: ServerProcess, user: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { ...init, headers: { 'x-local-user-id': user, ...(init.headers as Record<string, string> | undefined) } });
}

/**
 * Reads the service's database directly, as an operator inspecting it would: the SQLite file in
 * `dataDir`, or on a PostgreSQL run the database of that site (see {@link siteEnvironment}).
 */
export async function query<T>(dataDir: string, statement: SQL): Promise<T[]> {
  const database = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL: siteDatabases.get(dataDir) }, { applyMigrations: false });
  try {
    return await database.sql.all<T>(statement);
  } finally {
    await database.close();
  }
}

/** The call's processing events in order, as `[stage, outcome]`. */
export async function stageOutcomes(dataDir: string, callId: string): Promise<[string, string][]> {
  const events = await query<{ stage: string; outcome: string }>(dataDir, sql`SELECT stage, outcome FROM processing_events WHERE call_id = ${callId} ORDER BY id`);
  return events.map((event) => [event.stage, event.outcome]);
}

/** Every file under `DATA_DIR/objects` and `DATA_DIR/tmp`, relative to DATA_DIR, sorted. */
export function storedFiles(dataDir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(dataDir, path));
    }
  };
  walk(join(dataDir, 'objects'));
  walk(join(dataDir, 'tmp'));
  return files.sort();
}

/** The files the database names: calls' original audio and their stored documents. */
export async function filesNamedByRows(dataDir: string): Promise<string[]> {
  const rows = await query<{ key: string }>(dataDir, sql`
    SELECT audio_object_key AS key FROM calls WHERE audio_object_key IS NOT NULL
    UNION SELECT object_key AS key FROM call_artifacts`);
  return rows.map((row) => join('objects', row.key)).sort();
}
