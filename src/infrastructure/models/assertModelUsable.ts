import { resolve } from 'node:path';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { judgeModelFile } from './judgeModelFile.js';
import { installedModelManifest } from './loadModelManifest.js';
import { defaultLockPath, readManifestLock } from './manifestLock.js';
import type { ManifestLock, ModelManifest } from './manifestSchema.js';
import { digestCacheFor, type ModelDigestCache } from './ModelDigestCache.js';
import { modelSlotLabels, slotInfo } from './modelSlots.js';
import { modelDisplayName } from './resolveModelPath.js';

export interface ModelUsableOptions {
  /** Defaults to the installed `models/manifest.json`. */
  manifest?: ModelManifest;
  /** Defaults to `models/manifest.lock.json` in the install folder. */
  lockPath?: string;
  /** Defaults to the process's shared in-memory cache (what readiness and status hashed is reused). */
  digests?: ModelDigestCache;
}

/**
 * Refuses a model file that failed its integrity check (`checksum_mismatch`: it claims to be a
 * manifest model but its digest is not that model's) with `StageFailure('unavailable')`, before
 * a stage loads it. Hashes the file when its digest is not cached yet (once per process and
 * file version). A missing file passes: each stage reports that in its own words.
 */
export async function assertModelUsable(path: string, options: ModelUsableOptions = {}): Promise<void> {
  const absolute = resolve(path);
  const digest = await (options.digests ?? digestCacheFor()).digest(absolute);
  if (!digest) return;
  const manifest = options.manifest ?? (await installedModelManifest());
  const judgement = judgeModelFile({ path: absolute, sha256: digest.sha256 }, manifest, await lockOrEmpty(options.lockPath ?? defaultLockPath));
  if (judgement.check !== 'checksum_mismatch') return;
  // A mismatch is judged against the entry the file claims to be: its slot is known.
  const slot = judgement.slot!;
  throw new StageFailure(
    'unavailable',
    `The ${modelSlotLabels[slot]} at ${slotInfo(slot).configKey} (now ${modelDisplayName(absolute)}) failed its integrity check: it is not the published `
      + `${judgement.entry?.name} (damaged or truncated?); fetch or import it again (callscope models fetch --slot ${slot}, or callscope models import <folder>)`,
  );
}

/** A damaged lock file must not stop every call: without it, only install records go unused. */
async function lockOrEmpty(lockPath: string): Promise<ManifestLock> {
  return readManifestLock(lockPath).catch(() => ({ version: 1 as const, recorded: {}, installed: {} }));
}
