import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../http/schemas/commonSchemas.js';
import { webhookEventTypes } from '../../domain/webhooks/webhookPayloads.js';

const DeliveryCounts = Type.Object({
  pending: Type.Integer({ description: 'Waiting for their first or next attempt' }),
  delivered: Type.Integer(),
  failed: Type.Integer({ description: 'Given up: WEBHOOK_MAX_ATTEMPTS reached, 410 Gone, or the endpoint taken off WEBHOOK_URLS' }),
});

export const WebhooksOverviewSchema = Type.Object({
  endpoints: Type.Array(Type.String(), { description: 'The receivers of WEBHOOK_URLS, normalised; empty: webhooks are off' }),
  includeTranscript: Type.Boolean({ description: 'WEBHOOK_INCLUDE_TRANSCRIPT: `call.completed` carries the transcript text' }),
  secret: Type.Object({
    configured: Type.Boolean(),
    source: Type.Enum(['env', 'stored', 'none'], { description: 'WEBHOOK_SECRET, the one generated here, or none (deliveries wait)' }),
  }),
  deliveries: DeliveryCounts,
});

export const WebhookDeliverySchema = Type.Object({
  seq: Type.Integer({ description: 'The delivery\'s number (for a resend)' }),
  messageId: Type.String({ description: 'The `webhook-id` header: the same for every endpoint, attempt and resend of one event' }),
  eventType: Type.Enum(webhookEventTypes),
  url: Type.String(),
  state: Type.Enum(['pending', 'delivered', 'failed']),
  attempts: Type.Integer({ description: 'Attempts made (since the last resend)' }),
  nextAttemptAt: Nullable(Timestamp),
  lastStatusCode: Nullable(Type.Integer({ description: 'The receiver\'s last HTTP status; null when none came' })),
  lastError: Nullable(Type.String({ description: 'Why the last attempt failed (never the body)' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deliveredAt: Nullable(Timestamp),
}, { description: 'One event to one endpoint; no payload' });

export const WebhookDeliveriesQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
}, { additionalProperties: false });

export const WebhookDeliveriesSchema = Type.Object({ deliveries: Type.Array(WebhookDeliverySchema, { description: 'Newest first' }) });

export const WebhookDeliveryParams = Type.Object({ seq: Type.Integer({ minimum: 1 }) });

export const WebhookSigningSecretSchema = Type.Object({ secret: Type.String({ description: 'The new `whsec_` secret, shown this once: give it to every receiver' }) });
