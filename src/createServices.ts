import { join } from 'node:path';
import { createAdminServices, type AdminServices } from './admin/createAdminServices.js';
import type { StoredApiKey } from './admin/credentials/StoredApiKey.js';
import type { Config } from './config/configSchema.js';
import { environmentKeysOf } from './config/loadConfig.js';
import { ActionItemRepository } from './domain/actions/ActionItemRepository.js';
import { AccessAuditTrail } from './domain/audit/AccessAuditTrail.js';
import { AuditWriterThread } from './domain/audit/auditWriter.js';
import { ArtifactRepository } from './domain/artifacts/ArtifactRepository.js';
import { CallCursor } from './domain/calls/CallCursor.js';
import { CallRepository } from './domain/calls/CallRepository.js';
import { ProcessingStatistics } from './domain/calls/ProcessingStatistics.js';
import { QueueSignal } from './domain/calls/QueueSignal.js';
import { IdempotencyRepository } from './domain/idempotency/IdempotencyRepository.js';
import { SettingsRepository } from './domain/settings/SettingsRepository.js';
import { TranscriptionWebhookSecret } from './domain/settings/TranscriptionWebhookSecret.js';
import { UserRepository } from './domain/users/UserRepository.js';
import { VoiceProfileRepository } from './domain/voiceProfiles/VoiceProfileRepository.js';
import { RateLimiter } from './http/RateLimiter.js';
import { TokenVerifier } from './http/auth/TokenVerifier.js';
import { systemClock, type Clock } from './infrastructure/clock.js';
import { EmbeddingCipher } from './infrastructure/crypto/EmbeddingCipher.js';
import { openDatabase, type DatabaseHandle } from './infrastructure/database/openDatabase.js';
import { inferenceServersCheck } from './infrastructure/health/inferenceServersCheck.js';
import { databaseCheck, diskSpaceCheck, modelsCheck, storageCheck, type ReadinessCheck } from './infrastructure/health/readinessChecks.js';
import { Metrics } from './infrastructure/metrics/Metrics.js';
import { installedModelManifest } from './infrastructure/models/loadModelManifest.js';
import { ModelDownloads } from './infrastructure/models/ModelDownloads.js';
import { ObjectStore } from './infrastructure/storage/ObjectStore.js';
import { transcriptionSettingsFromConfig } from './pipeline/transcription/transcriptionOptionsFromConfig.js';
import { CallbackTranscription } from './processing/callbackTranscription.js';
import { TranscriptionJobs } from './processing/TranscriptionJobs.js';
import { StoredWebhookSecret } from './domain/settings/StoredWebhookSecret.js';
import { WebhookOutbox } from './domain/webhooks/WebhookOutbox.js';
import { WebhookDispatcher } from './infrastructure/webhooks/WebhookDispatcher.js';
import { BoxCertificate } from './infrastructure/tls/BoxCertificate.js';

/** Everything the HTTP layer and the pipeline share, created once per process (or per test app). */
export interface Services {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  store: ObjectStore;
  users: UserRepository;
  calls: CallRepository;
  actionItems: ActionItemRepository;
  artifacts: ArtifactRepository;
  idempotency: IdempotencyRepository;
  /** Voice profiles; their embeddings are encrypted with the key in `SERVICE_VOICE_KEY_FILE`. */
  voiceProfiles: VoiceProfileRepository;
  settings: SettingsRepository;
  processingStatistics: ProcessingStatistics;
  cursor: CallCursor;
  tokenVerifier?: TokenVerifier;
  rateLimiter: RateLimiter;
  metrics: Metrics;
  /** Raised when a call is queued, so the engine need not wait for its next poll. */
  queueSignal: QueueSignal;
  /** Transcription jobs waiting for a provider's callback, and the callbacks accepted. */
  transcriptionJobs: TranscriptionJobs;
  /** The secret the provider's callbacks are signed with (environment, or generated on the admin page). */
  transcriptionWebhookSecret: TranscriptionWebhookSecret;
  /** Callback mode's submission, storage and resumption (`TRANSCRIPTION_PROVIDER=callback`; unused otherwise). */
  callbackTranscription: CallbackTranscription;
  /** Model downloads (at first start, or from the admin page), one at a time, with their progress. */
  modelDownloads: ModelDownloads;
  /** Named readiness checks; later components (the worker pool) add theirs. */
  readinessChecks: Record<string, ReadinessCheck>;
  /** The admin area: account, sessions, audit log, settings saved on the admin page. */
  admin: AdminServices;
  /** The API key generated on the admin page; the `/api` guard uses it when `API_KEY` is unset. */
  storedApiKey: StoredApiKey;
  /** Signed webhooks to the site's systems (WEBHOOK_URLS): events are recorded here, in the transaction of the change. */
  webhooks: WebhookOutbox;
  /** The secret webhooks are signed with (WEBHOOK_SECRET, or generated on the admin page). */
  webhookSigningSecret: StoredWebhookSecret;
  /** Sends the recorded webhooks; `runNode` starts it on every node, `close` stops it. */
  webhookDispatcher: WebhookDispatcher;
  /** Who read, exported, deleted or changed what (`access_audit`): `record` buffers, batches are chained and written. */
  accessAudit: AccessAuditTrail;
  /** The certificate HTTPS serves (`TLS=auto`): loaded, or made, on first use (`runNode`, the admin page); `close` stops its watch. */
  tls: BoxCertificate;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Defaults to the system clock. */
  clock?: Clock;
  /** Collect Node process metrics (off in tests that build many apps). Defaults to `true`. */
  processMetrics?: boolean;
  /**
   * Whether this process will process calls. An API-only node (`EMBEDDED_WORKER=false`) needs no
   * model files and talks to no inference server, so its readiness checks neither. Defaults to `true`.
   */
  processesCalls?: boolean;
}

export async function createServices(loadedConfig: Config, options: ServiceOptions = {}): Promise<Services> {
  // A copy: settings saved on the admin page change it while the service runs, never the caller's object.
  const config: Config = { ...loadedConfig };
  const clock = options.clock ?? systemClock;
  const database = await openDatabase(config);
  const settings = new SettingsRepository(database.sql);
  // Before anything reads `config`: stored settings apply where no env variable is set.
  const { admin, storedApiKey } = await createAdminServices(database.sql, config, environmentKeysOf(loadedConfig), clock);
  const { OIDC_ISSUER, OIDC_AUDIENCE } = config;
  const queueSignal = new QueueSignal();
  const inferenceServers = inferenceServersCheck(config);
  const store = new ObjectStore(config.DATA_DIR);
  const transcriptionJobs = new TranscriptionJobs(database.sql);
  const cursorKey = await settings.secret('cursor_signing_key', clock());
  const webhookSecret = new TranscriptionWebhookSecret(settings, config);
  const webhooks = new WebhookOutbox(config);
  const webhookSigningSecret = new StoredWebhookSecret(settings, () => config.WEBHOOK_SECRET, 'webhook_signing_secret');
  const webhookDispatcher = new WebhookDispatcher({ database: database.sql, outbox: webhooks, config, secret: () => webhookSigningSecret.current(), clock });
  const accessAudit = new AccessAuditTrail({
    database: database.sql, clock, enabled: config.ACCESS_AUDIT === 'on',
    // better-sqlite3 writes on the calling thread: the trail's batches go to a thread of their own.
    ...(database.dialect === 'sqlite' ? { writer: new AuditWriterThread({ dataDir: config.DATA_DIR }) } : {}),
  });
  const tls = new BoxCertificate(config, clock);
  return {
    config,
    clock,
    database,
    store,
    transcriptionJobs,
    transcriptionWebhookSecret: webhookSecret,
    // Read per call: the server's URL and key may change on the admin page while the service runs.
    callbackTranscription: new CallbackTranscription(store, transcriptionJobs, () => {
      const settings = transcriptionSettingsFromConfig(config);
      if (settings.provider !== 'callback') throw new Error('TRANSCRIPTION_PROVIDER is not callback');
      return { ...settings.http, callbackUrl: settings.callbackUrl };
    }, async () => (await webhookSecret.current()) !== undefined),
    users: new UserRepository(database.sql),
    calls: new CallRepository(database.sql),
    actionItems: new ActionItemRepository(database.sql),
    artifacts: new ArtifactRepository(database.sql),
    idempotency: new IdempotencyRepository(database.sql),
    voiceProfiles: new VoiceProfileRepository(database.sql, () => EmbeddingCipher.fromKeyFile(voiceKeyFileOf(config))),
    settings,
    processingStatistics: new ProcessingStatistics(database.sql),
    cursor: new CallCursor(cursorKey),
    ...(OIDC_ISSUER && OIDC_AUDIENCE ? { tokenVerifier: new TokenVerifier({ ...config, OIDC_ISSUER, OIDC_AUDIENCE }) } : {}),
    rateLimiter: new RateLimiter(config.RATE_LIMIT_PER_MINUTE, config.RATE_LIMIT_BURST),
    metrics: new Metrics({ processMetrics: options.processMetrics ?? true }),
    queueSignal,
    // A model that arrives lets waiting calls start: wake the engine rather than wait for its next look.
    modelDownloads: new ModelDownloads(config, { manifest: installedModelManifest, onInstalled: () => queueSignal.notify() }),
    readinessChecks: {
      database: databaseCheck(database), storage: storageCheck(store), diskSpace: diskSpaceCheck(config),
      ...(options.processesCalls === false ? {} : { models: modelsCheck(config), ...(inferenceServers ? { inferenceServers } : {}) }),
    },
    admin,
    storedApiKey,
    webhooks,
    webhookSigningSecret,
    webhookDispatcher,
    tls,
    accessAudit,
    close: async () => {
      tls.close();
      await webhookDispatcher.stop();
      await accessAudit.close();
      await database.close();
    },
  };
}

/** Where the key that encrypts voice embeddings lives. */
export function voiceKeyFileOf(config: Pick<Config, 'SERVICE_VOICE_KEY_FILE' | 'DATA_DIR'>): string {
  return config.SERVICE_VOICE_KEY_FILE ?? join(config.DATA_DIR, 'keys', 'voice-embeddings.key');
}
