import { Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../http/schemas/commonSchemas.js';

/** Why a hold is placed or lifted: shown on the admin page and kept in the audit trail. */
const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'Why (a matter or ticket reference, not personal data); 1–500 characters, not only spaces' });

export const LegalHoldSchema = Type.Object({
  id: Uuid,
  scope: Type.Enum(['user', 'call'], { description: '`user`: every call of the user, present and future; `call`: that call' }),
  userId: Uuid,
  callId: Nullable(Uuid),
  reason: Type.String(),
  placedAt: Timestamp,
  active: Type.Boolean({ description: 'Not lifted: what it covers cannot be deleted' }),
  liftedAt: Nullable(Timestamp),
  liftReason: Nullable(Type.String()),
}, { description: 'A legal hold; lifted holds stay listed for the record' });

export const LegalHoldListQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 200 }),
}, { additionalProperties: false });

export const LegalHoldListSchema = Type.Object({
  holds: Type.Array(LegalHoldSchema, { description: 'Active holds first, then lifted ones; newest first within each' }),
});

export const PlaceLegalHoldBodySchema = Type.Object({
  scope: Type.Enum(['user', 'call']),
  userId: Type.Optional(Uuid),
  callId: Type.Optional(Uuid),
  reason: Reason,
}, { additionalProperties: false, description: '`userId` for a user hold, `callId` for a call hold (the hold records the call\'s owner)' });

export const LegalHoldParams = Type.Object({ id: Uuid });

export const LiftLegalHoldBodySchema = Type.Object({ reason: Reason }, { additionalProperties: false });

const RetentionCallSchema = Type.Object({
  callId: Uuid,
  userId: Uuid,
  since: Timestamp,
});

const RetentionPlanSchema = Type.Object({
  retentionDays: Type.Integer({ description: 'The setting now; 0 keeps everything' }),
  cutoff: Nullable(Timestamp),
  due: Type.Integer({ description: 'Calls the next run acts on' }),
  heldSkipped: Type.Integer({ description: 'Calls past retention that legal holds keep' }),
  calls: Type.Array(RetentionCallSchema, { description: 'The first (oldest) calls due, at most 100' }),
});

export const RetentionPreviewSchema = Type.Object({
  calls: RetentionPlanSchema,
  audio: RetentionPlanSchema,
}, { description: 'What the next hourly retention runs would delete if they ran now: `calls` (CALL_RETENTION_DAYS, whole calls aged from their upload) and `audio` (AUDIO_RETENTION_DAYS, audio only, aged from when the call finished)' });
