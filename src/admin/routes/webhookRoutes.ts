import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { WebhookDeliveryRepository, type WebhookDeliverySummary } from '../../domain/webhooks/WebhookDeliveryRepository.js';
import { webhookEndpointsOf } from '../../domain/webhooks/webhookEndpoints.js';
import type { WebhookEventType } from '../../domain/webhooks/webhookPayloads.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import {
  WebhookDeliveriesQuerySchema, WebhookDeliveriesSchema, WebhookDeliveryParams, WebhookDeliverySchema, WebhookSigningSecretSchema, WebhooksOverviewSchema,
} from '../schemas/webhookSchemas.js';

/** The Webhooks page: endpoints and secret state, recent deliveries, a resend, and the signing secret. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const deliveries = new WebhookDeliveryRepository(services.database.sql);

  app.get('/webhooks', {
    schema: { summary: 'Webhook endpoints, whether the transcript is included, the signing secret\'s source and deliveries by state', response: { 200: WebhooksOverviewSchema, ...errorResponses(401) } },
  }, async () => {
    const source = await services.webhookSigningSecret.source();
    return {
      endpoints: webhookEndpointsOf(services.config.WEBHOOK_URLS),
      includeTranscript: services.config.WEBHOOK_INCLUDE_TRANSCRIPT,
      secret: { configured: source !== 'none', source },
      deliveries: await deliveries.countByState(),
    };
  });

  app.get('/webhooks/deliveries', {
    schema: {
      summary: 'The most recent webhook deliveries, newest first (no payload)',
      querystring: WebhookDeliveriesQuerySchema,
      response: { 200: WebhookDeliveriesSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => ({ deliveries: (await deliveries.recent(request.query.limit)).map(toDeliveryView) }));

  app.post('/webhooks/deliveries/:seq/resend', {
    schema: {
      summary: 'Send a delivery again now: pending, attempts counted afresh, the same `webhook-id`',
      params: WebhookDeliveryParams,
      response: { 200: WebhookDeliverySchema, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const { seq } = request.params;
    const existing = await deliveries.find(seq);
    if (!existing) throw new ApiError('admin_webhook_delivery_not_found');
    if (!webhookEndpointsOf(services.config.WEBHOOK_URLS).includes(existing.url)) {
      throw new ApiError('validation_failed', 'The delivery\'s endpoint is no longer in WEBHOOK_URLS; add it again to resend', { fields: [{ path: 'params/seq', message: 'its endpoint is not configured' }] });
    }
    const requeued = await deliveries.requeue(seq, services.clock());
    if (!requeued) throw new ApiError('admin_webhook_delivery_not_found');
    services.webhooks.wake();
    await recordAdminAction(services, request, {
      actor: 'admin', action: 'webhook_resend', target: `webhook_delivery:${seq}`,
      detail: { messageId: requeued.messageId, eventType: requeued.eventType, previousState: existing.state },
    });
    return toDeliveryView(requeued);
  });

  app.post('/webhooks/secret', {
    schema: {
      summary: 'Generate a new secret to sign webhooks with; the next attempt of every delivery is signed with it',
      response: { 200: WebhookSigningSecretSchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    if (services.config.WEBHOOK_SECRET) throw new ApiError('validation_failed', 'The webhook secret is set by the environment (WEBHOOK_SECRET); change it there and restart');
    const replaced = await services.webhookSigningSecret.source() === 'stored';
    const secret = await services.webhookSigningSecret.rotate(services.clock());
    // Deliveries that waited for a secret go now.
    services.webhooks.wake();
    await recordAdminAction(services, request, { actor: 'admin', action: 'webhook_secret_rotate', target: 'webhook_secret', detail: { replaced } });
    return { secret };
  });
};

function toDeliveryView(delivery: WebhookDeliverySummary) {
  return {
    seq: delivery.seq,
    messageId: delivery.messageId,
    eventType: delivery.eventType as WebhookEventType,
    url: delivery.url,
    state: delivery.state,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.state === 'pending' ? toIsoTimestamp(delivery.nextAttemptAt) : null,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    createdAt: toIsoTimestamp(delivery.createdAt),
    updatedAt: toIsoTimestamp(delivery.updatedAt),
    deliveredAt: delivery.deliveredAt === null ? null : toIsoTimestamp(delivery.deliveredAt),
  };
}
