import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { newWebhookSecret, signWebhook } from '../../src/infrastructure/inference/standardWebhooks.js';
import { CallbackTranscription } from '../../src/processing/callbackTranscription.js';
import { TranscriptionJobs } from '../../src/processing/TranscriptionJobs.js';
import { createTestStageContext } from '../pipeline/testStageContext.js';
import { callView, testPipeline, useEngineTestApp } from '../helpers/processingHarness.js';
import { seedCall } from '../helpers/seedCalls.js';

// TRANSCRIPTION_PROVIDER=callback: a callback that never comes ends in the stale-job sweep, with
// its own bound (TRANSCRIPTION_CALLBACK_TIMEOUT_MINUTES), not STALE_JOB_MINUTES.

const secret = newWebhookSecret();
const setup = useEngineTestApp({
  TRANSCRIPTION_PROVIDER: 'callback', TRANSCRIPTION_URL: 'http://127.0.0.1:9/v1/audio/transcriptions', PUBLIC_URL: 'http://127.0.0.1:8080',
  TRANSCRIPTION_WEBHOOK_SECRET: secret, TRANSCRIPTION_CALLBACK_TIMEOUT_MINUTES: '30', STALE_JOB_MINUTES: '5',
});

const minute = 60_000;

/** A call waiting for its callback since `minutesAgo`, with its job. */
async function waitingCall(minutesAgo: number): Promise<{ callId: string; jobId: string }> {
  const { services } = setup.testApp;
  const callId = await seedCall(services, 'alice', { status: 'TRANSCRIBING' });
  const since = Date.now() - minutesAgo * minute;
  await services.database.sql.run(sql`UPDATE calls SET awaiting_callback_since = ${since}, last_progress_at = ${since}, stage = 'transcription', worker_lease = NULL
    WHERE id = ${callId}`);
  const jobId = TranscriptionJobs.newJobId();
  await services.transcriptionJobs.open(jobId, callId, since);
  return { callId, jobId };
}

async function sendCallback(jobId: string): Promise<number> {
  const body = JSON.stringify({ job_id: jobId, error: { message: 'late' } });
  const id = `msg_${jobId}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(`${setup.testApp.baseUrl}/api/callbacks/transcription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) },
    body,
  });
  return response.status;
}

describe('a call whose transcription callback never comes', () => {
  test('waits past STALE_JOB_MINUTES (it reports no progress while it waits), and fails after TRANSCRIPTION_CALLBACK_TIMEOUT_MINUTES with a reason', async () => {
    const patient = await waitingCall(20);
    const overdue = await waitingCall(31);
    const engine = setup.idleEngine(testPipeline());

    expect(await engine.sweepStale()).toEqual([overdue.callId]);
    const alice = setup.testApp.as('alice');
    expect(await callView(alice, patient.callId)).toEqual({ status: 'TRANSCRIBING', errorReason: null });
    expect(await callView(alice, overdue.callId)).toEqual({
      status: 'FAILED',
      errorReason: 'The transcription server did not call back within 30 minutes (TRANSCRIPTION_CALLBACK_TIMEOUT_MINUTES); the call can be reprocessed',
    });
    expect((await setup.testApp.services.transcriptionJobs.find(overdue.jobId))?.state).toBe('abandoned');
    expect((await setup.testApp.services.transcriptionJobs.find(patient.jobId))?.state).toBe('waiting');

    // A callback for the given-up job is refused; the patient call's job is still answered.
    expect(await sendCallback(overdue.jobId)).toBe(409);
    expect(await sendCallback(patient.jobId)).toBe(202);
    expect(await callView(alice, patient.callId)).toMatchObject({ status: 'FAILED', errorReason: 'The transcription server could not transcribe the call: late' });
  });

  test('a restart does not take a waiting call back to the queue (no second submission)', async () => {
    const waiting = await waitingCall(1);
    const engine = setup.idleEngine(testPipeline());
    await engine.start();
    try {
      expect(await callView(setup.testApp.as('alice'), waiting.callId)).toEqual({ status: 'TRANSCRIBING', errorReason: null });
      expect(engine.activeCallIds).toEqual([]);
    } finally {
      await engine.stop(0);
    }
  });

  test('without a callback secret nothing is sent: the call fails at once saying how to configure one', async () => {
    const { services } = setup.testApp;
    const noSecret = new CallbackTranscription(services.store, services.transcriptionJobs, () => ({
      url: 'http://127.0.0.1:9/v1/audio/transcriptions', timeoutMs: 1000, callbackUrl: 'http://127.0.0.1:8080/api/callbacks/transcription',
    }), async () => false);
    const cleaned = { monoPath: 'unused.wav', sourceChannels: 1, durationSeconds: 1 } as Parameters<CallbackTranscription['submit']>[1];
    const diarization: Parameters<CallbackTranscription['submit']>[2] = { turns: [], speakerCount: 0, method: 'window-linking', provider: 'test', model: 'test' };
    await expect(noSecret.submit('call-without-secret', cleaned, diarization, createTestStageContext()))
      .rejects.toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('generate one on the admin page (Settings, Inference) or set TRANSCRIPTION_WEBHOOK_SECRET') });
  });
});
