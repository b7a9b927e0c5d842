import { Type } from 'typebox';
import { actionItemStatuses } from '../../domain/actions/ActionItemRepository.js';
import { IsoDate, Timestamp, Uuid } from './commonSchemas.js';

export const ActionItemStatusSchema = Type.Enum(actionItemStatuses);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const intents = ['meeting', 'email', 'call', 'message', 'reminder', 'task', 'none'] as const;

export const ActionItemSchema = Type.Object({
  id: Uuid,
  callRecordId: Uuid,
  title: Type.String(),
  description: NullableString,
  dueDate: Type.Union([IsoDate, Type.Null()]),
  status: ActionItemStatusSchema,
  sourceText: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  ownerSpeakerId: NullableString,
  ownerSpeakerLabel: NullableString,
  ownerDisplayName: NullableString,
  ownerRole: Type.Union([Type.Literal('USER'), Type.Literal('CONTACT'), Type.Literal('UNKNOWN'), Type.Null()]),
  sourceSegmentIds: Type.Array(Type.String()),
  intent: Type.Union([Type.Enum(intents), Type.Null()]),
  intentMetadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { $id: 'ActionItem' });

export const ActionItemListQuerySchema = Type.Object({
  status: Type.Optional(ActionItemStatusSchema),
});

export const ActionItemPatchSchema = Type.Object({
  status: ActionItemStatusSchema,
}, { additionalProperties: false });
