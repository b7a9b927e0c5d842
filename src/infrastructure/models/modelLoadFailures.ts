import { resolve } from 'node:path';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { fileStats, fileVersionOf, sameFileVersion, type FileVersion } from './ModelDigestCache.js';

/**
 * Model files a stage could not load, by absolute path, with the version of the file that
 * failed. The integrity check only judges files that claim to be a manifest model; an own
 * model (`not_in_manifest`) or an unpinned one that is damaged is found out only when a stage
 * loads it, and readiness must then say so rather than stay UP while every call fails.
 * Kept in memory, on the thread that runs the stages' main half: a restart forgets them, and
 * the next call that loads the file finds out again.
 */
const failures = new Map<string, FileVersion>();

/** The version of the file at `path`, taken before a stage loads it: a failure is held against that version only. */
export async function modelFileVersion(path: string): Promise<FileVersion | undefined> {
  const stats = await fileStats(resolve(path));
  return stats ? fileVersionOf(stats) : undefined;
}

/**
 * Records that a stage could not load the model file at `path`, as it was at `version`, when
 * `error` is `unusable`: the stage's failure for that file. Compared by kind and reason, as a
 * worker thread's failure arrives as a new StageFailure.
 */
export function recordIfModelUnusable(error: unknown, unusable: StageFailure, path: string, version: FileVersion | undefined): void {
  if (version && error instanceof StageFailure && error.kind === unusable.kind && error.reason === unusable.reason) failures.set(resolve(path), version);
}

/** Forgets a failure once the file loaded (a language model that lacked memory may load later). */
export function clearModelLoadFailure(path: string): void {
  failures.delete(resolve(path));
}

/**
 * Whether the file now at `path` is the version a stage could not load. A file replaced or
 * rewritten since is not held against: its record is dropped, and the next call judges it.
 */
export async function modelLoadFailed(path: string): Promise<boolean> {
  const absolute = resolve(path);
  const failed = failures.get(absolute);
  if (!failed) return false;
  const current = await modelFileVersion(absolute);
  if (current && sameFileVersion(current, failed)) return true;
  // Unless a stage recorded a newer failure while the file was looked at.
  if (failures.get(absolute) === failed) failures.delete(absolute);
  return false;
}

/** A model file `work` loads, and the stage failures that mean it could not. */
export interface LoadedModel {
  path: string;
  /** The failures (compared by kind and reason) that are held against this file. */
  unusable: readonly StageFailure[];
}

/**
 * Runs `work`, which loads `models` (undefined entries: models not used this time), keeping
 * readiness's record of them: a failure of `work` that is one of a model's `unusable` failures
 * is recorded against the file's version taken before the load; success clears the records of
 * the models `work` did load (`loaded(result)`, all of them by default).
 */
export async function whileLoadingModels<T>(
  models: readonly (LoadedModel | undefined)[],
  work: () => Promise<T>,
  loaded: (result: T) => boolean = () => true,
): Promise<T> {
  const watched = models.filter((model): model is LoadedModel => model !== undefined);
  const versions = await Promise.all(watched.map((model) => modelFileVersion(model.path)));
  let result: T;
  try {
    result = await work();
  } catch (error) {
    watched.forEach((model, index) => {
      for (const unusable of model.unusable) recordIfModelUnusable(error, unusable, model.path, versions[index]);
    });
    throw error;
  }
  if (loaded(result)) for (const model of watched) clearModelLoadFailure(model.path);
  return result;
}
