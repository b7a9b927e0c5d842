import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { packageRoot } from '../packageRoot.js';
import { writeFileAtomically } from './durableFiles.js';
import { ManifestLockSchema, type ManifestLock } from './manifestSchema.js';

/** `models/manifest.lock.json` in the install folder, beside the manifest. */
export const defaultLockPath = join(packageRoot, 'models', 'manifest.lock.json');

/** The lock file; empty when there is none yet. A damaged lock file is an error, not silently dropped: it holds digests. */
export async function readManifestLock(path: string = defaultLockPath): Promise<ManifestLock> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, recorded: {}, installed: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}); repair or remove it`);
  }
  if (!Value.Check(ManifestLockSchema, parsed)) throw new Error(`${path} is not a valid model lock file; repair or remove it`);
  return parsed;
}

/** Reads the lock file, applies `change` to that fresh copy, and writes it back atomically. */
export async function updateManifestLock(path: string, change: (lock: ManifestLock) => void): Promise<void> {
  const lock = await readManifestLock(path);
  change(lock);
  await writeFileAtomically(path, `${JSON.stringify(lock, null, 2)}\n`);
}
