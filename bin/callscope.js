#!/usr/bin/env node
// Entry of the `callscope` command: runs the compiled CLI (built by `npm ci` via the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli/callscope.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  console.error('callscope is not built yet: run `npm run build` (or `npm ci`) in the Callscope folder first.');
  process.exit(1);
}
await import(cli.href);
