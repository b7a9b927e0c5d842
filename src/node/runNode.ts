import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, tlsServerOptions } from '../app.js';
import { isLoopbackAddress } from '../http/loopback.js';
import type { Config } from '../config/configSchema.js';
import type { CertificateInUse } from '../infrastructure/tls/BoxCertificate.js';
import { trustSiteAuthorities } from '../infrastructure/tls/trustSiteAuthorities.js';
import { hasIdentitySource, loadConfig } from '../config/loadConfig.js';
import { createServices, type Services } from '../createServices.js';
import { armHoldPoints, holdPointsOf } from '../infrastructure/faults/holdPoints.js';
import { installedModelManifest } from '../infrastructure/models/loadModelManifest.js';
import { inspectModels } from '../infrastructure/models/modelInventory.js';
import { prepareModelsAtStart } from '../infrastructure/models/prepareModelsAtStart.js';
import { packageVersion } from '../infrastructure/packageRoot.js';
import { heartbeatIntervalMs } from '../processing/ProcessingEngine.js';
import { startProcessing, type Processing } from '../processing/startProcessing.js';
import { currentProcessScope } from '../infrastructure/processes/processScope.js';
import { NodeRegistry, type NodeIdentity, type NodeModel, type NodeRole } from './NodeRegistry.js';
import { listenNode, type NodeListeners, type NodePorts } from './listenNode.js';
import { refuseRequestsUntilStarted } from './refuseRequestsUntilStarted.js';

/**
 * Runs this process as a node of the site until SIGTERM/SIGINT:
 * - `serve` (what `npm start` runs): the API, the admin page and, unless EMBEDDED_WORKER=false,
 *   a worker, over HTTPS on HOST:HTTPS_PORT with plain HTTP on HOST:PORT for the box itself
 *   (`TLS=auto`), or on HOST:PORT alone (`TLS=off`);
 * - `worker`: processing only, with `/actuator/health`, readiness and metrics on HOST:NODE_PORT.
 * Any number of nodes run against one database (DATABASE_URL) and one storage folder (DATA_DIR).
 * A node binds its port before it registers or takes a call (one whose port is taken ends with
 * {@link PortUnavailable}), and answers requests 503 until it has started.
 * Each registers in the `nodes` table and beats every LEASE_TIMEOUT_SECONDS / 6: its calls are
 * marked alive, settings saved on another node's admin page are applied, and the calls of
 * nodes gone silent are taken over. A stop is graceful: no new calls, running ones finish within
 * SHUTDOWN_GRACE_SECONDS or go back to the queue, threads free their models, the database closes.
 */
export async function runNode(role: NodeRole): Promise<void> {
  const config = loadConfig();
  trustSiteAuthorities(config.EXTRA_CA_FILE);
  const processes = role === 'worker' || config.EMBEDDED_WORKER;
  const services = await createServices(config, { processesCalls: processes });
  const processScope = currentProcessScope();
  const identity: NodeIdentity = {
    id: `${role}-${randomUUID()}`, host: hostname(), role, version: packageVersion, pid: process.pid, processes, ...(processScope ? { processScope } : {}),
  };
  // A site certificate from TLS_CERT_FILE that fails its check ends the start here (exit 78).
  const certificate = role === 'serve' && config.TLS === 'auto' ? await services.tls.current() : undefined;
  const app = await buildApp({ services, surface: role === 'serve' ? 'full' : 'health', ...(certificate ? { https: tlsServerOptions(certificate.pair) } : {}) });
  const log = app.log.child({ node: identity.id });
  const holdPoints = holdPointsOf(config.FAULT_HOLD_AT);
  if (holdPoints.length > 0) {
    log.warn({ holdPoints }, 'FAULT_HOLD_AT is set: this node stops at these fault-testing points; never set it in production');
    armHoldPoints(holdPoints, (holdPoint) => log.warn({ holdPoint }, 'holding at a fault-testing point'));
  }
  if (role === 'serve' && !hasIdentitySource(services.config)) log.warn('No identity source configured (OIDC_ISSUER or LOCAL_AUTH=true): every /api request will be refused');
  if (!processes) log.info('EMBEDDED_WORKER=false: this node serves the API only; `callscope worker` nodes process the calls');

  // The port first: a node whose port is taken ends here, before it registers or claims a call.
  // Until the start is done every request is answered 503: no upload arrives before what a crash
  // left in DATA_DIR is repaired, and a second engine refused on an embedded database has served nothing.
  const markStarted = refuseRequestsUntilStarted(app);
  const registry = new NodeRegistry(services.database.sql);
  const leaseTimeoutMs = config.LEASE_TIMEOUT_SECONDS * 1000;
  let processing: Processing | undefined;
  let listeners: NodeListeners | undefined;
  try {
    listeners = await listenNode(app, portsOf(role, config, certificate !== undefined));
    // Registered before it looks at the others: of two nodes starting at once, each sees the other.
    await registry.register(identity, services.clock());
    if (processes) processing = await startProcessingAsNode(services, registry, identity, leaseTimeoutMs, log);
  } catch (error) {
    // The ports and the database are let go, so that the process ends with its exit code.
    await listeners?.close();
    await app.close();
    await services.close();
    throw error;
  }
  // Every node sends the site's webhooks (a lease keeps two from sending one); `services.close()` stops it.
  services.webhookDispatcher.start(log.child({ component: 'webhooks' }));
  services.accessAudit.reportWriteErrorsTo((error, pending) => log.error({ err: error, pending }, 'access audit records not written yet; kept for the next try'));
  if (services.webhooks.enabled && (await services.webhookSigningSecret.source()) === 'none') {
    log.warn('WEBHOOK_URLS is set but no WEBHOOK_SECRET: webhooks wait until a signing secret is generated on the admin page (Webhooks)');
  }
  if (certificate) {
    // A certificate changed on disk, uploaded or renewed: served to new connections, open ones keep theirs.
    services.tls.onChange((next) => (app.server as unknown as TlsServer).setSecureContext(tlsServerOptions(next.pair)));
    services.tls.watch(log.child({ component: 'tls' }));
    const { source, origin, details } = certificate;
    if (config.PUBLIC_URL?.startsWith('http://') && !isLoopbackAddress(new URL(config.PUBLIC_URL).hostname.replace(/^\[|\]$/g, ''))) {
      log.warn('PUBLIC_URL is a plain-HTTP address: callbacks from another machine to it are answered 308 to HTTPS; set it to the box\'s https:// address (HTTPS_PORT) and have the provider trust the box\'s certificate');
    }
    log.info({ httpsPort: listeners.app.port, httpPort: listeners.plainHttp?.port, source, origin, fingerprintSha256: details.fingerprintSha256, notAfter: details.notAfter }, 'serving HTTPS; plain HTTP answers loopback clients and the health probes, and sends others to HTTPS');
  }
  markStarted();
  log.info({ role, database: services.database.location, processes, version: packageVersion }, 'node started');
  if (role === 'serve') await printFirstStart(services, listeners.app, certificate);
  // In the background: the node answers (and takes uploads, which wait) while models download.
  if (processes) {
    void prepareModelsAtStart({
      config: services.config, downloads: services.modelDownloads, log: log.child({ component: 'models' }),
      ...(process.stdout.isTTY ? { terminal: process.stdout } : {}),
    });
  }

  const beat = async () => {
    try {
      await registry.beat(identity.id, { callsInFlight: processing?.engine.activeCallIds.length ?? 0, models: processes ? await modelsHeld(services) : null }, services.clock());
      const applied = await services.admin.settings.refresh();
      if (applied.length > 0) log.info({ settings: applied }, 'settings changed on another node applied');
    } catch (error) {
      log.warn({ err: error }, 'node heartbeat failed (database unreachable?)');
    }
  };
  const heartbeat = setInterval(() => void beat(), heartbeatIntervalMs(services.config));
  heartbeat.unref();
  // At once too: the admin page shows the node's models from its first beat, not a beat later.
  void beat();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    clearInterval(heartbeat);
    await Promise.all([processing?.stop(), app.close(), listeners.close()]);
    await registry.stopped(identity.id, services.clock()).catch(() => undefined);
    await services.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** The ports of a node: a `serve` node with HTTPS serves it on HTTPS_PORT and plain HTTP on PORT; else PORT (a worker: NODE_PORT). */
function portsOf(role: NodeRole, config: Config, https: boolean): NodePorts {
  if (role === 'worker') return { host: config.HOST, app: { setting: 'NODE_PORT', port: config.NODE_PORT } };
  if (!https) return { host: config.HOST, app: { setting: 'PORT', port: config.PORT } };
  return { host: config.HOST, app: { setting: 'HTTPS_PORT', port: config.HTTPS_PORT }, plainHttp: { setting: 'PORT', port: config.PORT } };
}

/**
 * Starts this node's processing with its id as the lease: what a crash left in DATA_DIR is
 * repaired first (on shared storage at once only when no other node is alive, e.g. a restart
 * after a crash), and a second engine on an embedded database is refused.
 */
async function startProcessingAsNode(services: Services, registry: NodeRegistry, identity: NodeIdentity, leaseTimeoutMs: number, log: FastifyBaseLogger): Promise<Processing> {
  const goneLeases = async () => (await registry.survey(identity, services.clock(), leaseTimeoutMs)).goneNodeIds;
  const surveyedAt = services.clock();
  const { othersAlive } = await registry.survey(identity, surveyedAt, leaseTimeoutMs);
  try {
    return await startProcessing(services, log.child({ component: 'processing' }), undefined, {
      lease: identity.id, goneLeases, ...(othersAlive === 0 ? { aloneSince: surveyedAt } : {}),
    });
  } catch (error) {
    // Refused (another engine holds the embedded database's DATA_DIR): not listed as running.
    await registry.stopped(identity.id, services.clock()).catch(() => undefined);
    throw error;
  }
}

/** The model slots this node holds and whether each verifies (digests are cached: cheap after the first look). */
async function modelsHeld(services: Services): Promise<NodeModel[]> {
  const statuses = await inspectModels(services.config, await installedModelManifest());
  return statuses.map((status) => ({ slot: status.slot, fileName: status.fileName, check: status.check }));
}

/**
 * First run: prints the link that sets the admin password (on HTTPS when the box serves it) and
 * the certificate's fingerprint, to compare with what the browser shows before trusting it.
 * The token in the link is a secret, so it goes to stdout directly, never through the logger
 * (whose lines are kept and shipped).
 */
async function printFirstStart(services: Services, address: AddressInfo, certificate: CertificateInUse | undefined): Promise<void> {
  const { setupLink } = services.admin;
  const link = await setupLink.prepare(address, certificate ? 'https' : 'http');
  if (!link) return;
  const tls = certificate
    ? `The box serves HTTPS at ${new URL(link).origin} with ${certificate.source === 'generated' ? 'a certificate it made itself (the browser warns until it is trusted or replaced)' : 'the site\'s certificate'}; its SHA-256 fingerprint:\n\n  ${certificate.details.fingerprintSha256}\n\n`
    : '';
  process.stdout.write(`\nNo admin password is set yet: open this link to set the admin password (valid 24 hours; also written to ${setupLink.path}):\n\n  ${link}\n\n${tls}`);
}
