import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { newWebhookSecret } from '../../../src/infrastructure/inference/standardWebhooks.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { StageGate, testPipeline, uploadCall, useEngineTestApp, waitFor, waitForStatus } from '../../helpers/processingHarness.js';
import { seedUser } from '../../helpers/seedCalls.js';
import type { TestApp } from '../../helpers/startTestApp.js';
import { refusalOf, useWebhookTestContext, type ReceivedWebhook } from '../../helpers/webhooks.js';

// call.failed from every way a call becomes FAILED: a stage's failure, the stale-job sweep, and
// the take-over of a call interrupted too often (all go through the queue, which records the event).

const secret = newWebhookSecret();
const setup = useEngineTestApp({ STALE_JOB_MINUTES: '5', MAX_PROCESSING_ATTEMPTS: '2' });

const webhooks = useWebhookTestContext();
const receiver = () => webhooks.receiver;

/** The engine test app, started again with webhooks to the receiver, and a dispatcher on it. */
async function webhookApp(): Promise<TestApp> {
  const app = await setup.restartApp({ WEBHOOK_URLS: receiver().url(), WEBHOOK_SECRET: secret });
  webhooks.dispatch(app);
  return app;
}

async function failedWebhookOf(callId: string): Promise<ReceivedWebhook> {
  const request = await waitFor(`call.failed about ${callId}`, () => receiver().ofType('call.failed').find((candidate) => candidate.payload.data.callId === callId));
  expect(refusalOf(request, secret)).toBeUndefined();
  return request;
}

describe('call.failed', () => {
  test('a stage that fails the call sends call.failed with the errorReason the API shows', async () => {
    const app = await webhookApp();
    await setup.startEngine(testPipeline({ transcription: async () => { throw new StageFailure('bad_input', 'The audio could not be decoded'); } }));
    const callId = await uploadCall(app.as('alice'));
    const view = await waitForStatus(app.as('alice'), callId, 'FAILED');

    const request = await failedWebhookOf(callId);
    expect(request.payload).toMatchObject({
      type: 'call.failed', data: { callId, userId: (await seedUser(app.services, 'alice')).id, status: 'FAILED', errorReason: view.errorReason },
    });
    expect(request.body).not.toContain('Sheila');
    expect(receiver().ofType('call.completed')).toEqual([]);
  });

  test('a call the stale-job sweep fails sends call.failed', async () => {
    const app = await webhookApp();
    const stuck = new StageGate({ honourAbort: true });
    const processing = await setup.startEngine(testPipeline({ transcription: stuck.pass }));
    const callId = await uploadCall(app.as('alice'));
    await stuck.reached();
    await app.services.database.sql.run(sql`UPDATE calls SET last_progress_at = ${Date.now() - 6 * 60_000} WHERE id = ${callId}`);

    expect(await processing.engine.sweepStale()).toEqual([callId]);
    const request = await failedWebhookOf(callId);
    expect(request.payload.type === 'call.failed' && request.payload.data.errorReason).toContain('made no progress');
  });

  test('a call whose transcription callback never came sends call.failed (the sweep fails it as the callback route fails a provider\'s error)', async () => {
    const app = await webhookApp();
    const processing = await setup.startEngine(testPipeline());
    const callId = await uploadCall(app.as('alice'));
    await waitForStatus(app.as('alice'), callId, 'COMPLETED');
    await app.services.database.sql.run(sql`UPDATE calls SET status = 'TRANSCRIBING', awaiting_callback_since = ${Date.now() - 121 * 60_000} WHERE id = ${callId}`);

    expect(await processing.engine.sweepStale()).toEqual([callId]);
    const request = await failedWebhookOf(callId);
    expect(request.payload.type === 'call.failed' && request.payload.data.errorReason).toContain('did not call back');
  });

  test('a call interrupted MAX_PROCESSING_ATTEMPTS times, taken over at start, sends call.failed', async () => {
    const app = await webhookApp();
    const callId = await uploadCall(app.as('alice'));
    // As a node that died twice while working on it leaves it.
    await app.services.database.sql.run(sql`UPDATE calls SET status = 'TRANSCRIBING', worker_lease = 'dead-node', processing_attempts = 2 WHERE id = ${callId}`);
    await setup.startEngine(testPipeline());

    const request = await failedWebhookOf(callId);
    expect(request.payload.type === 'call.failed' && request.payload.data.errorReason).toContain('interrupted 2 times');
  });
});
