import { buildApp } from './app.js';
import { ConfigError, hasIdentitySource, loadConfig } from './config/loadConfig.js';
import { createServices } from './createServices.js';
import { ProcessingLockHeld } from './processing/ProcessingLock.js';
import { startProcessing } from './processing/startProcessing.js';

/**
 * Starts the service: validated configuration, database (migrated), HTTP on HOST:PORT, and the
 * processing engine. SIGTERM/SIGINT stop it gracefully: no new calls are taken, HTTP requests in
 * progress finish, calls in flight finish within SHUTDOWN_GRACE_SECONDS or go back to the queue,
 * worker threads free their models, and the database is closed.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const services = createServices(config);
  const app = await buildApp({ services });
  if (!hasIdentitySource(config)) app.log.warn('No identity source configured (OIDC_ISSUER or LOCAL_AUTH=true): every /api request will be refused');

  // Before listening: a second process on the same DATA_DIR is refused before it serves anything.
  const processing = startProcessing(services, app.log.child({ component: 'processing' }));
  await app.listen({ port: config.PORT, host: config.HOST });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await Promise.all([processing.stop(), app.close()]);
    services.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ProcessingLockHeld) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG: nothing to retry until the setup changes
  }
  console.error(error);
  process.exit(1);
});
