import { describe, expect, test } from 'vitest';
import { isWebhookSecret, newWebhookSecret } from '../../src/infrastructure/inference/standardWebhooks.js';
import { waitFor } from '../helpers/processingHarness.js';
import { seedCall } from '../helpers/seedCalls.js';
import type { TestApp } from '../helpers/startTestApp.js';
import { refusalOf, useWebhookTestContext } from '../helpers/webhooks.js';
import { completeSetup, errorCodeOf, type AdminBrowser } from './adminClient.js';

// The admin page's Webhooks section: endpoints and secret, recent deliveries, resend, and the
// webhook settings on the Settings page.

interface Delivery {
  seq: number; messageId: string; eventType: string; url: string; state: string; attempts: number;
  nextAttemptAt: string | null; lastStatusCode: number | null; lastError: string | null; createdAt: string; updatedAt: string; deliveredAt: string | null;
}
interface Overview {
  endpoints: string[];
  includeTranscript: boolean;
  secret: { configured: boolean; source: string };
  deliveries: { pending: number; delivered: number; failed: number };
}

const webhooks = useWebhookTestContext();
const receiver = () => webhooks.receiver;

/** A test app with a dispatcher (unless `dispatcher: false`), and an admin signed in to it. */
async function signedIn(env: Record<string, string>, options?: { dispatcher?: boolean }): Promise<{ app: TestApp; browser: AdminBrowser }> {
  const app = await webhooks.startApp(env, options);
  return { app, browser: await completeSetup(app) };
}

const json = async <T>(response: Response): Promise<T> => {
  expect(response.status).toBe(200);
  return (await response.json()) as T;
};

describe('the list and resend', () => {
  test('recent deliveries, newest first, without payload; resend queues one again with its webhook-id, recorded in the audit log', async () => {
    const secret = newWebhookSecret();
    const { app, browser } = await signedIn({ WEBHOOK_URLS: receiver().url(), WEBHOOK_SECRET: secret, WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_INCLUDE_TRANSCRIPT: 'true' });
    receiver().answer = () => 500;
    const callId = await seedCall(app.services, 'alice');
    await waitFor('the attempt to fail', async () => (await json<Overview>(await browser.fetch('/admin/api/webhooks'))).deliveries.failed === 1);

    expect(await json<Overview>(await browser.fetch('/admin/api/webhooks'))).toEqual({
      endpoints: [receiver().url()], includeTranscript: true, secret: { configured: true, source: 'env' }, deliveries: { pending: 0, delivered: 0, failed: 1 },
    });
    const { deliveries } = await json<{ deliveries: Delivery[] }>(await browser.fetch('/admin/api/webhooks/deliveries?limit=10'));
    expect(deliveries).toHaveLength(1);
    const [failed] = deliveries;
    expect(failed).toMatchObject({ eventType: 'call.completed', url: receiver().url(), state: 'failed', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: null, deliveredAt: null });
    expect(Object.keys(failed!)).not.toContain('payload');
    expect(JSON.stringify(deliveries)).not.toContain(callId);

    receiver().answer = () => 200;
    const resent = await json<Delivery>(await browser.fetch(`/admin/api/webhooks/deliveries/${failed!.seq}/resend`, { method: 'POST' }));
    expect(resent).toMatchObject({ seq: failed!.seq, messageId: failed!.messageId, state: 'pending', attempts: 0 });
    const again = await waitFor('the resend', () => receiver().received[1]);
    expect(again.headers['webhook-id']).toBe(failed!.messageId);
    expect(again.body).toBe(receiver().received[0]!.body);
    expect(refusalOf(again, secret)).toBeUndefined();
    await waitFor('the resend to be delivered', async () => (await json<{ deliveries: Delivery[] }>(await browser.fetch('/admin/api/webhooks/deliveries'))).deliveries[0]!.state === 'delivered');

    const { entries } = await json<{ entries: { action: string; target: string; detail: Record<string, unknown> }[] }>(await browser.fetch('/admin/api/audit'));
    expect(entries[0]).toMatchObject({ action: 'webhook_resend', target: `webhook_delivery:${failed!.seq}`, detail: { messageId: failed!.messageId, eventType: 'call.completed', previousState: 'failed' } });
  });

  test('refusals: no session 401, no CSRF token 403, unknown delivery 404, a malformed number 400, an endpoint no longer configured 400', async () => {
    const { app, browser } = await signedIn({ WEBHOOK_URLS: receiver().url(), WEBHOOK_SECRET: newWebhookSecret() });
    await seedCall(app.services, 'alice');
    const [delivery] = (await json<{ deliveries: Delivery[] }>(await browser.fetch('/admin/api/webhooks/deliveries'))).deliveries;

    const anonymous = await fetch(`${app.baseUrl}/admin/api/webhooks/deliveries`);
    expect(anonymous.status).toBe(401);
    expect(await errorCodeOf(anonymous)).toBe('admin_auth_required');
    const withoutCsrf = await browser.fetch(`/admin/api/webhooks/deliveries/${delivery!.seq}/resend`, { method: 'POST', headers: { 'x-csrf-token': 'wrong' } });
    expect(withoutCsrf.status).toBe(403);
    const unknown = await browser.fetch('/admin/api/webhooks/deliveries/99999/resend', { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await errorCodeOf(unknown)).toBe('admin_webhook_delivery_not_found');
    const malformed = await browser.fetch('/admin/api/webhooks/deliveries/abc/resend', { method: 'POST' });
    expect(malformed.status).toBe(400);
    expect(await errorCodeOf(malformed)).toBe('validation_failed');
    const badLimit = await browser.fetch('/admin/api/webhooks/deliveries?limit=0');
    expect(badLimit.status).toBe(400);

    app.services.config.WEBHOOK_URLS = receiver().url('/another');
    const removed = await browser.fetch(`/admin/api/webhooks/deliveries/${delivery!.seq}/resend`, { method: 'POST' });
    expect(removed.status).toBe(400);
    expect(await errorCodeOf(removed)).toBe('validation_failed');
  });
});

describe('the signing secret', () => {
  test('without WEBHOOK_SECRET deliveries wait; a secret generated here is shown once, and they go out signed with it', async () => {
    const { app, browser } = await signedIn({ WEBHOOK_URLS: receiver().url() }, { dispatcher: false });
    const dispatcher = webhooks.dispatch(app);
    expect((await json<Overview>(await browser.fetch('/admin/api/webhooks'))).secret).toEqual({ configured: false, source: 'none' });
    await seedCall(app.services, 'alice');
    // A whole pass of the dispatcher over the due delivery (one that sends waits for the answer):
    // nothing went out, and the log says why.
    dispatcher.wake();
    await dispatcher.idle();
    expect(receiver().received).toEqual([]);
    expect(app.logLines.map(({ msg }) => msg)).toContain('webhooks wait: no WEBHOOK_SECRET is set and none was generated on the admin page (Webhooks)');

    const { secret } = await json<{ secret: string }>(await browser.fetch('/admin/api/webhooks/secret', { method: 'POST' }));
    expect(isWebhookSecret(secret)).toBe(true);
    const request = await waitFor('the waiting webhook', () => receiver().received[0]);
    expect(refusalOf(request, secret)).toBeUndefined();
    expect((await json<Overview>(await browser.fetch('/admin/api/webhooks'))).secret).toEqual({ configured: true, source: 'stored' });
    expect(JSON.stringify(app.logLines)).not.toContain(secret.slice('whsec_'.length));
    const { entries } = await json<{ entries: { action: string; detail: unknown }[] }>(await browser.fetch('/admin/api/audit'));
    expect(entries[0]).toMatchObject({ action: 'webhook_secret_rotate', detail: { replaced: false } });
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  test('a secret set by the environment cannot be replaced here', async () => {
    const { browser } = await signedIn({ WEBHOOK_SECRET: newWebhookSecret() });
    const response = await browser.fetch('/admin/api/webhooks/secret', { method: 'POST' });
    expect(response.status).toBe(400);
    expect(await errorCodeOf(response)).toBe('validation_failed');
  });
});

describe('the settings', () => {
  test('WEBHOOK_URLS and WEBHOOK_INCLUDE_TRANSCRIPT are editable and live; a URL that is not one, or one listed twice, is refused by field', async () => {
    const { browser } = await signedIn({ WEBHOOK_SECRET: newWebhookSecret() });
    const patch = (values: Record<string, unknown>) => browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values } });
    const settings = (await json<{ settings: { key: string; live: boolean; editable: boolean }[] }>(await browser.fetch('/admin/api/settings'))).settings;
    for (const key of ['WEBHOOK_URLS', 'WEBHOOK_INCLUDE_TRANSCRIPT']) expect(settings.find((setting) => setting.key === key)).toMatchObject({ live: true, editable: true });

    expect((await patch({ WEBHOOK_URLS: `${receiver().url('/a')}, ${receiver().url('/b')}`, WEBHOOK_INCLUDE_TRANSCRIPT: true })).status).toBe(200);
    expect(await json<Overview>(await browser.fetch('/admin/api/webhooks'))).toMatchObject({ endpoints: [receiver().url('/a'), receiver().url('/b')], includeTranscript: true });

    for (const bad of ['ftp://crm.lan/hooks', 'http://crm.lan/a,http://crm.lan/a', 'not a url']) {
      const response = await patch({ WEBHOOK_URLS: bad });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; details: { fields: { path: string }[] } } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.details.fields.map((field) => field.path)).toContain('values/WEBHOOK_URLS');
    }
    expect((await patch({ WEBHOOK_URLS: null })).status).toBe(200);
    expect((await json<Overview>(await browser.fetch('/admin/api/webhooks'))).endpoints).toEqual([]);
  });

  test('the Webhooks page is served in the admin layout', async () => {
    const { app } = await signedIn({});
    const page = await fetch(`${app.baseUrl}/admin/webhooks`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Webhooks · Callscope admin</title>');
    expect(html).toContain('src="/admin/webhooks.js"');
    expect(html).toContain('href="/admin/webhooks"');
  });
});
