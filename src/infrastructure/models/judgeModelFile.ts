import { basename } from 'node:path';
import type { ManifestLock, ModelEntry, ModelManifest, ModelSlot } from './manifestSchema.js';

/** A slot's state: see {@link judgeModelFile} for all but `missing` (no file at the configured path). */
export type ModelCheck = 'ok' | 'missing' | 'checksum_mismatch' | 'not_in_manifest' | 'not_pinned';

export interface ModelFileJudgement {
  check: Exclude<ModelCheck, 'missing'>;
  /** The entry the file is (its digest matches), else the one it claims to be (by name or install record), else undefined. */
  entry: ModelEntry | undefined;
  /** The slot judged: the one asked about, or that of the entry the file is or claims to be. */
  slot: ModelSlot | undefined;
  message: string;
}

/**
 * What a model file is, from its digest:
 * - `ok`: its SHA-256 is that of a manifest entry (development files included);
 * - `not_pinned`: it is an entry the manifest pins no digest for, either matching the digest
 *   recorded when it was first fetched, or claiming that entry's name with nothing to check it
 *   against;
 * - `checksum_mismatch`: it claims to be an entry (it bears one of the entry's published names,
 *   or fetch/import installed that entry at this path) but its digest matches none of the slot's
 *   entries: a damaged or truncated copy. Stages refuse it;
 * - `not_in_manifest`: anything else, an administrator's own model: allowed, not verified.
 * A file at a slot's default path that no install record vouches for is judged by digest only,
 * so an own model installed there before this check existed keeps working.
 * Without `slot`, every entry is considered and the claim decides the slot.
 */
export function judgeModelFile(
  file: { path: string; sha256: string },
  manifest: ModelManifest,
  lock: ManifestLock,
  slot?: ModelSlot,
): ModelFileJudgement {
  const candidates = manifest.models.filter((entry) => slot === undefined || entry.slot === slot);
  const recordedDigest = (entry: ModelEntry) => entry.sha256 ?? lock.recorded[entry.name]?.sha256 ?? null;

  const pinned = candidates.find((entry) => entry.sha256 === file.sha256);
  if (pinned) {
    const message = pinned.development ? `development file ${pinned.name}: not for production` : `${pinned.name}, verified`;
    return { check: 'ok', entry: pinned, slot: pinned.slot, message };
  }
  const firstFetched = candidates.find((entry) => entry.sha256 === null && recordedDigest(entry) === file.sha256);
  if (firstFetched) {
    return {
      check: 'not_pinned', entry: firstFetched, slot: firstFetched.slot,
      message: `${firstFetched.name}, as first fetched: the manifest pins no digest for it (the one seen first is in models/manifest.lock.json)`,
    };
  }

  const name = basename(file.path);
  const installedAs = lock.installed[file.path]?.entry;
  const claimed = candidates.filter((entry) => entry.aliases.includes(name) || entry.name === installedAs);
  const unverifiable = claimed.find((entry) => recordedDigest(entry) === null);
  if (unverifiable) {
    return {
      check: 'not_pinned', entry: unverifiable, slot: unverifiable.slot,
      message: `taken for ${unverifiable.name}, which the manifest pins no digest for: not verified`,
    };
  }
  const claim = claimed[0];
  if (claim) {
    return {
      check: 'checksum_mismatch', entry: claim, slot: claim.slot,
      message: `damaged or truncated: its SHA-256 is not that of ${claim.name}; fetch or import it again (callscope models fetch --slot ${claim.slot})`,
    };
  }

  const otherSlot = slot === undefined ? undefined : manifest.models.find((entry) => entry.sha256 === file.sha256);
  const message = otherSlot
    ? `this is ${otherSlot.name}, a ${otherSlot.slot} model, not a ${slot} model`
    : 'not a manifest model (your own model: allowed, not verified)';
  return { check: 'not_in_manifest', entry: undefined, slot, message };
}
