import { buildApp } from './app.js';
import { ConfigError, hasIdentitySource, loadConfig } from './config/loadConfig.js';
import { createServices } from './createServices.js';

/** Starts the service: validated configuration, database (migrated), HTTP on HOST:PORT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const services = createServices(config);
  const app = await buildApp({ services });
  if (!hasIdentitySource(config)) app.log.warn('No identity source configured (OIDC_ISSUER or LOCAL_AUTH=true): every /api request will be refused');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    services.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG
  }
  console.error(error);
  process.exit(1);
});
