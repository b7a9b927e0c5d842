import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

/*
 * An npm older than package.json's engines.npm (Node 20's bundled npm 10) ignores `allowScripts`
 * and runs onnxruntime-node's install script, which downloads CUDA libraries. `npm ci` must
 * refuse such an npm before it installs anything, and `.ci/run` upgrades it first.
 */

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { engines: Record<string, string> };
const scratchFolders: string[] = [];

afterEach(() => {
  for (const folder of scratchFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratchFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'callscope-npm-version-'));
  scratchFolders.push(folder);
  return folder;
}

test('npm ci refuses an npm older than engines.npm before it installs anything, and its error says what to run', () => {
  // The npm running this test plays the old one: the copy of the project asks for a newer npm than it is.
  const runningNpm = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
  const project = scratchFolder();
  for (const file of ['package-lock.json', '.npmrc']) if (existsSync(join(projectRoot, file))) copyFileSync(join(projectRoot, file), join(project, file));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ ...packageJson, engines: { ...packageJson.engines, npm: `>${runningNpm}` } }, null, 2));

  // --dry-run and --ignore-scripts: were npm to go ahead, it would still install and run nothing.
  const install = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8' });
  expect(install.status, install.stderr).not.toBe(0);
  expect(install.stderr).toContain('EBADENGINE');
  expect(install.stderr).toContain('npm install -g npm@11');
  expect(install.stdout).not.toMatch(/^add /m);
  expect(existsSync(join(project, 'node_modules'))).toBe(false);
}, 60_000);

/** Runs `.ci/run` with stand-ins for npm (reporting `npmVersion`) and apt-get that record their arguments; the npm commands, in order. */
function npmCommandsOfCiRun(npmVersion: string): string[] {
  const bin = scratchFolder();
  const record = join(bin, 'commands.log');
  for (const tool of ['npm', 'apt-get']) {
    writeFileSync(join(bin, tool), [
      '#!/bin/sh',
      `echo "${tool} $*" >> '${record}'`,
      `if [ "${tool} $1" = "npm --version" ]; then echo '${npmVersion}'; fi`,
      '',
    ].join('\n'));
    chmodSync(join(bin, tool), 0o755);
  }
  const run = spawnSync(join(projectRoot, '.ci/run'), [], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` } });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  return readFileSync(record, 'utf8').split('\n').filter((line) => line.startsWith('npm '));
}

test('.ci/run upgrades an npm older than engines.npm to npm 11 (npm 12 needs Node 22) before npm ci', () => {
  expect(packageJson.engines.npm).toBe('>=11.16');
  expect(npmCommandsOfCiRun('10.8.2')).toEqual([
    'npm --version', 'npm install -g npm@11 --no-audit --no-fund', 'npm ci --no-audit --no-fund', 'npm test',
  ]);
});

test('.ci/run leaves an npm of 11.16 or newer as it is', () => {
  for (const version of ['11.16.0', '11.21.2', '12.2.2']) {
    expect(npmCommandsOfCiRun(version)).toEqual(['npm --version', 'npm ci --no-audit --no-fund', 'npm test']);
  }
});
