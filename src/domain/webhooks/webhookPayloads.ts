import { Type, type Static } from 'typebox';
import { actionItemStatuses, type ActionItemStatus } from '../actions/ActionItemRepository.js';

/*
 * The bodies of the webhooks Callscope sends to the site's own systems, in the Standard Webhooks
 * shape `{type, timestamp, data}`. Written once here: the outbox builds them, the tests check
 * deliveries against them, docs/api.md describes them. They carry ids and statuses only (the
 * transcript's text only when the admin opted in): never titles, names or phone numbers.
 */

export const webhookEventTypes = ['call.completed', 'call.failed', 'call.deleted', 'action_item.updated'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

const Id = Type.String({ description: 'UUID' });
const Timestamp = Type.String({ format: 'date-time', description: 'When it happened: ISO-8601 UTC with trailing Z' });
const CallOwner = { callId: Id, userId: Type.String({ description: 'The Callscope user id (UUID) of the call\'s owner, as `GET /api/users/me` shows it' }) };

export const CallCompletedPayloadSchema = Type.Object({
  type: Type.Literal('call.completed'),
  timestamp: Timestamp,
  data: Type.Object({
    ...CallOwner,
    status: Type.Literal('COMPLETED'),
    actionItemIds: Type.Array(Id, { description: 'The call\'s action items, as `GET /api/actions` lists them' }),
    transcript: Type.Optional(Type.String({ description: 'The transcript\'s `cleanText`; only with WEBHOOK_INCLUDE_TRANSCRIPT=true' })),
  }, { additionalProperties: false }),
}, { additionalProperties: false });

export const CallFailedPayloadSchema = Type.Object({
  type: Type.Literal('call.failed'),
  timestamp: Timestamp,
  data: Type.Object({ ...CallOwner, status: Type.Literal('FAILED'), errorReason: Type.String({ description: 'Why, as `GET /api/calls/{id}` says it' }) }, { additionalProperties: false }),
}, { additionalProperties: false });

export const CallDeletedPayloadSchema = Type.Object({
  type: Type.Literal('call.deleted'),
  timestamp: Timestamp,
  data: Type.Object({ ...CallOwner, status: Type.Literal('DELETED') }, { additionalProperties: false }),
}, { additionalProperties: false });

export const ActionItemUpdatedPayloadSchema = Type.Object({
  type: Type.Literal('action_item.updated'),
  timestamp: Timestamp,
  data: Type.Object({ actionItemId: Id, ...CallOwner, status: Type.Enum(actionItemStatuses) }, { additionalProperties: false }),
}, { additionalProperties: false });

export const WebhookPayloadSchema = Type.Union([CallCompletedPayloadSchema, CallFailedPayloadSchema, CallDeletedPayloadSchema, ActionItemUpdatedPayloadSchema]);
export type WebhookPayload = Static<typeof WebhookPayloadSchema>;

/** A call that has just completed, as its `call.completed` webhook reports it. */
export interface CompletedCall {
  callId: string;
  userId: string;
  actionItemIds: readonly string[];
  /** The transcript's `cleanText`, when there is one. */
  transcriptText?: string;
}

/** A call that has just failed. */
export interface FailedCall {
  callId: string;
  userId: string;
  errorReason: string;
}

/** `now` in ms since the epoch. The transcript goes in only when `includeTranscript` (the admin's opt-in). */
export function callCompletedPayload(call: CompletedCall, includeTranscript: boolean, now: number): WebhookPayload {
  return {
    type: 'call.completed',
    timestamp: new Date(now).toISOString(),
    data: {
      callId: call.callId, userId: call.userId, status: 'COMPLETED', actionItemIds: [...call.actionItemIds],
      ...(includeTranscript && call.transcriptText !== undefined ? { transcript: call.transcriptText } : {}),
    },
  };
}

export function callFailedPayload(call: FailedCall, now: number): WebhookPayload {
  return { type: 'call.failed', timestamp: new Date(now).toISOString(), data: { callId: call.callId, userId: call.userId, status: 'FAILED', errorReason: call.errorReason } };
}

export function callDeletedPayload(call: { callId: string; userId: string }, now: number): WebhookPayload {
  return { type: 'call.deleted', timestamp: new Date(now).toISOString(), data: { callId: call.callId, userId: call.userId, status: 'DELETED' } };
}

export function actionItemUpdatedPayload(item: { id: string; callId: string; userId: string; status: ActionItemStatus }, now: number): WebhookPayload {
  return {
    type: 'action_item.updated', timestamp: new Date(now).toISOString(),
    data: { actionItemId: item.id, callId: item.callId, userId: item.userId, status: item.status },
  };
}

/**
 * A stored `call.completed` body without its transcript (the call was deleted: its text must not
 * outlive it in the delivery list); undefined when the body carries none.
 */
export function withoutTranscript(body: string): string | undefined {
  const payload = JSON.parse(body) as { type?: string; data?: Record<string, unknown> };
  if (payload.type !== 'call.completed' || !payload.data || !('transcript' in payload.data)) return undefined;
  const { transcript: _removed, ...data } = payload.data;
  return JSON.stringify({ ...payload, data });
}
