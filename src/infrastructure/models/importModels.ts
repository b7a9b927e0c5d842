import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config/configSchema.js';
import { moveIntoPlace, syncFile } from './durableFiles.js';
import { installConvertedModel, isConvertedEntry } from './conversion/convertModel.js';
import { markInstalledWhole } from './missingModels.js';
import { defaultLockPath, readManifestLock, updateManifestLock } from './manifestLock.js';
import type { ManifestLock, ModelEntry, ModelManifest, ModelSlot } from './manifestSchema.js';
import { digestCacheFor, ModelDigestCache, sha256OfFile } from './ModelDigestCache.js';
import { inspectSlot } from './inspectSlot.js';
import { configuredModelPath, slotInfo, type ModelConfigKey } from './modelSlots.js';
import { installPlan } from './installPlan.js';

export interface ImportModelsOptions {
  /** The lock file for digests seen first and install records. Defaults to `models/manifest.lock.json` in the install folder. */
  lockPath?: string;
  /** Cache for the installed files. Defaults to the process's cache for `DATA_DIR`. */
  digests?: ModelDigestCache;
}

export interface ModelImportResult {
  /** The source file. */
  file: string;
  fileName: string;
  slot: ModelSlot | null;
  configKey: ModelConfigKey | null;
  /** The manifest entry it was recognised as. */
  entry: string | null;
  /** Where it was (or would have been) installed. */
  target: string | null;
  /**
   * `imported`; `unchanged`: that file is installed already; `kept`: another good file is
   * installed and stays; `refused`: damaged (named as a manifest model, another digest);
   * `skipped`: not a manifest model, or a second file for a slot; `failed`: the copy failed.
   */
  outcome: 'imported' | 'unchanged' | 'kept' | 'refused' | 'skipped' | 'failed';
  message: string;
  /** Set when the entry is not pinned and this import recorded its digest: say so loudly. */
  warning?: string;
}

/** Folders below the source searched for models (a stick may hold `models/` or a dated folder). */
const MAX_DEPTH = 3;

/**
 * Installs models from a folder (a USB stick, a share): each file is recognised by its SHA-256
 * against the manifest (a model, or the archive a converted entry is made from, which is then
 * converted here), else by its name (a published name, or a slot's default name); a file
 * named as a manifest model whose digest differs is refused as damaged. One file per slot is
 * installed (the recommended one first) at the slot's configured path: copied to a temp file
 * beside it, fsynced, hashed again, renamed into place. Good files already installed are never
 * replaced. Reports one result per file found; throws only when `sourceDir` is not a folder.
 */
export async function importModels(
  sourceDir: string,
  config: Pick<Config, ModelConfigKey | 'DATA_DIR'>,
  manifest: ModelManifest,
  options: ImportModelsOptions = {},
): Promise<ModelImportResult[]> {
  if (!(await stat(sourceDir).then((stats) => stats.isDirectory(), () => false))) throw new Error(`${sourceDir} is not a folder`);
  const lockPath = options.lockPath ?? defaultLockPath;
  const digests = options.digests ?? digestCacheFor(config.DATA_DIR);
  // Source files are hashed without the data folder's cache: a stick's paths mean nothing tomorrow.
  const sourceDigests = new ModelDigestCache();
  const lock = await readManifestLock(lockPath);

  const results: ModelImportResult[] = [];
  const candidates: { file: string; entry: ModelEntry; sha256: string; sizeBytes: number; trustedOnFirstSight: boolean; archive?: true }[] = [];
  for (const file of await listFiles(resolve(sourceDir), MAX_DEPTH)) {
    const digest = await sourceDigests.digest(file);
    if (!digest) continue;
    const recognised = recognise(file, digest.sha256, manifest, lock);
    if ('entry' in recognised) candidates.push({ file, ...digest, ...recognised });
    else results.push(resultFor(file, recognised.slot, null, config, recognised.outcome, recognised.message));
  }

  // The best candidate per slot: the recommended model, then any production one, in manifest order.
  const rank = (entry: ModelEntry) => (entry.recommended ? 0 : entry.development ? 2 : 1) * manifest.models.length + manifest.models.indexOf(entry);
  candidates.sort((a, b) => rank(a.entry) - rank(b.entry));
  const chosen = new Map<ModelSlot, string>();
  for (const candidate of candidates) {
    const { file, entry, sha256 } = candidate;
    const result = (outcome: ModelImportResult['outcome'], message: string, warning?: string) => resultFor(file, entry.slot, entry, config, outcome, message, warning);
    const earlier = chosen.get(entry.slot);
    if (earlier) {
      results.push(result('skipped', `another file for the ${entry.slot} slot was taken (${earlier})`));
      continue;
    }
    chosen.set(entry.slot, entry.name);
    const target = configuredModelPath(config, entry.slot);
    const currentLock = await readManifestLock(lockPath);
    // An archive is judged by the digest its conversion must have.
    const installedSha256 = candidate.archive ? entry.sha256 ?? currentLock.recorded[entry.name]?.sha256 : sha256;
    const plan = installPlan(await inspectSlot(slotInfo(entry.slot), target, manifest, currentLock, digests), entry, currentLock, installedSha256);
    if (plan.action !== 'install') {
      results.push(result(plan.action, plan.message));
      continue;
    }
    let installed: { sha256: string; sizeBytes: number };
    try {
      installed = candidate.archive && isConvertedEntry(entry)
        ? await installConvertedModel(file, entry, target, installedSha256)
        : (await copyVerified(file, target, sha256), { sha256, sizeBytes: candidate.sizeBytes });
    } catch (error) {
      results.push(result('failed', `${candidate.archive ? 'converting' : 'copying'} ${entry.name} failed: ${(error as Error).message}`));
      continue;
    }
    const now = new Date().toISOString();
    await updateManifestLock(lockPath, (current) => {
      if (candidate.trustedOnFirstSight || (candidate.archive && installedSha256 === undefined)) {
        current.recorded[entry.name] = { sha256: installed.sha256, size: installed.sizeBytes, recordedAt: now, source: 'import' };
      }
      current.installed[target] = { entry: entry.name, sha256: installed.sha256, installedAt: now };
    });
    await digests.rememberVerified(target, installed.sha256);
    const warning = candidate.trustedOnFirstSight
      ? `${entry.name} is not pinned by the manifest and was recognised by its name only. Its SHA-256 ${sha256} is now recorded in ${lockPath}: later fetches and imports must match it. Compare it with the publisher's before relying on the model.`
      : undefined;
    results.push(result('imported', candidate.archive
      ? `${entry.name}, converted from its archive (SHA-256 verified)${installedSha256 ? ', the result\'s SHA-256 verified too' : ''}`
      : `${entry.name}${candidate.trustedOnFirstSight ? '' : ', SHA-256 verified'}, copied and checked`, warning));
  }
  return results;
}

type Recognition =
  | { entry: ModelEntry; trustedOnFirstSight: boolean; archive?: true }
  | { slot: ModelSlot | null; outcome: 'refused' | 'skipped'; message: string };

/** Which entry a source file is: by digest (pinned, or recorded on first sight), else by name. */
function recognise(file: string, sha256: string, manifest: ModelManifest, lock: ManifestLock): Recognition {
  const recorded = (entry: ModelEntry) => entry.sha256 ?? lock.recorded[entry.name]?.sha256;
  const byDigest = manifest.models.find((entry) => recorded(entry) === sha256);
  if (byDigest) return { entry: byDigest, trustedOnFirstSight: false };
  // The archive a converted entry is made from (a wheel downloaded on a connected machine).
  const ofArchive = manifest.models.find((entry) => entry.convertedFrom?.sha256 === sha256);
  if (ofArchive) return { entry: ofArchive, trustedOnFirstSight: false, archive: true };

  const name = basename(file);
  const byAlias = manifest.models.find((entry) => entry.aliases.includes(name));
  if (byAlias && recorded(byAlias) === undefined) return { entry: byAlias, trustedOnFirstSight: true };
  if (byAlias) {
    return { slot: byAlias.slot, outcome: 'refused', message: `damaged or truncated: named as ${byAlias.name}, but its SHA-256 is not that model's; copy it again from a good source` };
  }
  const bySlotName = manifest.models.find((entry) => basename(entry.fileName) === name);
  if (bySlotName) {
    return {
      slot: bySlotName.slot, outcome: 'refused',
      message: `named as the ${bySlotName.slot} model, but its SHA-256 matches none of the manifest's: damaged, or a model of your own (copy that by hand and set ${slotInfo(bySlotName.slot).configKey})`,
    };
  }
  return { slot: null, outcome: 'skipped', message: 'not a manifest model' };
}

function resultFor(
  file: string, slot: ModelSlot | null, entry: ModelEntry | null, config: Pick<Config, ModelConfigKey>,
  outcome: ModelImportResult['outcome'], message: string, warning?: string,
): ModelImportResult {
  return {
    file,
    fileName: basename(file),
    slot,
    configKey: slot ? slotInfo(slot).configKey : null,
    entry: entry?.name ?? null,
    target: slot ? configuredModelPath(config, slot) : null,
    outcome,
    message,
    ...(warning ? { warning } : {}),
  };
}

/** Copies beside the target, fsyncs, checks the copy's digest, then renames it into place. */
async function copyVerified(source: string, target: string, sha256: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tempPath = join(dirname(target), `.${basename(target)}.${randomUUID()}.import`);
  try {
    await pipeline(createReadStream(source), createWriteStream(tempPath));
    await syncFile(tempPath);
    const copied = await sha256OfFile(tempPath);
    if (copied !== sha256) throw new Error(`the copy's SHA-256 ${copied} differs from the source's ${sha256} (a read error, or the source changed)`);
    await moveIntoPlace(tempPath, target);
    markInstalledWhole(target);
  } finally {
    await rm(tempPath, { force: true });
  }
}

/** Regular files under `folder`, sorted, skipping hidden ones and unfinished downloads. */
async function listFiles(folder: string, depth: number): Promise<string[]> {
  const files: string[] = [];
  for (const item of await readdir(folder, { withFileTypes: true })) {
    if (item.name.startsWith('.') || item.name.endsWith('.part')) continue;
    const path = join(folder, item.name);
    if (item.isDirectory() && depth > 0) files.push(...(await listFiles(path, depth - 1)));
    else if (item.isFile() || (item.isSymbolicLink() && (await stat(path).then((stats) => stats.isFile(), () => false)))) files.push(path);
  }
  return files.sort();
}
