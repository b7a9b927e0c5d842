import { Type, type Static } from 'typebox';
import { CallStatusSchema } from './callSchemas.js';
import { Timestamp, Uuid } from './commonSchemas.js';

/** One call's state: the `data` of a `status` event, and each element of a snapshot's `calls`. */
export const CallStatusEventSchema = Type.Object({
  callId: Uuid,
  status: CallStatusSchema,
  progress: Type.Number({ minimum: 0, maximum: 1, description: 'Progress of the run in flight, 0..1' }),
  stage: Type.Optional(Type.String({ description: 'The pipeline stage running now (e.g. `transcription`); only while TRANSCRIBING or ANALYZING' })),
  errorReason: Type.Optional(Type.String({ description: 'Why the call failed; only when FAILED' })),
  updatedAt: Timestamp,
}, { description: 'Where one call stands' });
export type CallStatusEvent = Static<typeof CallStatusEventSchema>;

export const CallStatusSnapshotSchema = Type.Object({
  calls: Type.Array(CallStatusEventSchema, { description: 'The caller\'s calls not yet finished, in upload order; after a reconnect with `Last-Event-ID`, also the calls that changed since' }),
}, { description: 'The `data` of the `snapshot` event, the first of every stream' });
export type CallStatusSnapshot = Static<typeof CallStatusSnapshotSchema>;

/**
 * The 200 body, documented by the `data` of its events (OpenAPI 3.1 cannot describe a stream of
 * messages): `event: snapshot` then `event: status` messages, each with an `id:`.
 */
export const CallEventStreamDataSchema = Type.Union([CallStatusSnapshotSchema, CallStatusEventSchema], {
  description: 'A `text/event-stream`: this is the schema of each event\'s `data:` line (one JSON object). '
    + 'First `event: snapshot` (`{calls: [...]}`), then one `event: status` (one call\'s state) per change of one of the caller\'s calls. '
    + 'Every event carries an `id:` to send back as `Last-Event-ID` when reconnecting; lines starting with `:` are heartbeats.',
});

export const CallEventHeadersSchema = Type.Object({
  'last-event-id': Type.Optional(Type.String({
    description: 'The `id:` of the last event received, when reconnecting (browsers send it by themselves): the snapshot then also lists '
      + 'the calls that changed since (up to one hour back). Anything else is ignored.',
  })),
});
