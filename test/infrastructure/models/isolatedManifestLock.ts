import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ManifestLockModule from '../../../src/infrastructure/models/manifestLock.js';

/**
 * The manifestLock module with `defaultLockPath` moved to a fresh temp folder. ModelDownloads
 * (and so the admin route and prepareModelsAtStart) calls fetchModels without a `lockPath`, which
 * would record the test's temp model paths in the repository's `models/manifest.lock.json`. Use as
 *
 *   vi.mock('../../../src/infrastructure/models/manifestLock.js', async (importOriginal) =>
 *     (await import('./isolatedManifestLock.js')).withIsolatedLockPath(await importOriginal()));
 *
 * and remove `dirname(defaultLockPath)` (imported from the mocked module) after the tests.
 */
export function withIsolatedLockPath(original: typeof ManifestLockModule): typeof ManifestLockModule {
  const folder = mkdtempSync(join(tmpdir(), 'callscope-lock-'));
  return { ...original, defaultLockPath: join(folder, 'manifest.lock.json') };
}
