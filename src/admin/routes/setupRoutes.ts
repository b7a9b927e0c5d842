import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { SessionSchema, SetupBodySchema, SetupStatusSchema } from '../schemas/adminSchemas.js';
import { startSession } from './startSession.js';

/** First run: whether the password still needs setting, and setting it with the setup link's token. */
export const setupRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { account, setupLink } = services.admin;

  app.get('/setup', {
    schema: { summary: 'Whether the admin password still has to be set', response: { 200: SetupStatusSchema } },
  }, async () => ({ setupRequired: !(await account.hasPassword()) }));

  app.post('/setup', {
    schema: {
      summary: 'Set the first admin password with the setup link\'s token, and sign in',
      body: SetupBodySchema,
      response: { 200: SessionSchema, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (request, reply) => {
    const outcome = await account.completeSetup(request.body.token, request.body.password, services.clock());
    if (outcome === 'setup_done') throw new ApiError('admin_setup_done');
    if (outcome === 'bad_token') {
      request.log.warn('admin setup refused: setup token wrong or expired');
      throw new ApiError('admin_auth_required', 'The setup link is not valid (wrong or expired token); restart the service for a new one');
    }
    setupLink.remove();
    await recordAdminAction(services, request, { actor: 'setup', action: 'setup', target: 'password' });
    return startSession(services, request, reply);
  });
};
