import { basename } from 'node:path';
import { judgeModelFile, type ModelCheck } from './judgeModelFile.js';
import type { ManifestLock, ModelEntry, ModelManifest, ModelSlot } from './manifestSchema.js';
import type { ModelDigestCache } from './ModelDigestCache.js';
import type { ModelConfigKey, ModelSlotInfo } from './modelSlots.js';

/** What the admin page and `callscope models status` show of a manifest entry. */
export interface ManifestEntrySummary {
  name: string;
  sha256: string | null;
  size: number | null;
  licence: string;
  url: string | null;
  development: boolean;
}

/** One model slot: the file configured for it and whether it is intact. */
export interface ModelSlotStatus {
  slot: ModelSlot;
  configKey: ModelConfigKey;
  /** Segmentation and whisper: processing cannot run without them. */
  required: boolean;
  /** The configured path, resolved (absolute). */
  configuredPath: string;
  /** Its last part. */
  fileName: string;
  present: boolean;
  sizeBytes: number | null;
  sha256: string | null;
  /** The entry the file is (digest match) or claims to be, else the slot's recommended entry. */
  manifestEntry: ManifestEntrySummary | null;
  check: ModelCheck;
  /** One line for an operator: what the file is, or what to do. */
  message: string;
}

/** One slot's status for the file at `path` (fetch and import judge their targets with it). */
export async function inspectSlot(info: ModelSlotInfo, path: string, manifest: ModelManifest, lock: ManifestLock, digests: ModelDigestCache): Promise<ModelSlotStatus> {
  const recommended = recommendedEntry(manifest, info.slot);
  const base = { ...info, configuredPath: path, fileName: basename(path) };
  const digest = await digests.digest(path);
  if (!digest) {
    const message = info.required
      ? `required, not installed: callscope models fetch (online) or callscope models import <folder> installs ${recommended.name}`
      : `optional, not installed (recommended: ${recommended.name})`;
    return { ...base, present: false, sizeBytes: null, sha256: null, manifestEntry: summaryOf(recommended), check: 'missing', message };
  }
  const judgement = judgeModelFile({ path, sha256: digest.sha256 }, manifest, lock, info.slot);
  return {
    ...base,
    present: true,
    sizeBytes: digest.sizeBytes,
    sha256: digest.sha256,
    manifestEntry: summaryOf(judgement.entry ?? recommended),
    check: judgement.check,
    message: judgement.message,
  };
}

/** The slot's recommended entry (the manifest loader ensures there is exactly one). */
export function recommendedEntry(manifest: ModelManifest, slot: ModelSlot): ModelEntry {
  const entry = manifest.models.find((candidate) => candidate.slot === slot && candidate.recommended);
  if (!entry) throw new Error(`the model manifest recommends no ${slot} model`);
  return entry;
}

function summaryOf(entry: ModelEntry): ManifestEntrySummary {
  return { name: entry.name, sha256: entry.sha256, size: entry.size, licence: entry.licence, url: entry.url, development: entry.development ?? false };
}
