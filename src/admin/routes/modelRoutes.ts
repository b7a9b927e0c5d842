import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stat } from 'node:fs/promises';
import type { Services } from '../../createServices.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { installedModelManifest } from '../../infrastructure/models/loadModelManifest.js';
import { importModels, inspectModels } from '../../infrastructure/models/modelInventory.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { ModelImportBodySchema, ModelImportResultsSchema, ModelSlotsSchema } from '../schemas/adminSchemas.js';

/** The model slots' state, and importing model files from a folder on the box. */
export const modelRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/models', {
    schema: { summary: 'Every model slot: configured file, presence, digest and manifest check', response: { 200: ModelSlotsSchema, ...errorResponses(401) } },
  }, async () => ({ slots: await inspectModels(services.config, await installedModelManifest()) }));

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
    recordAdminAction(services, request, {
      actor: 'admin', action: 'model_import', target: directory,
      detail: { results: results.map(({ fileName, slot, outcome }) => ({ fileName, slot, outcome })) },
    });
    return { results };
  });
};
