/**
 * Whether the built server (`dist/server.js`) is older than what it is built from: every
 * `src/**\/*.ts` and the tsconfig files. Plain Node (no TypeScript): `npm start` asks it before
 * anything is built. One walk of `src/` (about 260 files) takes a few milliseconds.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Inputs of the TypeScript build besides `src/**\/*.ts`. */
const buildConfigFiles = ['tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time (ms) of the build's inputs under `root`. */
export function newestSourceTime(root) {
  let newest = 0;
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(root, 'src'));
  for (const name of buildConfigFiles) {
    const file = join(root, name);
    if (existsSync(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** Why the build under `root` must be made again, or undefined when it is current. */
export function staleBuildReason(root) {
  const builtServer = join(root, 'dist', 'server.js');
  if (!existsSync(builtServer)) return 'no build yet';
  if (newestSourceTime(root) > statSync(builtServer).mtimeMs) return 'sources changed since the last build';
  return undefined;
}
