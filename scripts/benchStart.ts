/**
 * `npm run bench:start`: how long until a freshly started service answers `GET /api/health`, for
 * - `node dist/server.js`: the built server, the floor;
 * - `npm start`: what an operator types (npm, then scripts/start.mjs checking the build, then the server);
 * - `npm run build && node dist/server.js`: what `npm start` did before, for comparison (one run).
 * Target: `npm start` within 1.5× of the built server. Prints the median and range of `RUNS`
 * starts each (default 5), each on a fresh DATA_DIR, with no model download (MODELS_AUTO_FETCH=false).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { freeLoopbackPort } from '../src/infrastructure/processes/freeLoopbackPort.js';

const runs = Number(process.env.RUNS ?? 5);
/** Longest a start may take before the bench gives up on it, ms. */
const startTimeoutMs = 60_000;


/** Starts `command`, polls /api/health every 10 ms, stops the process group; the time to the first 200, ms. */
async function timeToHealthy(command: string, args: string[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callscope-bench-start-'));
  const port = await freeLoopbackPort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: packageRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HTTPS_PORT: '0', HOST: '127.0.0.1', LOCAL_AUTH: 'true', LOG_LEVEL: 'warn', MODELS_AUTO_FETCH: 'false' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > startTimeoutMs) throw new Error(`${command} ${args.join(' ')} did not answer within ${startTimeoutMs} ms`);
      const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then((response) => response.ok, () => false);
      if (healthy) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(label: string, command: string, args: string[], times: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < times; run++) samples.push(await timeToHealthy(command, args));
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(`${label.padEnd(46)} median ${(median / 1000).toFixed(2)} s  (min ${(samples[0]! / 1000).toFixed(2)}, max ${(samples.at(-1)! / 1000).toFixed(2)}, ${times} run${times === 1 ? '' : 's'})`);
  return median;
}

// A current build, so that `npm start` measures its check, not a build.
const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: packageRoot, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

console.log(`Time from start to the first answer of GET /api/health (${runs} starts each, fresh DATA_DIR):`);
const built = await measure('node dist/server.js', process.execPath, ['dist/server.js'], runs);
const npmStart = await measure('npm start', 'npm', ['start', '--silent'], runs);
await measure('npm run build && node dist/server.js (before)', 'sh', ['-c', 'npm run build --silent && exec node dist/server.js'], 1);
const ratio = npmStart / built;
console.log(`npm start / built server: ${ratio.toFixed(2)}× (target ≤ 1.5×): ${ratio <= 1.5 ? 'met' : 'NOT met'}`);
