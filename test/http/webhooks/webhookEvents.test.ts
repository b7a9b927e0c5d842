import { sql } from 'drizzle-orm';
import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { WebhookPayloadSchema } from '../../../src/domain/webhooks/webhookPayloads.js';
import { newWebhookSecret } from '../../../src/infrastructure/inference/standardWebhooks.js';
import { deleteJson } from '../../helpers/callInspection.js';
import { waitFor } from '../../helpers/processingHarness.js';
import { seedCall, seedUser, transcriptFixture } from '../../helpers/seedCalls.js';
import type { TestApp } from '../../helpers/startTestApp.js';
import { refusalOf, useWebhookTestContext, type ReceivedWebhook } from '../../helpers/webhooks.js';

// The events the site's systems hear about, end to end: a change through the API (or as the
// pipeline stores results) → a delivery row in the same transaction → a signed POST to the receiver.

const secret = newWebhookSecret();
/** A receiver URL may carry a token of the site's system: logs must never show it. */
const urlToken = 'tok3n-of-the-crm-9f8e7d';

const webhooks = useWebhookTestContext();
const receiver = () => webhooks.receiver;

function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  return webhooks.startApp({ WEBHOOK_URLS: receiver().url(`/crm?token=${urlToken}`), WEBHOOK_SECRET: secret, ...env });
}

/** The one webhook of `type` about `id` (a call or an action item), once it has arrived. */
async function webhookAbout(type: ReceivedWebhook['payload']['type'], id: string): Promise<ReceivedWebhook> {
  return waitFor(`a ${type} webhook about ${id}`, () => receiver().ofType(type).find((request) => JSON.stringify(request.payload.data).includes(id)));
}

/** The bodies recorded for `type`, oldest first: every webhook the changes made, sent or not yet. */
async function recordedPayloads(app: TestApp, type: string): Promise<string[]> {
  return (await app.services.database.sql.all<{ payload: string }>(sql`SELECT payload FROM webhook_deliveries WHERE event_type = ${type} ORDER BY seq`)).map((row) => row.payload);
}

function expectGenuine(request: ReceivedWebhook): void {
  expect(refusalOf(request, secret)).toBeUndefined();
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
  expect(Value.Check(WebhookPayloadSchema, request.payload)).toBe(true);
  expect(request.path).toBe(`/crm?token=${urlToken}`);
}

describe('call.completed', () => {
  test('storing a call\'s results sends call.completed with ids and status, signed so that verifyWebhook accepts it; no transcript, name or number by default', async () => {
    const app = await startApp();
    const callId = await seedCall(app.services, 'alice', { contactName: 'Sheila Broflovski', phoneNumber: '+15557654321', title: 'Call with Sheila' });
    const user = await seedUser(app.services, 'alice');

    const request = await webhookAbout('call.completed', callId);
    expectGenuine(request);
    expect(request.payload).toEqual({
      type: 'call.completed', timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) as unknown,
      data: { callId, userId: user.id, status: 'COMPLETED', actionItemIds: expect.any(Array) as unknown },
    });
    const actions = (await (await app.as('alice')('/api/actions')).json()) as { id: string }[];
    expect(request.payload.type === 'call.completed' && [...request.payload.data.actionItemIds].sort()).toEqual(actions.map((item) => item.id).sort());
    for (const personal of ['Sheila', '5557654321', 'Diane', 'Hi, this is']) expect(request.body).not.toContain(personal);
  });

  test('with WEBHOOK_INCLUDE_TRANSCRIPT=true it carries the transcript\'s cleanText', async () => {
    const app = await startApp({ WEBHOOK_INCLUDE_TRANSCRIPT: 'true' });
    const callId = await seedCall(app.services, 'alice');
    const request = await webhookAbout('call.completed', callId);
    expectGenuine(request);
    expect(request.payload.type === 'call.completed' && request.payload.data.transcript).toBe(transcriptFixture(callId, 0).cleanText);
  });

  test('without WEBHOOK_URLS nothing is recorded or sent', async () => {
    const app = await webhooks.startApp({ WEBHOOK_SECRET: secret });
    await seedCall(app.services, 'alice');
    expect(await app.services.database.sql.get<{ count: number }>(sql`SELECT count(*) AS count FROM webhook_deliveries`)).toEqual({ count: 0 });
  });
});

describe('call.deleted', () => {
  test('DELETE /api/calls/{id} sends call.deleted; the transcript text of the call\'s call.completed is no longer kept', async () => {
    const app = await startApp({ WEBHOOK_INCLUDE_TRANSCRIPT: 'true' });
    const callId = await seedCall(app.services, 'alice');
    await webhookAbout('call.completed', callId);

    expect((await app.as('alice')(`/api/calls/${callId}`, { method: 'DELETE' })).status).toBe(204);
    const request = await webhookAbout('call.deleted', callId);
    expectGenuine(request);
    expect(request.payload.data).toEqual({ callId, userId: (await seedUser(app.services, 'alice')).id, status: 'DELETED' });
    const stored = await app.services.database.sql.all<{ payload: string }>(sql`SELECT payload FROM webhook_deliveries`);
    expect(stored).toHaveLength(2);
    for (const { payload } of stored) expect(payload).not.toContain('Hi, this is Diane');
  });

  test('bulk deletion and account deletion send one call.deleted per call; another user\'s call sends nothing', async () => {
    const app = await startApp();
    const [first, second, third, bobs] = [
      await seedCall(app.services, 'alice'), await seedCall(app.services, 'alice'), await seedCall(app.services, 'carol'), await seedCall(app.services, 'bob'),
    ];
    const bulk = await deleteJson(app.as('alice'), '/api/calls', { callIds: [first, second, bobs] });
    expect(await bulk.json()).toMatchObject({ deleted: 2, missing: 1 });
    expect((await app.as('carol')('/api/users/me', { method: 'DELETE' })).status).toBe(204);

    for (const callId of [first, second, third]) expectGenuine(await webhookAbout('call.deleted', callId));
    // What was recorded (nothing more can arrive than this).
    const recorded = await recordedPayloads(app, 'call.deleted');
    expect(recorded).toHaveLength(3);
    expect(recorded.some((payload) => payload.includes(bobs))).toBe(false);
  });
});

describe('action_item.updated', () => {
  test('PATCH /api/actions/{id} to another status sends action_item.updated; the same status again, or another user\'s item, sends nothing', async () => {
    const app = await startApp();
    const callId = await seedCall(app.services, 'alice');
    const [item] = (await (await app.as('alice')('/api/actions')).json()) as { id: string }[];
    const patch = (user: string, status: string) => app.as(user)(`/api/actions/${item!.id}`, {
      method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status }),
    });

    expect((await patch('alice', 'COMPLETED')).status).toBe(200);
    const request = await webhookAbout('action_item.updated', item!.id);
    expectGenuine(request);
    expect(request.payload.data).toEqual({ actionItemId: item!.id, callId, userId: (await seedUser(app.services, 'alice')).id, status: 'COMPLETED' });

    expect((await patch('alice', 'COMPLETED')).status).toBe(200);
    expect((await patch('mallory', 'PENDING')).status).toBe(404);
    expect((await patch('alice', 'PENDING')).status).toBe(200);
    const updates = await receiver().waitForType('action_item.updated', 2);
    expect((await recordedPayloads(app, 'action_item.updated')).map((payload) => (JSON.parse(payload) as { data: { status: string } }).data.status)).toEqual(['COMPLETED', 'PENDING']);
    expect(updates[0]!.headers['webhook-id']).not.toBe(updates[1]!.headers['webhook-id']);
  });
});

describe('what the logs say', () => {
  test('a delivery is logged with its message id, event type, host and status code: never the body, the path\'s token or the secret', async () => {
    const app = await startApp({ WEBHOOK_INCLUDE_TRANSCRIPT: 'true' });
    const callId = await seedCall(app.services, 'alice');
    const request = await webhookAbout('call.completed', callId);
    const logged = await waitFor('the delivery\'s log line', () => app.logLines.find((line) => line.msg === 'webhook delivered'));
    expect(logged).toMatchObject({ messageId: request.headers['webhook-id'], eventType: 'call.completed', host: new URL(receiver().baseUrl).host, statusCode: 204, attempt: 1 });
    const everything = JSON.stringify(app.logLines);
    for (const secretThing of [urlToken, secret, secret.slice('whsec_'.length), 'Hi, this is Diane', request.headers['webhook-signature'] as string]) expect(everything).not.toContain(secretThing);
  });
});
