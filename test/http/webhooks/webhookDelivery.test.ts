import { sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { WebhookDeliveryRepository, type WebhookDeliverySummary } from '../../../src/domain/webhooks/WebhookDeliveryRepository.js';
import type { DatabaseHandle, PlaceholderValues, SqlDatabase } from '../../../src/infrastructure/database/SqlDatabase.js';
import { newWebhookSecret } from '../../../src/infrastructure/inference/standardWebhooks.js';
import { waitFor } from '../../helpers/processingHarness.js';
import type { TestApp } from '../../helpers/startTestApp.js';
import { openTestDatabase } from '../../helpers/testDatabase.js';
import { refusalOf, useWebhookTestContext } from '../../helpers/webhooks.js';

// Delivery from the outbox: retries with backoff (made short here), 410 and the attempt limit,
// timeouts, redirects, no secret yet, endpoints taken off the list, leases between dispatchers.

const secret = newWebhookSecret();

/** Connections of a second node, closed after the test (after its dispatcher: hooks registered later run first). */
const otherHandles: DatabaseHandle[] = [];
afterEach(async () => { await Promise.all(otherHandles.splice(0).map((handle) => handle.close())); });
const webhooks = useWebhookTestContext();
const { dispatch } = webhooks;

/** A test app sending to the receiver; each test starts its dispatcher(s) itself. */
function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  return webhooks.startApp({ WEBHOOK_URLS: webhooks.receiver.url(), WEBHOOK_SECRET: secret, ...env }, { dispatcher: false });
}

/** Records `count` action_item.updated events as PATCH /api/actions/{id} does, committed; their action item ids. */
async function recordEvents(app: TestApp, count = 1): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await app.services.database.sql.transaction(async (tx) => {
    for (const id of ids) await app.services.webhooks.actionItemUpdated(tx, { id, callId: randomUUID(), userId: randomUUID(), status: 'COMPLETED' }, Date.now());
  });
  app.services.webhooks.wake();
  return ids;
}

const deliveriesOf = (app: TestApp) => new WebhookDeliveryRepository(app.services.database.sql);

async function settled(app: TestApp, state: WebhookDeliverySummary['state'], count = 1): Promise<WebhookDeliverySummary[]> {
  return waitFor(`${count} delivery(ies) ${state}`, async () => {
    const rows = (await deliveriesOf(app).recent(500)).filter((row) => row.state === state);
    return rows.length >= count ? rows : undefined;
  });
}

describe('retries', () => {
  test('a receiver answering 500 then 200: the webhook is tried again after the backoff and delivered, under the same webhook-id', async () => {
    const app = await startApp();
    webhooks.receiver.answer = () => (webhooks.receiver.received.length === 0 ? 500 : 200);
    const waits: number[] = [];
    dispatch(app, { retryDelayMs: (failedAttempts) => { waits.push(failedAttempts); return 50; } });
    await recordEvents(app);

    const [row] = await settled(app, 'delivered');
    expect(row).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null, eventType: 'action_item.updated' });
    expect(waits).toEqual([1]);
    expect(webhooks.receiver.received.map((request) => request.status)).toEqual([500, 200]);
    expect(new Set(webhooks.receiver.received.map((request) => request.headers['webhook-id']))).toEqual(new Set([row!.messageId]));
    for (const request of webhooks.receiver.received) expect(refusalOf(request, secret)).toBeUndefined();
  });

  test('410 Gone fails the webhook at once; other failures stop at WEBHOOK_MAX_ATTEMPTS', async () => {
    const app = await startApp({ WEBHOOK_URLS: `${webhooks.receiver.url('/gone')},${webhooks.receiver.url('/down')}`, WEBHOOK_MAX_ATTEMPTS: '3' });
    webhooks.receiver.answer = (path) => (path === '/gone' ? 410 : 503);
    const dispatcher = dispatch(app);
    await recordEvents(app);

    const failed = await settled(app, 'failed', 2);
    // A whole pass of the dispatcher after both gave up (one that sends waits for the answer): no more requests.
    dispatcher.wake();
    await dispatcher.idle();
    const byPath = (path: string) => failed.find((row) => row.url.endsWith(path))!;
    expect(byPath('/gone')).toMatchObject({ attempts: 1, lastStatusCode: 410, lastError: 'HTTP 410' });
    expect(byPath('/down')).toMatchObject({ attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(webhooks.receiver.received.filter((request) => request.path === '/gone')).toHaveLength(1);
    expect(webhooks.receiver.received.filter((request) => request.path === '/down')).toHaveLength(3);
    expect(byPath('/gone').messageId).toBe(byPath('/down').messageId);
  });

  test('no answer within WEBHOOK_TIMEOUT_SECONDS, a redirect, or nobody listening: failed attempts with a short reason, retried', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const app = await startApp({
      WEBHOOK_URLS: `${webhooks.receiver.url('/slow')},${webhooks.receiver.url('/moved')},http://127.0.0.1:${closedPort}/hooks`, WEBHOOK_TIMEOUT_SECONDS: '1', WEBHOOK_MAX_ATTEMPTS: '1',
    });
    webhooks.receiver.answer = (path) => (path === '/moved' ? 302 : 204);
    webhooks.receiver.delayMs = (path) => (path === '/slow' ? 1500 : 0);
    dispatch(app);
    await recordEvents(app);

    const failed = await settled(app, 'failed', 3);
    const byUrl = (end: string) => failed.find((row) => row.url.endsWith(end))!;
    expect(byUrl('/slow')).toMatchObject({ lastStatusCode: null, lastError: 'no answer within 1 s' });
    expect(byUrl('/moved')).toMatchObject({ lastStatusCode: 302, lastError: 'redirect not followed (HTTP 302)' });
    expect(byUrl(`${closedPort}/hooks`)).toMatchObject({ lastStatusCode: null, lastError: 'could not connect (ECONNREFUSED)' });
  });
});

describe('what is sent, and when', () => {
  test('without a signing secret deliveries wait; once one is generated they go out signed with it', async () => {
    const app = await startApp({ WEBHOOK_SECRET: '' });
    const dispatcher = dispatch(app);
    await recordEvents(app);
    // A whole pass of the dispatcher over the due delivery (one that sends waits for the answer): nothing went out.
    dispatcher.wake();
    await dispatcher.idle();
    expect(webhooks.receiver.received).toEqual([]);
    expect((await deliveriesOf(app).countByState()).pending).toBe(1);
    expect(app.logLines.some((line) => String(line.msg).startsWith('webhooks wait: no WEBHOOK_SECRET'))).toBe(true);

    const generated = await app.services.webhookSigningSecret.rotate(Date.now());
    app.services.webhooks.wake();
    await settled(app, 'delivered');
    expect(refusalOf(webhooks.receiver.received[0]!, generated)).toBeUndefined();
    expect(refusalOf(webhooks.receiver.received[0]!, secret)).toBe('no_valid_signature');
  });

  test('an endpoint taken off WEBHOOK_URLS (on the admin page, live) gets no more of its pending webhooks', async () => {
    const app = await startApp({ WEBHOOK_URLS: `${webhooks.receiver.url('/kept')},${webhooks.receiver.url('/dropped')}` });
    await recordEvents(app);
    app.services.config.WEBHOOK_URLS = webhooks.receiver.url('/kept');
    dispatch(app);

    const [dropped] = await settled(app, 'failed');
    expect(dropped).toMatchObject({ lastError: 'the endpoint is no longer in WEBHOOK_URLS', lastStatusCode: null });
    await settled(app, 'delivered');
    expect(webhooks.receiver.received.map((request) => request.path)).toEqual(['/kept']);
  });

  test('a dispatcher that stops mid-send gives the delivery back unsent; a row whose holder died is taken over once its lease ran out', async () => {
    const app = await startApp();
    webhooks.receiver.delayMs = () => 5_000;
    const first = dispatch(app);
    await recordEvents(app);
    await waitFor('the request to arrive', () => webhooks.receiver.received.length === 1);
    await first.stop();
    const [row] = await deliveriesOf(app).recent(1);
    expect(row).toMatchObject({ state: 'pending', attempts: 0 });

    // As a node killed mid-send leaves it: leased, the lease long run out.
    await app.services.database.sql.transaction((tx) => new WebhookDeliveryRepository(tx).claimDue('dead-node#1', Date.now(), Date.now() - 1, 10));
    webhooks.receiver.delayMs = () => 0;
    dispatch(app);
    const [delivered] = await settled(app, 'delivered');
    expect(delivered).toMatchObject({ seq: row!.seq, attempts: 1 });
  });

  test('delivered and failed rows older than WEBHOOK_RETENTION_DAYS are removed; pending ones stay', async () => {
    const app = await startApp({ WEBHOOK_RETENTION_DAYS: '7' });
    const dispatcher = dispatch(app);
    await recordEvents(app, 2);
    await settled(app, 'delivered', 2);
    await dispatcher.stop();
    await recordEvents(app);
    const [newest, middle] = await deliveriesOf(app).recent(3);
    await app.services.database.sql.run(sql`UPDATE webhook_deliveries SET updated_at = ${Date.now() - 8 * 24 * 3600_000}`);

    expect(await dispatcher.prune()).toBe(2);
    expect((await deliveriesOf(app).recent(10)).map((row) => row.seq)).toEqual([newest!.seq]);
    expect(middle!.state).toBe('delivered');
  });
});

describe('several nodes', () => {
  test('two dispatchers on one database (each with its own connection) never send one message at once, and send each once', async () => {
    const app = await startApp();
    const otherNode = await openTestDatabase(app.dataDir, app.services.config.DATABASE_URL ? { DATABASE_URL: app.services.config.DATABASE_URL } : {});
    otherHandles.push(otherNode);
    webhooks.receiver.delayMs = () => 20;
    const inFlight = new Map<string, number>();
    let overlapped = false;
    webhooks.receiver.answer = (_path, body) => {
      const key = body;
      const now = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, now);
      if (now > 1) overlapped = true;
      setTimeout(() => inFlight.set(key, (inFlight.get(key) ?? 1) - 1), 25);
      return 204;
    };
    const ids = await recordEvents(app, 40);
    const claimed = { 'node-a': 0, 'node-b': 0, largestClaim: 0 };
    dispatch(app, { id: 'node-a', concurrency: 4, database: countingClaims(app.services.database.sql, claimed) });
    dispatch(app, { id: 'node-b', concurrency: 4, database: countingClaims(otherNode.sql, claimed) });

    await settled(app, 'delivered', 40);
    expect(overlapped).toBe(false);
    expect(claimed['node-a'] + claimed['node-b']).toBe(40);
    expect(claimed['node-a']).toBeGreaterThan(0);
    expect(claimed['node-b']).toBeGreaterThan(0);
    expect(claimed.largestClaim).toBeLessThanOrEqual(4);
    expect(webhooks.receiver.received).toHaveLength(40);
    expect(new Set(webhooks.receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(40);
    expect(new Set(webhooks.receiver.received.map((request) => request.payload.type === 'action_item.updated' && request.payload.data.actionItemId))).toEqual(new Set(ids));
  });
});

/** The database, counting by dispatcher id the rows each claim hands out (their lease is `<id>#<n>`), and the most one claim took. */
function countingClaims(db: SqlDatabase, claimed: Record<string, number>): SqlDatabase {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'all') {
        return async <Row>(query: SQL, values?: PlaceholderValues): Promise<Row[]> => {
          const rows = await target.all<Row>(query, values);
          let taken = 0;
          for (const row of rows) {
            const owner = (row as { leaseOwner?: unknown }).leaseOwner;
            const id = typeof owner === 'string' ? owner.split('#')[0]! : undefined;
            if (id === undefined || !(id in claimed)) continue;
            claimed[id]! += 1;
            taken += 1;
          }
          claimed.largestClaim = Math.max(claimed.largestClaim ?? 0, taken);
          return rows;
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
