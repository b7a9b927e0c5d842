import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setupLinkFileName } from '../../src/admin/credentials/AdminSetupLink.js';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';

let dataDir: string;
let server: ChildProcess;
let stdout = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callscope-start-'));
  server = spawn(process.execPath, ['--import', 'tsx', join(packageRoot, 'src/server.ts')], {
    cwd: packageRoot,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOCAL_AUTH: 'true', LOG_LEVEL: 'info', WORKER_THREADS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  const started = Date.now();
  while (!/open this link to set the admin password[\s\S]*\n\n/.test(stdout)) {
    if (server.exitCode !== null || Date.now() - started > 25_000) throw new Error(`server did not print the setup link:\n${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 30_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test('the start prints the setup link once, straight to stdout, never in a log line', async () => {
  const link = readFileSync(join(dataDir, setupLinkFileName), 'utf8').trim();
  const token = new URL(link).searchParams.get('token')!;
  const lines = stdout.split('\n');
  expect(lines.filter((line) => line.includes(token))).toEqual([`  ${link}`]);
  expect(lines.some((line) => line.includes('open this link to set the admin password'))).toBe(true);
  for (const line of lines.filter((candidate) => candidate.startsWith('{'))) expect(line).not.toContain(token);

  const setup = await fetch(`${new URL(link).origin}/admin/api/setup`);
  expect(await setup.json()).toEqual({ setupRequired: true });
});
