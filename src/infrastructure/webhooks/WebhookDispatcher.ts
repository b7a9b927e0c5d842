import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/configSchema.js';
import { retryDelayMs } from '../../domain/webhooks/retrySchedule.js';
import { WebhookDeliveryRepository, type WebhookDeliveryRecord } from '../../domain/webhooks/WebhookDeliveryRepository.js';
import { endpointHost, webhookEndpointsOf } from '../../domain/webhooks/webhookEndpoints.js';
import type { WebhookOutbox } from '../../domain/webhooks/WebhookOutbox.js';
import type { Clock } from '../clock.js';
import type { SqlDatabase } from '../database/SqlDatabase.js';
import { signWebhook } from '../inference/standardWebhooks.js';
import { postWebhook, type PostResult } from './postWebhook.js';

export interface WebhookDispatcherOptions {
  database: SqlDatabase;
  /** Wakes the dispatcher when this node has committed new events. */
  outbox: WebhookOutbox;
  /** Read at each use: the admin page may change the endpoints while the service runs. */
  config: Pick<Config, 'WEBHOOK_URLS' | 'WEBHOOK_MAX_ATTEMPTS' | 'WEBHOOK_TIMEOUT_SECONDS' | 'WEBHOOK_RETENTION_DAYS'>;
  /** The secret in force, read for every pass: a rotation signs the next attempt with the new one. */
  secret: () => Promise<string | undefined>;
  clock: Clock;
  /** Names this dispatcher's leases (with a counter per claim). Defaults to a random id. */
  id?: string;
  /** How often due deliveries are looked for without a wake-up, ms. Defaults to `2000`. */
  pollIntervalMs?: number;
  /** The wait after `failedAttempts` failed attempts, ms. Defaults to the Standard Webhooks schedule with jitter ({@link retryDelayMs}). */
  retryDelayMs?: (failedAttempts: number) => number;
  /** Deliveries sent at once. Defaults to `4`. */
  concurrency?: number;
}

/** How often delivered and failed rows past WEBHOOK_RETENTION_DAYS are removed, ms. */
const pruneIntervalMs = 60 * 60_000;
/** A lease outlasts the request's timeout by this much, ms: only a node that died mid-send loses one. */
const leaseMarginMs = 60_000;

/**
 * Sends the outbox's webhooks from this node, on every node of the site: due rows are claimed under
 * a lease (so no two nodes send one message at once), signed at send time with the secret in force
 * (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) and POSTed. A 2xx
 * delivers; anything else is tried again after the backoff, up to WEBHOOK_MAX_ATTEMPTS; a 410 Gone
 * gives up at once. Logs say the message id, event type, the URL's host and the status code, never
 * the body.
 */
export class WebhookDispatcher {
  readonly id: string;
  private readonly deliveries: WebhookDeliveryRepository;
  private readonly stopSignal = new AbortController();
  private log: FastifyBaseLogger | undefined;
  private timers: NodeJS.Timeout[] = [];
  private stopListening: (() => void) | undefined;
  private running = false;
  /** The pass under way, if any. */
  private pass: Promise<void> | undefined;
  /** A wake arrived during a pass: look again when it ends. */
  private wakeRequested = false;
  private claims = 0;
  /** Said once while deliveries wait for a secret, not at every poll. */
  private warnedNoSecret = false;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.id = options.id ?? `webhooks-${randomUUID()}`;
    this.deliveries = new WebhookDeliveryRepository(options.database);
  }

  /** Starts polling and listening for this node's events; sends what is due now. */
  start(log: FastifyBaseLogger): void {
    if (this.running || this.stopSignal.signal.aborted) return;
    this.running = true;
    this.log = log;
    this.stopListening = this.options.outbox.listen(() => this.wake());
    this.timers = [
      setInterval(() => this.wake(), this.options.pollIntervalMs ?? 2000),
      setInterval(() => void this.prune(), pruneIntervalMs),
    ];
    for (const timer of this.timers) timer.unref();
    void this.prune();
    this.wake();
  }

  /** Looks for due deliveries now (called on events committed here, and by the poll). */
  wake(): void {
    if (!this.running) return;
    if (this.pass) {
      this.wakeRequested = true;
      return;
    }
    this.pass = (async () => {
      do {
        this.wakeRequested = false;
        await this.sendDue().catch((error: unknown) => this.log?.warn({ err: error }, 'could not send webhooks (database unreachable?)'));
      } while (this.wakeRequested && this.running);
    })().finally(() => { this.pass = undefined; });
  }

  /** Resolves once the pass under way (if any) has ended: for tests and `stop`. */
  async idle(): Promise<void> {
    while (this.pass) await this.pass;
  }

  /** Stops: requests under way are cut off and their rows given back unsent, for the next node or start. */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearInterval(timer);
    this.stopListening?.();
    this.stopSignal.abort();
    await this.idle();
  }

  /** Removes delivered and failed rows older than WEBHOOK_RETENTION_DAYS (0 keeps them); how many. */
  async prune(): Promise<number> {
    const days = this.options.config.WEBHOOK_RETENTION_DAYS;
    if (days === 0) return 0;
    try {
      const removed = await this.deliveries.prune(this.options.clock() - days * 24 * 60 * 60_000);
      if (removed > 0) this.log?.info({ removed, retentionDays: days }, 'webhook deliveries past retention removed');
      return removed;
    } catch (error) {
      this.log?.warn({ err: error }, 'could not remove old webhook deliveries');
      return 0;
    }
  }

  /** Claims and sends due rows, `concurrency` at a time, until none is due. */
  private async sendDue(): Promise<void> {
    const secret = await this.options.secret();
    if (secret === undefined) {
      await this.warnWithoutSecret();
      return;
    }
    this.warnedNoSecret = false;
    const concurrency = this.options.concurrency ?? 4;
    const inFlight = new Set<Promise<void>>();
    while (this.running) {
      const room = concurrency - inFlight.size;
      const claimed = room > 0 ? await this.claim(room) : { rows: [], lease: '' };
      for (const row of claimed.rows) {
        const sending = this.send(row, secret, claimed.lease).finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      if (inFlight.size === 0) return;
      // A slot frees (or the claim came back short): look again then.
      await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  }

  private async claim(limit: number): Promise<{ rows: WebhookDeliveryRecord[]; lease: string }> {
    const now = this.options.clock();
    this.claims += 1;
    const lease = `${this.id}#${this.claims}`;
    const leaseUntil = now + this.options.config.WEBHOOK_TIMEOUT_SECONDS * 1000 + leaseMarginMs;
    return { rows: await this.deliveries.claimDue(lease, now, leaseUntil, limit), lease };
  }

  private async send(row: WebhookDeliveryRecord, secret: string, lease: string): Promise<void> {
    const { clock, config } = this.options;
    const timestampSeconds = Math.floor(clock() / 1000);
    // Taken off WEBHOOK_URLS since the event: the admin no longer wants it to hear from us.
    const endpointRemoved = !webhookEndpointsOf(config.WEBHOOK_URLS).includes(row.url);
    const result: PostResult = !endpointRemoved
      ? await postWebhook({
        url: row.url, messageId: row.messageId, timestampSeconds, signature: signWebhook(secret, row.messageId, timestampSeconds, row.payload), body: row.payload,
      }, { timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000, signal: this.stopSignal.signal })
      : { stopped: false, statusCode: null, error: 'the endpoint is no longer in WEBHOOK_URLS' };
    try {
      if (result.stopped) {
        await this.deliveries.release(row.seq, lease);
        return;
      }
      const now = clock();
      const attempt = row.attempts + 1;
      const about = { messageId: row.messageId, eventType: row.eventType, host: endpointHost(row.url), statusCode: result.statusCode, attempt };
      if (result.error === null && result.statusCode !== null) {
        await this.deliveries.recordDelivered(row.seq, lease, result.statusCode, now);
        this.log?.info(about, 'webhook delivered');
        return;
      }
      const givingUp = endpointRemoved || result.statusCode === 410 || attempt >= config.WEBHOOK_MAX_ATTEMPTS;
      const nextAttemptAt = givingUp ? undefined : now + (this.options.retryDelayMs ?? retryDelayMs)(attempt);
      await this.deliveries.recordFailedAttempt(row.seq, lease, result, nextAttemptAt, now);
      this.log?.warn({ ...about, error: result.error, ...(nextAttemptAt === undefined ? {} : { retryInSeconds: Math.round((nextAttemptAt - now) / 1000) }) },
        givingUp ? 'webhook failed: no more attempts' : 'webhook attempt failed; it will be retried');
    } catch (error) {
      this.log?.warn({ err: error, messageId: row.messageId }, 'could not record a webhook attempt (database unreachable?)');
    }
  }

  private async warnWithoutSecret(): Promise<void> {
    if (this.warnedNoSecret) return;
    if ((await this.deliveries.countByState()).pending === 0) return;
    this.warnedNoSecret = true;
    this.log?.warn('webhooks wait: no WEBHOOK_SECRET is set and none was generated on the admin page (Webhooks)');
  }
}
