import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Config } from '../../config/configSchema.js';
import type { DatabaseHandle } from '../database/openDatabase.js';
import type { ObjectStore } from '../storage/ObjectStore.js';
import { installedModelManifest } from '../models/loadModelManifest.js';
import type { ModelManifest, ModelSlot } from '../models/manifestSchema.js';
import { inspectModels, type InspectModelsOptions, type ModelSlotStatus } from '../models/modelInventory.js';
import { modelLoadFailed } from '../models/modelLoadFailures.js';
import { missingModels, slotsNeededByCalls } from '../models/missingModels.js';
import { configuredModelPath, modelSlotLabels, modelSlots, slotInfo, type ModelSlotInfo } from '../models/modelSlots.js';

export type CheckStatus = 'UP' | 'DOWN';

/** One readiness check's answer: status plus a short, non-personal detail. */
export interface CheckResult {
  status: CheckStatus;
  detail?: Record<string, unknown>;
}

export type ReadinessCheck = () => Promise<CheckResult> | CheckResult;

// Kept here for the stages that import it from the health checks.
export { resolveModelPath } from '../models/resolveModelPath.js';

/** Longest a readiness probe waits for the database or the storage to answer, ms. */
const probeTimeoutMs = 2000;

/** The database answers a query (within {@link probeTimeoutMs}: a PostgreSQL server that is gone must not hang the probe). */
export function databaseCheck(database: Pick<DatabaseHandle, 'ping' | 'dialect'>): ReadinessCheck {
  return async () => {
    try {
      await withinTimeout(database.ping(), probeTimeoutMs);
      return { status: 'UP', detail: { engine: database.dialect } };
    } catch {
      return { status: 'DOWN', detail: { engine: database.dialect, reason: 'database unreachable' } };
    }
  };
}

/**
 * The storage (`DATA_DIR`, perhaps a shared mount) takes a write: a probe file is written,
 * renamed and removed in its temp folder, as every stored object is. A mount that is gone or
 * read-only makes the node not ready.
 */
export function storageCheck(store: Pick<ObjectStore, 'probeWrite'>): ReadinessCheck {
  return async () => {
    try {
      await withinTimeout(store.probeWrite(), probeTimeoutMs);
      return { status: 'UP' };
    } catch (error) {
      return { status: 'DOWN', detail: { reason: `storage not writable (${(error as NodeJS.ErrnoException).code ?? 'no answer'})` } };
    }
  };
}

/** Resolves when `work` does within `timeoutMs`; rejects when it fails or takes longer. */
async function withinTimeout(work: Promise<void>, timeoutMs: number): Promise<void> {
  if (!(await settledWithin(work.then(() => true), timeoutMs))) throw new Error('timed out');
}

/** `DATA_DIR` has at least `MIN_FREE_DISK_MB` free. */
export function diskSpaceCheck(config: Pick<Config, 'DATA_DIR' | 'MIN_FREE_DISK_MB'>): ReadinessCheck {
  return async () => {
    const stats = await statfs(config.DATA_DIR);
    const freeMb = Math.floor((stats.bavail * stats.bsize) / (1024 * 1024));
    return { status: freeMb >= config.MIN_FREE_DISK_MB ? 'UP' : 'DOWN', detail: { freeMb, thresholdMb: config.MIN_FREE_DISK_MB } };
  };
}

export interface ModelsCheckOptions extends InspectModelsOptions {
  /** The manifest. Defaults to the installed `models/manifest.json`. */
  manifest?: ModelManifest;
  /** Longest a readiness probe waits for model files to be hashed, ms. Defaults to `250`. */
  waitMs?: number;
}

/**
 * Model files are usable: DOWN while one that calls need is missing (the required ones, and the
 * language model with `ANALYSER=llm` or `hybrid`; calls wait for it), any present one failed its
 * integrity check (`checksum_mismatch`: every call would refuse it), or a stage could not load
 * the file as it is now (`load_failed`: an own or unpinned model is verified by nothing else;
 * held until the file changes or loads). Optional missing files, own models and unpinned ones
 * are reported, never DOWN. Digests come from the verification cache; a file not hashed yet
 * (the first probe after start-up or a change; 1–2 s for 500 MB) is hashed in the background
 * while the probe answers from presence alone, its slots marked `checking`, so readiness never
 * waits longer than `waitMs`.
 */
export function modelsCheck(config: Config, options: ModelsCheckOptions = {}): ReadinessCheck {
  const waitMs = options.waitMs ?? 250;
  return async () => {
    const inspection = inspectModels(config, options.manifest ?? (await installedModelManifest()), options);
    const needed = new Set(slotsNeededByCalls(config));
    const missingProblems = missingModels(config).map((model) => `${model.configKey} (${model.expectedAt}): not installed, calls wait for it: ${model.howToInstall}`);
    const unloadable = await unloadableSlots(config);
    const loadProblems = modelSlots.filter((slot) => unloadable.has(slot.slot)).map((slot) => loadProblemOf(slot, configuredModelPath(config, slot.slot)));
    const statuses = await settledWithin(inspection, waitMs);
    if (!statuses) {
      inspection.catch(() => undefined);
      const present = new Set(modelSlots.filter((slot) => existsSync(configuredModelPath(config, slot.slot))));
      const detail: Record<string, unknown> = Object.fromEntries(modelSlots.map((slot) => [
        slot.configKey, unloadable.has(slot.slot) ? 'load_failed' : present.has(slot) ? 'checking' : 'missing',
      ]));
      const problems = [...missingProblems, ...loadProblems];
      if (problems.length > 0) detail.problems = problems;
      return { status: problems.length === 0 ? 'UP' : 'DOWN', detail };
    }
    // A file that is missing or failed its integrity check is reported as such, whatever a stage found before.
    const checkOf = (slot: ModelSlotStatus) => (unloadable.has(slot.slot) && slot.check !== 'missing' && slot.check !== 'checksum_mismatch' ? 'load_failed' : slot.check);
    const failing = statuses.filter((slot) => slot.check === 'checksum_mismatch' || checkOf(slot) === 'load_failed');
    const detail: Record<string, unknown> = Object.fromEntries(statuses.map((slot) => [slot.configKey, checkOf(slot)]));
    const problems = [
      ...statuses.filter((slot) => needed.has(slot.slot) && slot.check === 'missing').map((slot) => missingProblems.find((problem) => problem.startsWith(`${slot.configKey} `)) ?? problemOf(slot)),
      ...failing.map((slot) => (checkOf(slot) === 'load_failed' ? loadProblemOf(slotInfo(slot.slot), slot.configuredPath) : problemOf(slot))),
    ];
    if (problems.length > 0) detail.problems = problems;
    return { status: problems.length === 0 ? 'UP' : 'DOWN', detail };
  };
}

function problemOf(slot: ModelSlotStatus): string {
  return `${slot.configKey} (${slot.fileName}): ${slot.message}`;
}

function loadProblemOf(slot: ModelSlotInfo, path: string): string {
  return `${slot.configKey} (${basename(path)}): a call could not load it (damaged, or not a ${modelSlotLabels[slot.slot]}?); replace it`;
}

/** The slots whose file, as it is now, a stage could not load: a stat per slot, no hashing. */
async function unloadableSlots(config: Config): Promise<Set<ModelSlot>> {
  const failed = await Promise.all(modelSlots.map((slot) => modelLoadFailed(configuredModelPath(config, slot.slot))));
  return new Set(modelSlots.filter((_slot, index) => failed[index]).map((slot) => slot.slot));
}

/** The promise's value if it settles within `ms`, else undefined (its rejection is passed on). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ms); });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check; overall UP only when all are UP. A check that throws counts as DOWN. */
export async function runChecks(checks: Record<string, ReadinessCheck>): Promise<{ status: CheckStatus; checks: Record<string, CheckResult> }> {
  const results: Record<string, CheckResult> = {};
  for (const [name, check] of Object.entries(checks)) {
    try {
      results[name] = await check();
    } catch {
      results[name] = { status: 'DOWN', detail: { reason: 'check failed' } };
    }
  }
  return { status: Object.values(results).every((result) => result.status === 'UP') ? 'UP' : 'DOWN', checks: results };
}
