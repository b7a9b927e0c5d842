import type { ManifestLock, ModelEntry } from './manifestSchema.js';
import type { ModelSlotStatus } from './inspectSlot.js';

export type InstallPlan =
  | { action: 'install' }
  /** `unchanged`: the very file is installed; `kept`: another good file is, and stays. */
  | { action: 'unchanged' | 'kept'; message: string };

/**
 * Whether fetch or import may put `entry` where `current` is: into an empty slot, over a
 * damaged file, or over a development stand-in; never over a good file (a manifest model or an
 * own one), which the operator must move away first.
 * @param sourceSha256 The digest of the file to install, when known before installing (import).
 */
export function installPlan(current: ModelSlotStatus, entry: ModelEntry, lock: ManifestLock, sourceSha256?: string): InstallPlan {
  if (!current.present) return { action: 'install' };
  const incoming = sourceSha256 ?? entry.sha256 ?? lock.recorded[entry.name]?.sha256;
  if (incoming !== undefined && current.sha256 === incoming) return { action: 'unchanged', message: `${entry.name} is already installed` };
  if (current.check === 'checksum_mismatch') return { action: 'install' };
  if (current.check === 'ok' && current.manifestEntry?.development) return { action: 'install' };
  const what = current.check === 'not_in_manifest' ? 'a model of your own' : `${current.manifestEntry?.name}${current.check === 'not_pinned' ? ' (not pinned)' : ''}`;
  return { action: 'kept', message: `${current.fileName} is kept: it holds ${what}; move it away to install ${entry.name}` };
}
