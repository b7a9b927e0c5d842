import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';
import { waitFor } from '../helpers/processingHarness.js';
import type { ServerProcess } from '../helpers/serverProcess.js';

const projectRoot = resolve(import.meta.dirname, '../..');

/**
 * Starts `callscope worker` (processing only) on `dataDir` with `env`, as an operator runs it on
 * another machine; resolves once its `/actuator/health` answers on NODE_PORT. Its own process
 * group, so a SIGKILL takes its child processes with it.
 */
export async function startWorker(dataDir: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', 'worker'], {
    cwd: projectRoot,
    env: {
      ...process.env, DATA_DIR: dataDir, NODE_PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json',
      WORKER_CONCURRENCY: '1', WORKER_THREADS: '1', SHUTDOWN_GRACE_SECONDS: '1', MODELS_AUTO_FETCH: 'false', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor('the worker to answer', async () => {
    if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}: ${output}`);
    return fetch(`${baseUrl}/actuator/health`).then((response) => response.ok, () => false);
  }, 30_000);
  return { child, baseUrl, output: () => output, exited };
}

/** The ids of the calls a node's log says it completed (one `call completed` line per call it finished). */
export function callsCompletedBy(node: ServerProcess): string[] {
  return node.output().split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    const entry = JSON.parse(line) as { msg?: string; callId?: string };
    return entry.msg === 'call completed' && entry.callId ? [entry.callId] : [];
  });
}
