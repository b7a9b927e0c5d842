import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { join } from 'node:path';
import type { Services } from '../createServices.js';
import { ApiError } from '../http/errors.js';
import { packageRoot } from '../infrastructure/packageRoot.js';
import { checkCsrfToken, checkOrigin, isStateChanging, requireSession } from './auth/adminGuard.js';
import { accessAuditRoutes } from './routes/accessAuditRoutes.js';
import { inferenceRoutes } from './routes/inferenceRoutes.js';
import { modelRoutes } from './routes/modelRoutes.js';
import { sessionRoutes } from './routes/sessionRoutes.js';
import { settingsRoutes } from './routes/settingsRoutes.js';
import { setupRoutes } from './routes/setupRoutes.js';
import { signInRoute } from './routes/signInRoute.js';
import { staticPages } from './routes/staticPages.js';
import { statusRoutes } from './routes/statusRoutes.js';
import { voiceProfileAdminRoutes } from './routes/voiceProfileAdminRoutes.js';
import { webhookRoutes } from './routes/webhookRoutes.js';
import { legalHoldRoutes } from './routes/legalHoldRoutes.js';
import { tlsRoutes } from './routes/tlsRoutes.js';

export interface AdminRoutesOptions {
  services: Services;
  /** Folder the admin pages are served from. Defaults to `<install folder>/src/admin/ui`. */
  uiRoot?: string;
}

/** Sent with every `/admin` response, pages and API alike. */
const securityHeaders = {
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The admin area under `/admin`, for the LAN (any client address; the session protects it):
 * static pages, and the JSON API under `/admin/api`. Setup, its status and sign-in are open;
 * every other API route needs the session cookie, and state-changing ones its CSRF token too.
 * The setup link itself is issued by `server.ts` once the server listens (`AdminSetupLink`).
 */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, { services, uiRoot = join(packageRoot, 'src/admin/ui') }) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(securityHeaders);
    return payload;
  });
  app.setNotFoundHandler((request) => {
    throw new ApiError('route_not_found', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
  });
  if (services.admin.storedSettingsProblems.length > 0) {
    app.log.warn({ problems: services.admin.storedSettingsProblems }, 'settings saved on the admin page were not applied: together with the environment they are invalid');
  }

  await app.register(async (api) => {
    api.addHook('onRequest', async (request) => {
      if (isStateChanging(request)) checkOrigin(request);
    });
    await api.register(setupRoutes, { services });
    await api.register(signInRoute, { services });
    await api.register(async (signedIn) => {
      signedIn.decorateRequest('adminSession', null);
      signedIn.addHook('onRequest', async (request) => {
        const session = await requireSession(services.admin.sessions, request, services.clock());
        if (isStateChanging(request)) checkCsrfToken(request, session);
        request.adminSession = session;
      });
      await signedIn.register(sessionRoutes, { services });
      await signedIn.register(statusRoutes, { services });
      await signedIn.register(settingsRoutes, { services });
      await signedIn.register(modelRoutes, { services });
      await signedIn.register(inferenceRoutes, { services });
      await signedIn.register(webhookRoutes, { services });
      await signedIn.register(accessAuditRoutes, { services });
      await signedIn.register(legalHoldRoutes, { services });
      await signedIn.register(voiceProfileAdminRoutes, { services });
      await signedIn.register(tlsRoutes, { services });
    });
  }, { prefix: '/api' });

  await app.register(staticPages, { uiRoot });
};
