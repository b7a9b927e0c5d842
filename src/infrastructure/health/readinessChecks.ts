import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config/configSchema.js';
import type { DatabaseHandle } from '../database/openDatabase.js';
import { packageRoot } from '../packageRoot.js';

export type CheckStatus = 'UP' | 'DOWN';

/** One readiness check's answer: status plus a short, non-personal detail. */
export interface CheckResult {
  status: CheckStatus;
  detail?: Record<string, unknown>;
}

export type ReadinessCheck = () => Promise<CheckResult> | CheckResult;

/** Resolves a configured model path: absolute as given, relative to the install folder otherwise. */
export function resolveModelPath(path: string): string {
  return isAbsolute(path) ? path : resolve(packageRoot, path);
}

/** The database answers a query. */
export function databaseCheck(database: DatabaseHandle): ReadinessCheck {
  return () => {
    try {
      database.db.get(sql`SELECT 1`);
      return { status: 'UP' };
    } catch {
      return { status: 'DOWN', detail: { reason: 'database unreachable' } };
    }
  };
}

/** `DATA_DIR` has at least `MIN_FREE_DISK_MB` free. */
export function diskSpaceCheck(config: Pick<Config, 'DATA_DIR' | 'MIN_FREE_DISK_MB'>): ReadinessCheck {
  return async () => {
    const stats = await statfs(config.DATA_DIR);
    const freeMb = Math.floor((stats.bavail * stats.bsize) / (1024 * 1024));
    return { status: freeMb >= config.MIN_FREE_DISK_MB ? 'UP' : 'DOWN', detail: { freeMb, thresholdMb: config.MIN_FREE_DISK_MB } };
  };
}

/** Model slots the pipeline cannot run without, and those it uses when present. */
const requiredModels = ['SEGMENTATION_MODEL', 'WHISPER_MODEL'] as const;
const optionalModels = ['EMBEDDING_MODEL', 'VAD_MODEL', 'LLM_MODEL'] as const;

/** Required model files are present (optional ones are reported, never DOWN). */
export function modelsCheck(config: Config): ReadinessCheck {
  return () => {
    const present = (slot: (typeof requiredModels)[number] | (typeof optionalModels)[number]) => existsSync(resolveModelPath(config[slot]));
    const missing = requiredModels.filter((slot) => !present(slot));
    const detail = Object.fromEntries([...requiredModels, ...optionalModels].map((slot) => [slot, present(slot) ? 'present' : 'missing']));
    return { status: missing.length === 0 ? 'UP' : 'DOWN', detail };
  };
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
