import type { Config } from '../../config/configSchema.js';
import { inspectSlot, type ModelSlotStatus } from './inspectSlot.js';
import { defaultLockPath, readManifestLock } from './manifestLock.js';
import type { ModelManifest } from './manifestSchema.js';
import { digestCacheFor, type ModelDigestCache } from './ModelDigestCache.js';
import { configuredModelPath, modelSlots, type ModelConfigKey } from './modelSlots.js';

// The inventory's whole surface in one module (the admin page and the CLI import from here).
export type { ModelCheck } from './judgeModelFile.js';
export type { ManifestEntrySummary, ModelSlotStatus } from './inspectSlot.js';
export { fetchModels, defaultFetchSlots, type FetchModelsOptions, type ModelFetchResult } from './fetchModels.js';
export { importModels, type ImportModelsOptions, type ModelImportResult } from './importModels.js';

export interface InspectModelsOptions {
  /** Where digests are cached. Defaults to the process's cache for `DATA_DIR` (`<DATA_DIR>/models-verified.json`). */
  digests?: ModelDigestCache;
  /** The lock file written by fetch and import. Defaults to `models/manifest.lock.json` in the install folder. */
  lockPath?: string;
}

/**
 * The state of every model slot, in the order of `modelSlots`. Hashes each configured file
 * unless its digest is cached for its current size and mtime, so only the first call after a
 * file changes reads it (1–2 s for 500 MB).
 */
export async function inspectModels(
  config: Pick<Config, ModelConfigKey | 'DATA_DIR'>,
  manifest: ModelManifest,
  options: InspectModelsOptions = {},
): Promise<ModelSlotStatus[]> {
  const digests = options.digests ?? digestCacheFor(config.DATA_DIR);
  const lock = await readManifestLock(options.lockPath ?? defaultLockPath);
  const statuses: ModelSlotStatus[] = [];
  // One slot after another: hashing two large files at once only makes the disk seek.
  for (const info of modelSlots) statuses.push(await inspectSlot(info, configuredModelPath(config, info.slot), manifest, lock, digests));
  return statuses;
}
