import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { ConfigError, hasIdentitySource, loadConfig } from './config/loadConfig.js';
import { createServices, type Services } from './createServices.js';
import { armHoldPoints, holdPointsOf } from './infrastructure/faults/holdPoints.js';
import { prepareModelsAtStart } from './infrastructure/models/prepareModelsAtStart.js';
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
  const holdPoints = holdPointsOf(config.FAULT_HOLD_AT);
  if (holdPoints.length > 0) {
    app.log.warn({ holdPoints }, 'FAULT_HOLD_AT is set: this service stops at these fault-testing points; never set it in production');
    armHoldPoints(holdPoints, (holdPoint) => app.log.warn({ holdPoint }, 'holding at a fault-testing point'));
  }
  if (!hasIdentitySource(services.config)) app.log.warn('No identity source configured (OIDC_ISSUER or LOCAL_AUTH=true): every /api request will be refused');

  // Before listening: a second process on the same DATA_DIR is refused before it serves anything,
  // and what a crash left in DATA_DIR is repaired before the first upload arrives.
  const processing = await startProcessing(services, app.log.child({ component: 'processing' }));
  await app.listen({ port: config.PORT, host: config.HOST });
  printSetupLink(services, app.server.address());
  // In the background: the service answers (and takes uploads, which wait) while models download.
  void prepareModelsAtStart({
    config: services.config, downloads: services.modelDownloads, log: app.log.child({ component: 'models' }),
    ...(process.stdout.isTTY ? { terminal: process.stdout } : {}),
  });

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

/**
 * First run: prints the link that sets the admin password. The token in it is a secret, so it
 * goes to stdout directly, never through the logger (whose lines are kept and shipped).
 */
function printSetupLink(services: Services, address: AddressInfo | string | null): void {
  const { setupLink } = services.admin;
  const link = setupLink.prepare(address);
  if (!link) return;
  process.stdout.write(`\nNo admin password is set yet: open this link to set the admin password (valid 24 hours; also written to ${setupLink.path}):\n\n  ${link}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ProcessingLockHeld) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG: nothing to retry until the setup changes
  }
  console.error(error);
  process.exit(1);
});
