import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { SettingsRejected } from '../settings/AdminSettings.js';
import { ApiKeySchema, SettingsPatchSchema, SettingsSchema, WebhookSecretSchema } from '../schemas/adminSchemas.js';

/** The settings the admin page may change, and the `/api` key generated here. */
export const settingsRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const describe = async () => {
    const createdAt = await services.storedApiKey.createdAt();
    const apiKey = services.config.API_KEY
      ? { configured: true, source: 'env' as const }
      : createdAt !== undefined
        ? { configured: true, source: 'stored' as const, createdAt: toIsoTimestamp(createdAt) }
        : { configured: false, source: 'none' as const };
    const webhookSource = await services.transcriptionWebhookSecret.source();
    return { settings: await services.admin.settings.describe(), apiKey, transcriptionWebhookSecret: { configured: webhookSource !== 'none', source: webhookSource } };
  };
  const refuseWhenEnvironmentKey = () => {
    if (services.config.API_KEY) throw new ApiError('validation_failed', 'The API key is set by the environment (API_KEY); change it there');
  };

  app.get('/settings', {
    schema: { summary: 'Editable settings with their source, and whether an API key is required', response: { 200: SettingsSchema, ...errorResponses(401) } },
  }, async () => describe());

  app.patch('/settings', {
    schema: {
      summary: 'Change settings; live ones apply at once, the others at the next start',
      body: SettingsPatchSchema,
      response: { 200: SettingsSchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    let changes: Record<string, unknown>;
    try {
      changes = await services.admin.settings.change(request.body.values, services.clock());
    } catch (error) {
      if (error instanceof SettingsRejected) throw new ApiError('validation_failed', 'The settings are not valid', { fields: error.fields });
      throw error;
    }
    if (Object.keys(changes).length > 0) await recordAdminAction(services, request, { actor: 'admin', action: 'settings_change', target: 'settings', detail: { changes } });
    return describe();
  });

  app.post('/api-key', {
    schema: {
      summary: 'Generate a new API key for /api, replacing the previous one at once',
      response: { 200: ApiKeySchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    refuseWhenEnvironmentKey();
    const replaced = (await services.storedApiKey.digest()) !== undefined;
    const apiKey = await services.storedApiKey.rotate(services.clock());
    await recordAdminAction(services, request, { actor: 'admin', action: 'api_key_rotate', target: 'api_key', detail: { replaced } });
    return { apiKey };
  });

  app.post('/transcription-webhook-secret', {
    schema: {
      summary: 'Generate a new secret for the transcription provider\'s callbacks; the old one stops working at once',
      response: { 200: WebhookSecretSchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    if (services.config.TRANSCRIPTION_WEBHOOK_SECRET) throw new ApiError('validation_failed', 'The webhook secret is set by the environment (TRANSCRIPTION_WEBHOOK_SECRET); change it there and restart');
    const replaced = await services.transcriptionWebhookSecret.source() === 'stored';
    const secret = await services.transcriptionWebhookSecret.rotate(services.clock());
    await recordAdminAction(services, request, { actor: 'admin', action: 'transcription_webhook_secret_rotate', target: 'transcription_webhook_secret', detail: { replaced } });
    return { secret };
  });

  app.delete('/api-key', {
    schema: { summary: 'Stop requiring an API key on /api', response: { 204: {}, ...errorResponses(400, 401, 403) } },
  }, async (request, reply) => {
    refuseWhenEnvironmentKey();
    const removed = await services.storedApiKey.remove();
    await recordAdminAction(services, request, { actor: 'admin', action: 'api_key_remove', target: 'api_key', detail: { removed } });
    return reply.code(204).send();
  });
};
