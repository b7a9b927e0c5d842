import { Type, type Static } from 'typebox';
import { callDirections, callStatuses } from '../../domain/calls/callTypes.js';
import { Timestamp, Uuid } from './commonSchemas.js';

export const CallStatusSchema = Type.Enum(callStatuses);
export const CallDirectionSchema = Type.Enum(callDirections);

/** Phone numbers as dialled: digits with an optional leading +, spaces, dots, dashes, brackets. */
const PhoneNumber = Type.String({ minLength: 3, maxLength: 32, pattern: '^\\+?[0-9 ().\\-]{3,32}$' });

/**
 * The upload metadata envelope. Every field is optional; unknown fields are ignored so newer
 * clients keep working. String limits are Callscope's decision (the spec does not show them).
 */
export const CallMetadataSchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  contactName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  contactId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  phoneNumber: Type.Optional(PhoneNumber),
  organization: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  direction: Type.Optional(CallDirectionSchema),
  recordedAt: Type.Optional(Type.String({ format: 'date-time' })),
  durationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
});

export const UploadAcceptedSchema = Type.Object({
  callId: Uuid,
  status: Type.Literal('QUEUED'),
});

export const CallListItemSchema = Type.Object({
  callId: Uuid,
  title: Type.String(),
  contactName: Type.Optional(Type.String()),
  direction: CallDirectionSchema,
  status: CallStatusSchema,
  durationSeconds: Type.Optional(Type.Integer()),
  createdAt: Timestamp,
});
export type CallListItem = Static<typeof CallListItemSchema>;

export const CallDetailSchema = Type.Object({
  ...CallListItemSchema.properties,
  phoneNumber: Type.Optional(Type.String()),
  recordedAt: Type.Optional(Timestamp),
  errorReason: Type.Union([Type.String(), Type.Null()], { description: 'Why the call failed; null unless FAILED' }),
});
export type CallDetail = Static<typeof CallDetailSchema>;

export const CallListQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  status: Type.Optional(Type.String({
    pattern: `^(${callStatuses.join('|')})(,(${callStatuses.join('|')}))*$`,
    description: 'One status or a comma-separated list',
  })),
});

export const CallListSchema = Type.Object({
  items: Type.Array(CallListItemSchema),
  nextCursor: Type.Optional(Type.String()),
});

export const CallStatusQuerySchema = Type.Object({
  ids: Type.String({ minLength: 1, description: 'Comma-separated call ids' }),
});

export const CallStatusListSchema = Type.Object({
  items: Type.Array(Type.Object({ callId: Uuid, status: CallStatusSchema })),
  nextPollMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 60000 })),
});

export const BulkDeleteBodySchema = Type.Object({
  callIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1 }),
}, { additionalProperties: false });

export const BulkDeleteResultSchema = Type.Object({
  deleted: Type.Integer(),
  missing: Type.Integer(),
  failed: Type.Array(Type.Object({
    callId: Type.String(),
    code: Type.String(),
    message: Type.String(),
  })),
});
