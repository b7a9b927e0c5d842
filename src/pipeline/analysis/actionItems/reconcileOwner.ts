import type { AnalysisActionItem } from '../../../domain/analysis/analysisSchema.js';
import type { Speaker } from '../../../domain/transcripts/transcriptSchema.js';

type OwnerFields = Pick<AnalysisActionItem, 'ownerSpeakerId' | 'ownerSpeakerLabel' | 'ownerDisplayName' | 'ownerRole'>;

const noOwner: OwnerFields = { ownerSpeakerId: null, ownerSpeakerLabel: null, ownerDisplayName: null, ownerRole: null };

/**
 * The specification's owner reconciliation: the item's `ownerSpeakerId` when it is one of the
 * transcript's speakers; otherwise its `ownerSpeakerLabel` matched case-insensitively against the
 * speakers' labels and display names; the label, display name and role then come from that
 * speaker. When nothing matches, every owner field is null: an owner is never invented.
 */
export function reconcileOwner(item: OwnerFields, speakers: readonly Speaker[]): OwnerFields {
  const byId = item.ownerSpeakerId ? speakers.find((speaker) => speaker.speakerId === item.ownerSpeakerId) : undefined;
  const wanted = item.ownerSpeakerLabel?.trim().toLowerCase();
  const byLabel = byId ?? (wanted
    ? speakers.find((speaker) => speaker.label.toLowerCase() === wanted || speaker.displayName.toLowerCase() === wanted)
    : undefined);
  if (!byLabel) return noOwner;
  return { ownerSpeakerId: byLabel.speakerId, ownerSpeakerLabel: byLabel.label, ownerDisplayName: byLabel.displayName, ownerRole: byLabel.role };
}
