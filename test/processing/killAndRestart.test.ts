import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import type { CallStatus } from '../../src/domain/calls/callTypes.js';
import { waitFor } from '../helpers/processingHarness.js';
import { pcmWav, sine } from '../helpers/pcmWav.js';
import { uploadForm } from '../helpers/uploads.js';

// Needs the bundled ffmpeg: the real server runs the real production pipeline (clean-up stage).

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const shutdownGraceSeconds = 1;
/** Long enough that clean-up takes a few seconds (ffmpeg's loudnorm runs at about 60× real time). */
const recording = pcmWav(sine(440, 180, 0.5));

interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** What the server wrote to stdout and stderr (for failure messages). */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
const dataDirs: string[] = [];
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) killProcessGroup(child);
  children.clear();
  for (const dataDir of dataDirs.splice(0)) rmSync(dataDir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-server-'));
  dataDirs.push(dataDir);
  return dataDir;
}

/**
 * SIGKILL to the server and everything it started (its ffmpeg), as when the machine or the
 * service manager kills the whole service.
 */
function killProcessGroup(child: ChildProcess): void {
  if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `node --import tsx src/server.ts` on `dataDir`, as an operator starts it; resolves once it answers. */
async function startServer(dataDir: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env, LOCAL_AUTH: 'true', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
      WORKER_CONCURRENCY: '1', WORKER_THREADS: '1', SHUTDOWN_GRACE_SECONDS: String(shutdownGraceSeconds), RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a kill can take its child processes with it.
    detached: true,
  });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`the server to answer (output: ${output})`, async () => {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output}`);
    return fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false);
  }, 20_000);
  return { child, baseUrl, output: () => output, exited };
}

function asAlice(server: ServerProcess, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { ...init, headers: { 'x-local-user-id': 'alice' } });
}

async function upload(server: ServerProcess): Promise<string> {
  const response = await asAlice(server, '/api/calls/analyze', { method: 'POST', body: uploadForm(recording, 'long-call.wav') });
  expect(response.status).toBe(202);
  return ((await response.json()) as { callId: string }).callId;
}

async function statusOf(server: ServerProcess, callId: string): Promise<CallStatus | undefined> {
  const response = await asAlice(server, `/api/calls/status?ids=${callId}`);
  return ((await response.json()) as { items: { status: CallStatus }[] }).items[0]?.status;
}

/** Reads the service's database directly, as an operator inspecting it would. */
function query<T>(dataDir: string, sql: string, ...parameters: unknown[]): T[] {
  const database = new Database(join(dataDir, 'callscope.db'));
  try {
    return database.prepare(sql).all(...parameters) as T[];
  } finally {
    database.close();
  }
}

function stageOutcomes(dataDir: string, callId: string): [string, string][] {
  return query<{ stage: string; outcome: string }>(dataDir, 'SELECT stage, outcome FROM processing_events WHERE call_id = ? ORDER BY id', callId)
    .map((event) => [event.stage, event.outcome]);
}

/** Waits until the call is TRANSCRIBING through the API and its clean-up stage has started. */
async function waitForCleanup(server: ServerProcess, dataDir: string, callId: string): Promise<void> {
  await waitFor('the call to be TRANSCRIBING', async () => (await statusOf(server, callId)) === 'TRANSCRIBING', 20_000);
  await waitFor('the clean-up stage to run', () => stageOutcomes(dataDir, callId).some(([stage, outcome]) => stage === 'cleanup' && outcome === 'RUNNING'));
}

describe('the real server, killed and restarted (needs ffmpeg)', () => {
  test('a call whose server is killed with SIGKILL during clean-up is processed to the end by the next server on the same DATA_DIR', async () => {
    const dataDir = newDataDir();
    const first = await startServer(dataDir);
    const callId = await upload(first);
    await waitForCleanup(first, dataDir, callId);

    killProcessGroup(first.child);
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(stageOutcomes(dataDir, callId)).toEqual([['cleanup', 'RUNNING']]);

    const second = await startServer(dataDir);
    const terminal = await waitFor('the call to end', async () => {
      const status = await statusOf(second, callId);
      return status === 'COMPLETED' || status === 'FAILED' ? status : undefined;
    }, 40_000);

    const events = stageOutcomes(dataDir, callId);
    expect(events.slice(0, 2)).toEqual([['cleanup', 'INTERRUPTED'], ['cleanup', 'OK']]);
    const detail = (await (await asAlice(second, `/api/calls/${callId}`)).json()) as { errorReason: string | null };
    // Without models installed (this server has none configured), a call fails after a
    // successful clean-up, saying what is not installed.
    if (terminal === 'FAILED') expect(detail.errorReason).toMatch(/is not installed/);
    else expect(detail.errorReason).toBeNull();
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });

  test('SIGTERM during clean-up exits 0 within SHUTDOWN_GRACE_SECONDS, leaving the call queued for the next start or finished', async () => {
    const dataDir = newDataDir();
    const server = await startServer(dataDir);
    const callId = await upload(server);
    await waitForCleanup(server, dataDir, callId);

    server.child.kill('SIGTERM');
    const exit = await Promise.race([server.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), (shutdownGraceSeconds + 5) * 1000))]);

    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    const [call] = query<{ status: string; lease: string | null }>(dataDir, 'SELECT status, worker_lease AS lease FROM calls WHERE id = ?', callId);
    expect(['QUEUED', 'COMPLETED', 'FAILED']).toContain(call?.status);
    expect(call?.lease).toBeNull();
    expect(stageOutcomes(dataDir, callId).map(([, outcome]) => outcome)).not.toContain('RUNNING');
  });
});
