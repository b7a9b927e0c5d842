#!/usr/bin/env node
/**
 * `npm start`: runs the built server (`dist/server.js`), building it first only when the build is
 * missing or a TypeScript source (or a tsconfig) is newer than it. A start with an up-to-date
 * build costs one walk of `src/` (a few milliseconds) on top of `node dist/server.js`; the old
 * `npm run build && node dist/server.js` spent about 12 s in tsc on every start.
 *
 * Plain Node, no TypeScript: it must run before anything is built. The server runs in this
 * process (imported, not spawned), so signals reach it directly and there is one process to stop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleBuildReason } from './buildFreshness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtServer = join(root, 'dist', 'server.js');

function build(reason) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    // An install without devDependencies (npm ci --omit=dev) cannot build; a build it has still runs.
    if (existsSync(builtServer)) {
      process.stderr.write(`start: ${reason}, but TypeScript is not installed (npm ci --omit=dev?): running the existing build\n`);
      return;
    }
    process.stderr.write('start: there is no build (dist/) and TypeScript is not installed: run `npm ci` (with devDependencies) first\n');
    process.exit(1);
  }
  process.stderr.write(`start: building the server (${reason})…\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) {
    process.stderr.write('start: the TypeScript build failed; see the errors above\n');
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`start: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const reason = staleBuildReason(root);
if (reason) build(reason);
await import(pathToFileURL(builtServer).href);
