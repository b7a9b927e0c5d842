import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stat } from 'node:fs/promises';
import type { Services } from '../../createServices.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { installedModelManifest } from '../../infrastructure/models/loadModelManifest.js';
import { importModels, inspectModels } from '../../infrastructure/models/modelInventory.js';
import { slotsToFetch } from '../../infrastructure/models/prepareModelsAtStart.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { ModelDownloadSchema, ModelImportBodySchema, ModelImportResultsSchema, ModelSlotsSchema } from '../schemas/adminSchemas.js';

/** The model slots' state, downloading the recommended models, and importing model files from a folder on the box. */
export const modelRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/models', {
    schema: { summary: 'Every model slot: configured file, presence, digest and manifest check', response: { 200: ModelSlotsSchema, ...errorResponses(401) } },
  }, async () => ({ slots: await inspectModels(services.config, await installedModelManifest()) }));

  app.get('/models/fetch', {
    schema: { summary: 'The latest model download and its progress (idle when none ran)', response: { 200: ModelDownloadSchema, ...errorResponses(401) } },
  }, async () => services.modelDownloads.snapshot());

  app.post('/models/fetch', {
    schema: {
      summary: 'Download the recommended models into their slots in the background (resumable, SHA-256-checked; a good file is never replaced); joins a download already running',
      response: { 202: ModelDownloadSchema, ...errorResponses(401, 403) },
    },
  }, async (request, reply) => {
    const joined = services.modelDownloads.isRunning;
    const slots = slotsToFetch(services.config);
    // Not awaited: the page polls GET /models/fetch. The download reports its failures in its snapshot.
    void services.modelDownloads.start('admin', slots).catch((error: unknown) => request.log.error({ err: error }, 'model download failed'));
    if (!joined) await recordAdminAction(services, request, { actor: 'admin', action: 'model_fetch', target: slots.join(',') });
    return reply.code(202).send(services.modelDownloads.snapshot());
  });

  app.post('/models/import', {
    schema: {
      summary: 'Import model files from a folder on the box into their slots',
      body: ModelImportBodySchema,
      response: { 200: ModelImportResultsSchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const { directory } = request.body;
    if (!(await stat(directory).then((stats) => stats.isDirectory(), () => false))) {
      throw new ApiError('validation_failed', 'The folder does not exist on the box', { fields: [{ path: 'body/directory', message: 'is not a folder' }] });
    }
    const results = await importModels(directory, services.config, await installedModelManifest());
    await recordAdminAction(services, request, {
      actor: 'admin', action: 'model_import', target: directory,
      detail: { results: results.map(({ fileName, slot, outcome }) => ({ fileName, slot, outcome })) },
    });
    return { results };
  });
};
