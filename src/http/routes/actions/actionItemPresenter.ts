import type { Static } from 'typebox';
import type { ActionItemRecord } from '../../../domain/actions/ActionItemRepository.js';
import { toIsoTimestamp } from '../../../infrastructure/clock.js';
import type { ActionItemSchema } from '../../schemas/actionItemSchemas.js';

type ActionItem = Static<typeof ActionItemSchema>;

/** An action item as the API shows it. `intentMetadata` is omitted when there is none. */
export function toActionItem(item: ActionItemRecord): ActionItem {
  return {
    id: item.id,
    callRecordId: item.callId,
    title: item.title,
    description: item.description,
    dueDate: item.dueDate,
    status: item.status,
    sourceText: item.sourceText,
    createdAt: toIsoTimestamp(item.createdAt),
    updatedAt: toIsoTimestamp(item.updatedAt),
    ownerSpeakerId: item.ownerSpeakerId,
    ownerSpeakerLabel: item.ownerSpeakerLabel,
    ownerDisplayName: item.ownerDisplayName,
    ownerRole: item.ownerRole as ActionItem['ownerRole'],
    sourceSegmentIds: JSON.parse(item.sourceSegmentIds) as string[],
    intent: item.intent as ActionItem['intent'],
    ...(item.intentMetadata ? { intentMetadata: JSON.parse(item.intentMetadata) as Record<string, unknown> } : {}),
  };
}
