import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { createAuthenticator } from '../auth/authenticate.js';
import { ApiError } from '../errors.js';
import { idempotencyDependenciesOf, registerIdempotency } from '../idempotency.js';
import { actionItemRoutes } from './actions/actionItemRoutes.js';
import { callDeletionRoutes } from './calls/callDeletionRoutes.js';
import { callEventsRoute } from './calls/callEventsRoute.js';
import { callExportRoutes } from './calls/callExportRoutes.js';
import { callQueryRoutes } from './calls/callQueryRoutes.js';
import { speakerCorrectionRoutes } from './calls/speakerCorrectionRoutes.js';
import { uploadCallRoute } from './calls/uploadCallRoute.js';
import { searchRoutes } from './search/searchRoutes.js';
import { userRoutes } from './users/userRoutes.js';
import { voiceProfileRoutes } from './users/voiceProfileRoutes.js';

/**
 * Everything under `/api` except the liveness probe: authentication, the per-user rate limit and
 * idempotency wrap every route registered here.
 */
export const apiRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const authenticate = createAuthenticator({ ...services, users: services.users });

  // JSON and multipart only: a text/plain body is refused with 415 instead of half-parsed.
  app.removeContentTypeParser('text/plain');
  await app.register(multipart, { throwFileSizeLimit: false });

  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request, reply) => {
    try {
      await authenticate(request);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'auth_invalid') services.metrics.authFailures.inc();
      throw error;
    }
    const retryAfterSeconds = services.rateLimiter.take(request.user!.id, services.clock());
    if (retryAfterSeconds > 0) {
      reply.header('retry-after', String(retryAfterSeconds));
      throw new ApiError('rate_limited', undefined, { retryAfterSeconds });
    }
  });
  registerIdempotency(app, idempotencyDependenciesOf(services));

  await app.register(uploadCallRoute, { services });
  await app.register(callQueryRoutes, { services });
  await app.register(callEventsRoute, { services });
  await app.register(callExportRoutes, { services });
  await app.register(callDeletionRoutes, { services });
  await app.register(speakerCorrectionRoutes, { services });
  await app.register(actionItemRoutes, { services });
  await app.register(searchRoutes, { services });
  await app.register(userRoutes, { services });
  await app.register(voiceProfileRoutes, { services });
};
