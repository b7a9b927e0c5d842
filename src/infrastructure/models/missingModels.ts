import { statSync } from 'node:fs';
import type { Config } from '../../config/configSchema.js';
import type { ModelSlot } from './manifestSchema.js';
import { configuredModelPath, modelSlotLabels, modelSlots, slotInfo, type ModelConfigKey } from './modelSlots.js';
import { modelDisplayName } from './resolveModelPath.js';

/** A model a call needs that is not installed, described for the operator (no absolute path). */
export interface MissingModel {
  slot: ModelSlot;
  configKey: ModelConfigKey;
  /** "speech recognition model". */
  label: string;
  /** The configured path relative to the install folder, or only the file's name when it lies elsewhere. */
  expectedAt: string;
  /** One sentence: the ways to install it. */
  howToInstall: string;
}

/** The settings that decide which model files calls need. */
export type NeededModelsConfig = Pick<Config, 'ANALYSER'> & Partial<Pick<Config, 'TRANSCRIPTION_PROVIDER' | 'LLM_PROVIDER'>>;

/**
 * The slots every call needs before it can start: the required ones (segmentation; whisper
 * unless a transcription server does that work, `TRANSCRIPTION_PROVIDER=openai`), plus the
 * language model when `ANALYSER=llm` or `hybrid` asks for it explicitly and it runs here (`auto` falls back
 * to the built-in analyser without it; `LLM_PROVIDER=openai` asks the site's chat server).
 * Optional models (VAD, speaker embeddings) only improve a call.
 */
export function slotsNeededByCalls(config: NeededModelsConfig): ModelSlot[] {
  const transcribesHere = (config.TRANSCRIPTION_PROVIDER ?? 'local') === 'local';
  const analysesHere = (config.LLM_PROVIDER ?? 'local') === 'local';
  return modelSlots
    .filter((info) => (info.required && (info.slot !== 'whisper' || transcribesHere)) || (info.slot === 'llm' && (config.ANALYSER === 'llm' || config.ANALYSER === 'hybrid') && analysesHere))
    .map((info) => info.slot);
}

/**
 * How long a model file must have been left alone before calls use it, ms: a file being copied
 * into place by hand (`cp` of 150 MB) exists long before it is whole, and its modification time
 * moves while it grows. Fetch and import rename finished files into place, so they wait this
 * long at most once.
 */
export const modelSettleMs = 3000;

/**
 * Files that fetch or import renamed into place whole, with the modification time they had then
 * (ms): they count as settled at once, so calls waiting for them start without waiting out
 * {@link modelSettleMs}. In-process only; a file installed by another process waits it out.
 */
const installedWhole = new Map<string, number>();

/** Records that `path` (as configured, resolved) was just put in place whole. */
export function markInstalledWhole(path: string): void {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats) installedWhole.set(path, stats.mtimeMs);
}

/**
 * The needed models whose file is not there (or, with `settleMs`, still arriving): a stat per
 * slot, no hashing, so the engine can ask before every claim. A file that is there but damaged
 * is not "missing": the stage that loads it fails the call with a reason naming the file (see
 * assertModelUsable).
 * @param settleMs How long a file must have been left alone to count; the engine passes
 *   {@link modelSettleMs}, readiness 0 (it reports what is on disk). Defaults to `0`.
 */
export function missingModels(config: Pick<Config, ModelConfigKey> & NeededModelsConfig, { settleMs = 0, now = Date.now() }: { settleMs?: number; now?: number } = {}): MissingModel[] {
  return slotsNeededByCalls(config)
    .map((slot) => ({ slot, path: configuredModelPath(config, slot) }))
    .filter(({ path }) => !isSettledFile(path, settleMs, now))
    .map(({ slot, path }) => describeMissing(slot, path));
}

function isSettledFile(path: string, settleMs: number, now: number): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return false;
  // abs: a file stamped in the future (another machine's clock, kept by `cp -p`) is not growing.
  return settleMs === 0 || installedWhole.get(path) === stats.mtimeMs || Math.abs(now - stats.mtimeMs) >= settleMs;
}

function describeMissing(slot: ModelSlot, path: string): MissingModel {
  const expectedAt = modelDisplayName(path);
  return {
    slot,
    configKey: slotInfo(slot).configKey,
    label: modelSlotLabels[slot],
    expectedAt,
    howToInstall: `fetch it on the admin page (Models) or with \`callscope models fetch --slot ${slot}\`, import it with \`callscope models import DIR\`, or copy the file to ${expectedAt}`,
  };
}

/** What to do about `missing`: its own instructions for one model, the general ones for several. */
export function howToInstallAll(missing: readonly MissingModel[]): string {
  if (missing.length === 1) return missing[0]!.howToInstall;
  return 'fetch them on the admin page (Models) or with `callscope models fetch`, import them with `callscope models import DIR`, or copy each file to the path shown';
}

/** "the speaker segmentation model (models/segmentation.onnx) and the speech recognition model (models/whisper.bin)". */
export function describeMissingModels(missing: readonly MissingModel[]): string {
  const parts = missing.map((model) => `the ${model.label} (${model.expectedAt})`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
