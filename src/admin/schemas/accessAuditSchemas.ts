import type { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../http/schemas/commonSchemas.js';

const filterFields = {
  callId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only records of this call' })),
  actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only records of this actor: a user\'s id, `admin`, `setup`, or a system job (`cli`, `retention`)' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this action, e.g. `transcript.read`, `call.delete`, `admin.settings_change`' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Records at or after this instant (ISO-8601)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Records before this instant (ISO-8601)' })),
};

export const AccessAuditListQuerySchema = Type.Object({
  ...filterFields,
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Records per page. Defaults to `100`.' }),
  before: Type.Optional(Type.Integer({ minimum: 1, description: 'Records older than this seq: the previous page\'s `nextBefore`' })),
}, { additionalProperties: false });

export const AccessAuditCsvQuerySchema = Type.Object(filterFields, { additionalProperties: false });
export type AccessAuditFilterQuery = Static<typeof AccessAuditCsvQuerySchema>;

export const AccessAuditRecordSchema = Type.Object({
  seq: Type.Integer({ description: 'The record\'s place in the chain, from 1 without gaps' }),
  at: Timestamp,
  actorKind: Type.Enum(['user', 'admin', 'system'], { description: '`user`: the API; `admin`: the admin area; `system`: the command line or a background job' }),
  actorId: Type.String({ description: 'The user\'s id, `admin`/`setup`, or the job\'s name' }),
  action: Type.String({ description: 'What was done, e.g. `transcript.read`, `call.export`, `call.delete`, `admin.sign_in`' }),
  callId: Nullable(Type.String()),
  target: Nullable(Type.String({ description: 'What else was touched (an action item, a user, a setting)' })),
  clientIp: Nullable(Type.String()),
  detail: Nullable(Type.Record(Type.String(), Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()])), {
    description: 'Counts, formats, statuses; never transcript text, names, phone numbers or secrets',
  })),
  previousHash: Type.String({ description: 'Hex sha256 of the previous record (64 zeros for the first)' }),
  hash: Type.String({ description: 'Hex sha256 over `previousHash` and this record\'s fields' }),
});

export const AccessAuditListSchema = Type.Object({
  records: Type.Array(AccessAuditRecordSchema, { description: 'Newest first' }),
  nextBefore: Nullable(Type.Integer({ description: 'Pass as `before` for the next (older) page; null on the last page' })),
});

export const AccessAuditCsvResponseSchema = {
  description: 'The filtered trail as CSV (RFC 4180, UTF-8, header row, newest first), streamed as a download named `access-audit.csv`',
  content: {
    'text/csv': {
      // Typed as a stream: the route streams the rows; nothing is serialised from this.
      schema: Type.Unsafe<Readable>({
        type: 'string',
        description: 'Columns: seq, at, actor_kind, actor_id, action, call_id, target, client_ip, detail (JSON), previous_hash, hash. '
          + 'A cell starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `\'` so that spreadsheets do not run it as a formula.',
      }),
    },
  },
};
