import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Services } from '../../src/createServices.js';
import type { WebhookPayload } from '../../src/domain/webhooks/webhookPayloads.js';
import { verifyWebhook, type WebhookRefusal } from '../../src/infrastructure/inference/standardWebhooks.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../../src/infrastructure/webhooks/WebhookDispatcher.js';
import { waitFor } from './processingHarness.js';
import { startTestApp, type TestApp } from './startTestApp.js';

/** One request as the receiver got it. */
export interface ReceivedWebhook {
  /** The receiver's own path (a receiver serves several endpoints by path). */
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  payload: WebhookPayload;
  /** What the receiver answered. */
  status: number;
}

/**
 * The site's system at the other end: a node:http server on a loopback port that records every
 * request and answers with `answer` (204 unless told otherwise).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** The status to answer a request with; it sees the requests before it (`received`). */
  answer: (path: string, body: string) => number = () => 204;
  /** Milliseconds to wait before answering a request to `path` (a slow receiver). */
  delayMs: (path: string) => number = () => 0;

  private constructor(private readonly server: Server, readonly baseUrl: string) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = request.url ?? '/';
        const status = receiver!.answer(path, body);
        receiver!.received.push({ path, headers: request.headers, body, payload: JSON.parse(body) as WebhookPayload, status });
        setTimeout(() => response.writeHead(status, { 'content-type': 'text/plain' }).end('a body the sender must not keep'), receiver!.delayMs(path));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  /** The URL of one of its endpoints. */
  url(path = '/hooks'): string {
    return `${this.baseUrl}${path}`;
  }

  /** The requests carrying events of `type` (every attempt counts). */
  ofType(type: WebhookPayload['type']): ReceivedWebhook[] {
    return this.received.filter((request) => request.payload.type === type);
  }

  /** Waits for the `count`-th request of `type` and returns the requests of that type. */
  async waitForType(type: WebhookPayload['type'], count = 1, timeoutMs?: number): Promise<ReceivedWebhook[]> {
    return waitFor(`${count} ${type} webhook(s)`, () => (this.ofType(type).length >= count ? this.ofType(type) : undefined), timeoutMs);
  }

  /** Forgets what it received and answers 204 at once again. */
  reset(): void {
    this.received.length = 0;
    this.answer = () => 204;
    this.delayMs = () => 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Why `verifyWebhook` refuses the request with `secret`, or undefined when it accepts it. */
export function refusalOf(request: ReceivedWebhook, secret: string): WebhookRefusal | undefined {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return verifyWebhook(secret, { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') }, Buffer.from(request.body), Math.floor(Date.now() / 1000));
}

/**
 * A dispatcher on a test app's services that polls every 50 ms and retries after 50 ms (the
 * production schedule waits minutes), started at once; stop it after the test.
 */
export function startTestDispatcher(services: Services, log: Parameters<WebhookDispatcher['start']>[0], overrides: Partial<WebhookDispatcherOptions> = {}): WebhookDispatcher {
  const dispatcher = new WebhookDispatcher({
    database: services.database.sql, outbox: services.webhooks, config: services.config, clock: services.clock,
    secret: () => services.webhookSigningSecret.current(), pollIntervalMs: 50, retryDelayMs: () => 50, ...overrides,
  });
  dispatcher.start(log);
  return dispatcher;
}

export interface WebhookTestContext {
  /** The file's receiver, reset after every test. */
  readonly receiver: WebhookReceiver;
  /** A test app with `env` and a test dispatcher on it, both closed after the test (`dispatcher: false`: none started). */
  startApp(env: Record<string, string>, options?: { dispatcher?: boolean }): Promise<TestApp>;
  /** A (further) test dispatcher on `app`'s services, stopped after the test. */
  dispatch(app: TestApp, overrides?: Partial<WebhookDispatcherOptions>): WebhookDispatcher;
}

/** Registers the hooks of a webhook test file: one receiver for the file; apps and dispatchers of a test are stopped after it. */
export function useWebhookTestContext(): WebhookTestContext {
  let receiver: WebhookReceiver | undefined;
  const dispatchers: WebhookDispatcher[] = [];
  const apps: TestApp[] = [];
  beforeAll(async () => { receiver = await WebhookReceiver.start(); });
  afterAll(async () => { await receiver?.close(); });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    await Promise.all(apps.splice(0).map((app) => app.close()));
    receiver?.reset();
  });
  const context: WebhookTestContext = {
    get receiver() {
      if (!receiver) throw new Error('the receiver runs only while the file\'s tests do');
      return receiver;
    },
    startApp: async (env, { dispatcher = true } = {}) => {
      const app = await startTestApp(env);
      apps.push(app);
      if (dispatcher) context.dispatch(app);
      return app;
    },
    dispatch: (app, overrides = {}) => {
      const started = startTestDispatcher(app.services, app.app.log, overrides);
      dispatchers.push(started);
      return started;
    },
  };
  return context;
}
