import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setupLinkFileName } from '../../src/admin/credentials/AdminSetupLink.js';
import { isWebhookSecret, newWebhookSecret, signWebhook } from '../../src/infrastructure/inference/standardWebhooks.js';
import { adminPassword, browserOf, sessionCookieOf, type AdminBrowser } from '../admin/adminClient.js';
import { expectNoOrphans, sampleCall, sampleMetadata, uploadSample, waitForOutcome } from '../faults/faultSetup.js';
import { sampleCallScript } from '../faults/scriptedWhisper.js';
import { waitFor } from '../helpers/processingHarness.js';
import type { TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';
import { asUser, killServer, newDataDir, onAFreePort, query, queueLooks, siteEnvironment, stageOutcomes, startServer, type ServerProcess } from '../helpers/serverProcess.js';
import {
  callbackPath, nowSeconds, openAiVerboseJson, sendCallback as sendCallbackTo, startCallbackProvider, whisperCppVerboseJson,
  type CallbackAnswer, type CallbackOptions, type CallbackProvider, type Submission,
} from './callbackProvider.js';

// TRANSCRIPTION_PROVIDER=callback through the real service: the provider (played by the test on
// loopback, see callbackProvider.ts) takes the cleaned audio with a `job_id` and a
// `callback_url`, answers 202 at once, and later POSTs the transcript to
// `/api/callbacks/transcription`, signed as Standard Webhooks asks. Meanwhile the call waits in
// TRANSCRIBING without holding a worker slot. The segmentation model is the real one from
// ../shared; no whisper model is installed and none is needed.

const shared = resolve(import.meta.dirname, '../../../shared');
const projectRoot = resolve(import.meta.dirname, '../..');

let provider: CallbackProvider;
beforeAll(async () => { provider = await startCallbackProvider(); });
afterAll(async () => { await provider.close(); });

/** The submissions made by `service` (told apart by their callback URL), in order. */
function submissionsOf(service: CallbackService): Submission[] {
  return provider.submissions.filter((submission) => submission.callbackUrl === service.callbackUrl);
}

/** Waits until `service` has made `count` submissions; the last one. */
function waitForSubmission(service: CallbackService, count: number): Promise<Submission> {
  return waitFor(`submission ${count} to the provider`, () => {
    if (service.server.child.exitCode !== null) throw new Error(`the service exited: ${service.server.output()}`);
    const mine = submissionsOf(service);
    return mine.length >= count ? mine[count - 1] : undefined;
  }, 30_000);
}

// ---------------------------------------------------------------------------------------------
// The service

interface CallbackService {
  server: ServerProcess;
  dataDir: string;
  port: number;
  callbackUrl: string;
}

/** Starts the service in callback mode on `dataDir` (on `port` again after a restart), with `env` on top. */
async function startCallbackService(dataDir: string, env: Record<string, string> = {}, port?: number): Promise<CallbackService> {
  return port === undefined ? onAFreePort((free) => startCallbackServiceOn(dataDir, env, free)) : startCallbackServiceOn(dataDir, env, port);
}

async function startCallbackServiceOn(dataDir: string, env: Record<string, string>, listenOn: number): Promise<CallbackService> {
  const publicUrl = `http://127.0.0.1:${listenOn}`;
  const server = await startServer(dataDir, {
    PORT: String(listenOn), PUBLIC_URL: publicUrl,
    SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
    WHISPER_MODEL: join(dataDir, 'no-whisper-here.bin'),
    TRANSCRIPTION_PROVIDER: 'callback', TRANSCRIPTION_URL: `${provider.origin}/v1/audio/transcriptions`,
    ANALYSER: 'builtin', ANALYSIS_TIME_ZONE: 'UTC', LOG_LEVEL: 'info',
    ...env,
  });
  return { server, dataDir, port: listenOn, callbackUrl: `${publicUrl}${callbackPath}` };
}

/** Uploads the sample call as alice; its id. */
async function uploadCall(service: CallbackService, idempotencyKey: string): Promise<string> {
  const upload = await uploadSample(service.server, 'alice', idempotencyKey);
  expect(upload.status, await upload.clone().text()).toBe(202);
  return ((await upload.json()) as { callId: string }).callId;
}

/** The call's status as the app polls it (`GET /api/calls/status`). */
async function statusOf(service: CallbackService, callId: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await asUser(service.server, 'alice', `/api/calls/status?ids=${callId}`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { status: string }[] }).items[0]!.status;
}

/** Waits (bounded) until the call has `status`. */
function waitForStatus(service: CallbackService, callId: string, status: string, timeoutMs = 60_000, headers: Record<string, string> = {}): Promise<true> {
  return waitFor(`call ${callId} to be ${status}`, async () => (await statusOf(service, callId, headers)) === status || undefined, timeoutMs);
}

/** Waits until the call waits for its callback: its run has let go of it (no lease). */
function waitUntilWaiting(service: CallbackService, callId: string): Promise<true> {
  return waitFor(`call ${callId} to wait for its callback`, async () => {
    const [row] = await query<{ since: number | null; lease: string | null }>(service.dataDir, sql`SELECT awaiting_callback_since AS since, worker_lease AS lease FROM calls WHERE id = ${callId}`);
    return (row?.since !== null && row?.since !== undefined && row.lease === null) || undefined;
  }, 30_000);
}

/** Uploads a call and waits until it is submitted and waiting; its id and submission. */
async function uploadAndWait(service: CallbackService, idempotencyKey: string): Promise<{ callId: string; submission: Submission }> {
  const count = submissionsOf(service).length;
  const callId = await uploadCall(service, idempotencyKey);
  const submission = await waitForSubmission(service, count + 1);
  await waitUntilWaiting(service, callId);
  return { callId, submission };
}

async function jobState(service: CallbackService, jobId: string): Promise<string | undefined> {
  return (await query<{ state: string }>(service.dataDir, sql`SELECT state FROM transcription_jobs WHERE job_id = ${jobId}`))[0]?.state;
}

async function receiptCount(service: CallbackService): Promise<number> {
  return (await query<{ n: number }>(service.dataDir, sql`SELECT COUNT(*) AS n FROM webhook_receipts`))[0]!.n;
}

// ---------------------------------------------------------------------------------------------
// The provider's callbacks

const sendCallback = (service: CallbackService, body: unknown, options: CallbackOptions): Promise<CallbackAnswer> => sendCallbackTo(service.server.baseUrl, body, options);

const transcriptOf = (jobId: string, transcription: unknown = openAiVerboseJson(sampleCallScript)) => ({ job_id: jobId, transcription });

const refused = (status: number, code: string) => ({ status, body: { error: expect.objectContaining({ code }) as unknown } });
const accepted = { status: 202, body: { status: 'accepted' } };

/** `callscope_transcription_callbacks_total` by outcome, as /actuator/prometheus reports it (from loopback). */
async function callbackCounts(service: CallbackService): Promise<Record<string, number>> {
  const response = await fetch(`${service.server.baseUrl}/actuator/prometheus`);
  expect(response.status).toBe(200);
  const counts: Record<string, number> = {};
  for (const match of (await response.text()).matchAll(/^callscope_transcription_callbacks_total\{outcome="([^"]+)"\} (\d+)$/gm)) counts[match[1]!] = Number(match[2]);
  return counts;
}

// ---------------------------------------------------------------------------------------------
// The admin page (the real service prints its setup link to DATA_DIR)

async function signedInAdmin(service: CallbackService): Promise<AdminBrowser> {
  const linkFile = join(service.dataDir, setupLinkFileName);
  const link = await waitFor('the setup link', () => existsSync(linkFile) && readFileSync(linkFile, 'utf8').trim(), 10_000);
  const token = new URL(link).searchParams.get('token');
  const response = await fetch(`${service.server.baseUrl}/admin/api/setup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: adminPassword }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  // browserOf needs only the base URL of the app it talks to.
  return browserOf({ baseUrl: service.server.baseUrl } as TestApp, sessionCookieOf(response), csrfToken);
}

/** `callscope reprocess <callId>` as an operator runs it, beside the running service. */
async function reprocess(dataDir: string, callId: string): Promise<{ code: number; output: string }> {
  // The site's database too: on a PostgreSQL run it is not in DATA_DIR.
  const site = await siteEnvironment(dataDir);
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', 'reprocess', callId], { cwd: projectRoot, env: { ...process.env, ...site, DATA_DIR: dataDir } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: stdout + stderr });
    });
  });
}

// ---------------------------------------------------------------------------------------------

describe('TRANSCRIPTION_PROVIDER=callback (real service, the provider played by the test)', () => {
  test('the audio goes to the provider with job_id and callback_url; the call waits in TRANSCRIBING without a worker slot, and completes on the signed callback', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const apiKey = 'callscope-api-key-0123456789';
    const transcriptionKey = 'provider-key-0123456789';
    const service = await startCallbackService(dataDir, {
      TRANSCRIPTION_WEBHOOK_SECRET: secret, TRANSCRIPTION_API_KEY: transcriptionKey, WHISPER_LANGUAGE: 'en', API_KEY: apiKey,
      // One call at a time: the second call can only run if the first, waiting, holds no slot.
      WORKER_CONCURRENCY: '1',
    });
    const withKey = { 'x-api-key': apiKey };
    const upload = (key: string) => asUser(service.server, 'alice', '/api/calls/analyze', {
      method: 'POST', headers: { ...withKey, 'idempotency-key': key }, body: uploadForm(sampleCall(), 'sample.wav', { metadata: sampleMetadata }),
    });
    const callIdOf = async (response: Response) => {
      expect(response.status, await response.clone().text()).toBe(202);
      return ((await response.json()) as { callId: string }).callId;
    };

    const first = await callIdOf(await upload('first-call'));
    const firstJob = await waitForSubmission(service, 1);
    // The openai provider's OpenAI fields (the contact's name as the prompt), plus the job and where to answer.
    expect(firstJob.path).toBe('/v1/audio/transcriptions');
    expect(firstJob.authorization).toBe(`Bearer ${transcriptionKey}`);
    expect(firstJob.fields).toEqual({
      response_format: ['verbose_json'], model: ['whisper-1'], language: ['en'], 'timestamp_granularities[]': ['word', 'segment'], prompt: ['Sheila.'],
      job_id: [firstJob.jobId], callback_url: [`http://127.0.0.1:${service.port}${callbackPath}`],
    });
    expect(firstJob.fileName).toBe('call.wav');
    expect(firstJob.fileType).toBe('audio/wav');
    // The cleaned audio: 30 s of 16 kHz mono 16-bit PCM plus its header.
    expect(firstJob.fileBytes).toBeGreaterThan(30 * 16_000 * 2 * 0.95);
    expect(firstJob.jobId.length).toBeGreaterThanOrEqual(20);
    expect(firstJob.jobId).not.toContain(first);

    await waitUntilWaiting(service, first);
    expect(await statusOf(service, first, withKey)).toBe('TRANSCRIBING');

    // A second call runs meanwhile: clean-up and diarization, then its own submission.
    const second = await callIdOf(await upload('second-call'));
    const secondJob = await waitForSubmission(service, 2);
    expect(secondJob.jobId).not.toBe(firstJob.jobId);
    await waitUntilWaiting(service, second);

    // The provider answers the second job first (no user identity, no API key: only the signature).
    expect(await sendCallback(service, transcriptOf(secondJob.jobId), { secret })).toEqual(accepted);
    await waitForStatus(service, second, 'COMPLETED', 60_000, withKey);
    expect(await statusOf(service, first, withKey)).toBe('TRANSCRIBING');

    // Then the first; its body pretty-printed: the signature covers the exact bytes sent.
    expect(await sendCallback(service, JSON.stringify(transcriptOf(firstJob.jobId), null, 2), { secret })).toEqual(accepted);
    await waitForStatus(service, first, 'COMPLETED', 60_000, withKey);

    for (const callId of [first, second]) {
      const transcript = (await (await asUser(service.server, 'alice', `/api/calls/${callId}/transcript`, { headers: withKey })).json()) as {
        pipeline: { transcriptionProvider: string }; segments: { text: string; speakerId: string }[];
      };
      expect(transcript.pipeline.transcriptionProvider).toBe('callback');
      expect(transcript.segments.map((segment) => segment.text).join(' ')).toContain('signed referral letter');
      // Alignment put the words in the diarized turns: both speakers speak.
      expect(new Set(transcript.segments.map((segment) => segment.speakerId)).size).toBeGreaterThanOrEqual(2);
      const items = (await (await asUser(service.server, 'alice', '/api/actions', { headers: withKey })).json()) as { callRecordId: string }[];
      expect(items.filter((item) => item.callRecordId === callId).length).toBeGreaterThan(0);
      expect((await stageOutcomes(dataDir, callId)).filter(([, outcome]) => outcome === 'FAILED')).toEqual([]);
    }
    // One submission per call; nothing left of the waiting in DATA_DIR.
    expect(submissionsOf(service)).toHaveLength(2);
    await expectNoOrphans(dataDir);
    expect(existsSync(join(dataDir, 'no-whisper-here.bin'))).toBe(false);
    const output = service.server.output();
    for (const secretValue of [secret.slice('whsec_'.length), transcriptionKey]) expect(output).not.toContain(secretValue);
  }, 120_000);

  test('a provider that calls back before it has answered the submission: the callback is accepted and the call completes', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const early: CallbackAnswer[] = [];
    provider.beforeAnswer = async (submission) => { early.push(await sendCallback(service, transcriptOf(submission.jobId), { secret })); };
    try {
      const callId = await uploadCall(service, 'fast-provider');
      await waitForSubmission(service, 1);
      const outcome = await waitForOutcome(service.server, 'alice', callId);
      expect(early).toEqual([accepted]);
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.actionItemTitles.length).toBeGreaterThan(0);
      expect(submissionsOf(service)).toHaveLength(1);
    } finally {
      delete provider.beforeAnswer;
    }
  }, 90_000);

  test('a provider that reports an error before it has answered the submission: the call fails with its message (it does not wait for the timeout)', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const early: CallbackAnswer[] = [];
    provider.beforeAnswer = async (submission) => { early.push(await sendCallback(service, { job_id: submission.jobId, error: { message: 'unsupported audio codec' } }, { secret })); };
    try {
      const callId = await uploadCall(service, 'fast-provider-error');
      await waitForSubmission(service, 1);
      await waitFor('the early callback', () => early.length === 1 || undefined, 10_000);
      expect(early).toEqual([accepted]);
      await waitForStatus(service, callId, 'FAILED', 20_000);
      const detail = (await (await asUser(service.server, 'alice', `/api/calls/${callId}`)).json()) as { errorReason: string };
      expect(detail.errorReason).toContain('unsupported audio codec');
    } finally {
      delete provider.beforeAnswer;
    }
  }, 60_000);

  test('the same callback sent several times at once (a provider retrying on its own timeout): one 202 accepted, the others 200 duplicate', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const { callId, submission: { jobId } } = await uploadAndWait(service, 'concurrent-replay');
    const options = { secret, id: 'msg_retried', timestamp: nowSeconds() };
    // Three copies at once: the first is taken, the others are replays of it, never a 409 or a 500.
    const answers = await Promise.all([1, 2, 3].map(() => sendCallback(service, transcriptOf(jobId), options)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 202]);
    expect(await receiptCount(service)).toBe(1);
    expect((await waitForOutcome(service.server, 'alice', callId)).status).toBe('COMPLETED');
  }, 60_000);

  test('401 callback_signature_invalid for missing headers, a forged or tampered signature, a timestamp over 5 minutes off, even with a user identity and the API key; nothing is written', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const apiKey = 'callscope-api-key-0123456789';
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret, API_KEY: apiKey });
    const count = submissionsOf(service).length;
    const upload = await asUser(service.server, 'alice', '/api/calls/analyze', {
      method: 'POST', headers: { 'x-api-key': apiKey, 'idempotency-key': 'refused-callbacks' }, body: uploadForm(sampleCall(), 'sample.wav', { metadata: sampleMetadata }),
    });
    const { callId } = (await upload.json()) as { callId: string };
    const { jobId } = await waitForSubmission(service, count + 1);
    await waitUntilWaiting(service, callId);
    const body = transcriptOf(jobId);
    const invalid = refused(401, 'callback_signature_invalid');
    const now = nowSeconds();

    const cases: [string, Promise<CallbackAnswer>][] = [
      ['no webhook-signature', sendCallback(service, body, { secret, headers: { 'webhook-signature': undefined } })],
      ['no webhook-id', sendCallback(service, body, { secret, headers: { 'webhook-id': undefined } })],
      ['no webhook-timestamp', sendCallback(service, body, { secret, headers: { 'webhook-timestamp': undefined } })],
      ['no webhook headers at all', sendCallback(service, body, { secret, headers: { 'webhook-id': undefined, 'webhook-timestamp': undefined, 'webhook-signature': undefined } })],
      ['signed with another secret (forged)', sendCallback(service, body, { secret: newWebhookSecret() })],
      ['a made-up signature', sendCallback(service, body, { secret, headers: { 'webhook-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}` } })],
      ['a right signature under another version than v1', sendCallback(service, body, { secret, id: 'msg_v2', timestamp: now, headers: { 'webhook-signature': signWebhook(secret, 'msg_v2', now, JSON.stringify(body)).replace('v1,', 'v2,') } })],
      ['a tampered body', sendCallback(service, body, { secret, signedBody: JSON.stringify(transcriptOf(jobId, { segments: [] })) })],
      ['a signature made for another webhook-id', sendCallback(service, body, { secret, id: 'msg_sent', timestamp: now, headers: { 'webhook-signature': signWebhook(secret, 'msg_signed', now, JSON.stringify(body)) } })],
      ['a signature made for another timestamp', sendCallback(service, body, { secret, id: 'msg_time', timestamp: now, headers: { 'webhook-signature': signWebhook(secret, 'msg_time', now - 1, JSON.stringify(body)) } })],
      ['a timestamp 10 minutes old', sendCallback(service, body, { secret, timestamp: nowSeconds() - 600 })],
      ['a timestamp 10 minutes ahead', sendCallback(service, body, { secret, timestamp: nowSeconds() + 600 })],
      ['a timestamp that is not Unix seconds', sendCallback(service, body, { secret, headers: { 'webhook-timestamp': new Date().toISOString() } })],
      ['unsigned, with a user identity and the API key', sendCallback(service, body, { secret, headers: { 'webhook-signature': undefined, 'x-local-user-id': 'alice', 'x-api-key': apiKey } })],
      ['unsigned, with a body that is not JSON', sendCallback(service, 'not json', { secret, headers: { 'webhook-signature': undefined } })],
    ];
    for (const [what, answer] of cases) expect(await answer, what).toEqual(invalid);

    // Nothing written: the job still waits, no receipt, the call still waits.
    expect(await jobState(service, jobId)).toBe('waiting');
    expect(await receiptCount(service)).toBe(0);
    expect(await statusOf(service, callId, { 'x-api-key': apiKey })).toBe('TRANSCRIBING');
    expect((await query<{ n: number }>(dataDir, sql`SELECT COUNT(*) AS n FROM calls WHERE id = ${callId} AND awaiting_callback_since IS NOT NULL`))[0]!.n).toBe(1);

    // The genuine callback, 4 minutes old (within the tolerance), is still taken.
    expect(await sendCallback(service, body, { secret, timestamp: nowSeconds() - 240 })).toEqual(accepted);
    await waitForStatus(service, callId, 'COMPLETED', 60_000, { 'x-api-key': apiKey });
    // callscope_transcription_callbacks_total{outcome}: each refusal counted under its reason.
    expect(await callbackCounts(service)).toEqual({ missing_headers: 6, no_valid_signature: 6, stale_timestamp: 2, bad_timestamp: 1, accepted: 1 });
    expect(service.server.output()).not.toContain(secret.slice('whsec_'.length));
  }, 90_000);

  test('400 validation_failed for a signed callback that is not JSON, names no job, carries neither transcription nor error, or a transcription that is not verbose_json', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const { callId, submission: { jobId } } = await uploadAndWait(service, 'malformed-callbacks');
    const invalid = refused(400, 'validation_failed');

    const cases: [string, unknown][] = [
      ['not JSON', '{"job_id": "'],
      ['JSON but not an object', JSON.stringify([jobId])],
      ['no job_id', { transcription: openAiVerboseJson(sampleCallScript) }],
      ['a job_id that is not a string', { job_id: 42, transcription: openAiVerboseJson(sampleCallScript) }],
      ['neither transcription nor error', { job_id: jobId }],
      ['a transcription that is plain text', { job_id: jobId, transcription: 'Hello? Hello?' }],
      ['a transcription with neither segments nor words (not verbose_json)', { job_id: jobId, transcription: { text: 'Hello? Hello?' } }],
      ['a transcription whose words have no text', { job_id: jobId, transcription: { segments: [], words: [{ start: 1, end: 2 }] } }],
    ];
    for (const [what, body] of cases) expect(await sendCallback(service, body, { secret }), what).toEqual(invalid);

    expect(await jobState(service, jobId)).toBe('waiting');
    expect(await receiptCount(service)).toBe(0);
    expect(await statusOf(service, callId)).toBe('TRANSCRIBING');
    expect(await sendCallback(service, transcriptOf(jobId), { secret })).toEqual(accepted);
    expect((await waitForOutcome(service.server, 'alice', callId)).status).toBe('COMPLETED');
    // Every callback is counted, the malformed ones too.
    const counts = await callbackCounts(service);
    expect(counts.accepted).toBe(1);
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0), JSON.stringify(counts)).toBe(cases.length + 1);
  }, 90_000);

  test('404 transcription_job_not_found for a job the service never submitted; the waiting call is untouched', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const { callId, submission: { jobId } } = await uploadAndWait(service, 'unknown-job');

    expect(await sendCallback(service, transcriptOf(`job_${randomUUID()}`), { secret }), 'a made-up job').toEqual(refused(404, 'transcription_job_not_found'));
    // The call's own id is not a job id.
    expect(await sendCallback(service, transcriptOf(callId), { secret }), 'the call id').toEqual(refused(404, 'transcription_job_not_found'));
    expect(await sendCallback(service, { job_id: `${jobId}x`, error: { message: 'out of memory' } }, { secret }), 'an error for a made-up job').toEqual(refused(404, 'transcription_job_not_found'));

    expect(await jobState(service, jobId)).toBe('waiting');
    expect(await statusOf(service, callId)).toBe('TRANSCRIBING');
    expect(await receiptCount(service)).toBe(0);
    expect(await callbackCounts(service)).toEqual({ unknown_job: 3 });
  }, 60_000);

  test('a replayed callback is 200 duplicate and changes nothing; another callback for the answered job is 409 transcription_job_not_waiting; the metric counts each outcome', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const { callId, submission: { jobId } } = await uploadAndWait(service, 'replayed-callback');
    const body = transcriptOf(jobId);
    const timestamp = nowSeconds();

    expect(await sendCallback(service, body, { secret, id: 'msg_first', timestamp })).toEqual(accepted);
    // The same message again (a provider's retry): at once, and once the call has completed.
    expect(await sendCallback(service, body, { secret, id: 'msg_first', timestamp })).toEqual({ status: 200, body: { status: 'duplicate' } });
    expect((await waitForOutcome(service.server, 'alice', callId)).status).toBe('COMPLETED');
    const eventsAfterCompletion = (await stageOutcomes(dataDir, callId));
    expect(await sendCallback(service, body, { secret, id: 'msg_first', timestamp })).toEqual({ status: 200, body: { status: 'duplicate' } });

    // Another message for the same job, a transcript or an error: the job is answered.
    const notWaiting = refused(409, 'transcription_job_not_waiting');
    expect(await sendCallback(service, body, { secret, id: 'msg_second' }), 'a second transcript').toEqual(notWaiting);
    expect(await sendCallback(service, { job_id: jobId, error: { message: 'late failure' } }, { secret, id: 'msg_third' }), 'a late error').toEqual(notWaiting);

    // Nothing changed: still COMPLETED, no run, one receipt, after three more of the engine's looks
    // at the queue (one at least began after the refusals: looks never overlap, and one may still have been owed).
    const looked = await queueLooks(service.server);
    await waitFor('the engine to look at the queue again', async () => (await queueLooks(service.server)) >= looked + 3);
    expect(await statusOf(service, callId)).toBe('COMPLETED');
    const outcome = await waitForOutcome(service.server, 'alice', callId);
    expect(outcome).toMatchObject({ status: 'COMPLETED', errorReason: null });
    expect((await stageOutcomes(dataDir, callId))).toEqual(eventsAfterCompletion);
    expect(await receiptCount(service)).toBe(1);
    expect(submissionsOf(service)).toHaveLength(1);

    // callscope_transcription_callbacks_total{outcome}: one line per outcome, each counted.
    expect(await callbackCounts(service)).toEqual({ accepted: 1, duplicate: 2, not_waiting: 2 });
  }, 90_000);

  test('an error callback fails the call with the provider\'s message; after a reprocess only the new job is answered (whisper.cpp\'s protocol and shape)', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, {
      TRANSCRIPTION_WEBHOOK_SECRET: secret, TRANSCRIPTION_URL: `${provider.origin}/inference`,
    });
    const { callId, submission: firstJob } = await uploadAndWait(service, 'provider-error');
    // whisper.cpp's server's fields (language always: its default is English; the contact's name as the prompt), plus the job.
    expect(firstJob.path).toBe('/inference');
    expect(firstJob.authorization).toBeUndefined();
    expect(firstJob.fields).toEqual({
      response_format: ['verbose_json'], language: ['auto'], token_timestamps: ['true'], max_len: ['100000'],
      // whisper-cli's decoding settings, every one, so that the site's server decodes as whisper-cli does.
      beam_size: ['1'], best_of: ['5'], temperature: ['0'], temperature_inc: ['0.2'],
      suppress_nst: ['true'], entropy_thold: ['2.4'], logprob_thold: ['-1.0'], no_speech_thold: ['0.6'],
      // And its VAD settings (used where the server was started with a VAD model).
      vad_threshold: ['0.35'], vad_min_speech_duration_ms: ['100'], vad_min_silence_duration_ms: ['100'], vad_speech_pad_ms: ['30'], vad_samples_overlap: ['0.1'],
      // Led by a space as OpenAI's whisper gives a prompt; its 8 bytes bound its tokens, plus whisper's [_PREV_].
      prompt: [' Sheila.'], carry_initial_prompt: ['true'], max_context: ['9'],
      job_id: [firstJob.jobId], callback_url: [service.callbackUrl],
    });

    expect(await sendCallback(service, { job_id: firstJob.jobId, error: { message: 'CUDA out of memory on node gpu-3' } }, { secret })).toEqual(accepted);
    const failed = await waitForOutcome(service.server, 'alice', callId);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorReason).toContain('CUDA out of memory on node gpu-3');
    expect(await statusOf(service, callId)).toBe('FAILED');
    // A failed job takes no transcript.
    expect(await sendCallback(service, transcriptOf(firstJob.jobId), { secret }), 'a transcript for the failed job').toEqual(refused(409, 'transcription_job_not_waiting'));

    // Reprocessed: a new submission with a new job; the old job is no longer answered.
    expect((await reprocess(dataDir, callId)).code).toBe(0);
    const secondJob = await waitForSubmission(service, 2);
    expect(secondJob.jobId).not.toBe(firstJob.jobId);
    await waitUntilWaiting(service, callId);
    expect(await sendCallback(service, transcriptOf(firstJob.jobId), { secret }), 'a transcript for the job before the reprocess').toEqual(refused(409, 'transcription_job_not_waiting'));
    expect(await statusOf(service, callId)).toBe('TRANSCRIBING');

    // whisper.cpp's verbose_json (words inside segments), with a charset in the content type.
    expect(await sendCallback(service, transcriptOf(secondJob.jobId, whisperCppVerboseJson(sampleCallScript)), { secret, headers: { 'content-type': 'application/json; charset=utf-8' } })).toEqual(accepted);
    const completed = await waitForOutcome(service.server, 'alice', callId);
    expect(completed).toMatchObject({ status: 'COMPLETED', errorReason: null });
    expect(completed.actionItemTitles.length).toBeGreaterThan(0);
    const transcript = (await (await asUser(service.server, 'alice', `/api/calls/${callId}/transcript`)).json()) as { pipeline: { transcriptionProvider: string }; segments: { text: string }[] };
    expect(transcript.pipeline.transcriptionProvider).toBe('callback');
    expect(transcript.segments.map((segment) => segment.text).join(' ')).toContain('insurance card');

    // Reprocessing a call completed by a callback submits it again (the old transcript is not reused).
    expect((await reprocess(dataDir, callId)).code).toBe(0);
    const thirdJob = await waitForSubmission(service, 3);
    expect(new Set([firstJob.jobId, secondJob.jobId, thirdJob.jobId]).size).toBe(3);
    await waitUntilWaiting(service, callId);
    expect(await statusOf(service, callId)).toBe('TRANSCRIBING');
  }, 120_000);

  test('a service restarted while a call waits (SIGTERM, then SIGKILL) keeps waiting without submitting again, and takes the callback afterwards', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    let service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const { callId, submission: { jobId } } = await uploadAndWait(service, 'restart-while-waiting');
    const restart = async (stop: (server: ServerProcess) => Promise<void>) => {
      await stop(service.server);
      service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret }, service.port);
      // Three of the new engine's looks at the queue (after its start-up recovery), unless the call moved first.
      await waitFor('the engine to look at the queue three times', async () => (await queueLooks(service.server)) >= 3 || (await statusOf(service, callId)) !== 'TRANSCRIBING');
      expect(await statusOf(service, callId)).toBe('TRANSCRIBING');
      expect(submissionsOf(service)).toHaveLength(1);
      expect(await jobState(service, jobId)).toBe('waiting');
    };

    await restart(async (server) => {
      process.kill(server.child.pid!, 'SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
    });
    await restart(killServer);

    expect(await sendCallback(service, transcriptOf(jobId), { secret })).toEqual(accepted);
    const outcome = await waitForOutcome(service.server, 'alice', callId);
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.actionItemTitles.length).toBeGreaterThan(0);
    expect(submissionsOf(service)).toHaveLength(1);
    await expectNoOrphans(dataDir);
  }, 120_000);

  test('secret rotation on the admin page: the new secret is shown once; a callback signed with the old one is refused, one signed with the new one accepted', async () => {
    const dataDir = newDataDir();
    const service = await startCallbackService(dataDir);
    const admin = await signedInAdmin(service);
    const rotate = async () => {
      const response = await admin.fetch('/admin/api/transcription-webhook-secret', { method: 'POST' });
      expect(response.status, await response.clone().text()).toBe(200);
      const { secret } = (await response.json()) as { secret: string };
      expect(isWebhookSecret(secret)).toBe(true);
      return secret;
    };
    // Without a session (or without the CSRF token), no secret.
    expect((await fetch(`${service.server.baseUrl}/admin/api/transcription-webhook-secret`, { method: 'POST' })).status).toBe(401);
    expect((await admin.fetch('/admin/api/transcription-webhook-secret', { method: 'POST', headers: { 'x-csrf-token': 'wrong' } })).status).toBe(403);

    const oldSecret = await rotate();
    const { callId, submission: { jobId } } = await uploadAndWait(service, 'rotated-secret');
    // The old secret is good now: its callback for a made-up job gets past the signature.
    expect(await sendCallback(service, transcriptOf(`job_${randomUUID()}`), { secret: oldSecret })).toEqual(refused(404, 'transcription_job_not_found'));

    const newSecret = await rotate();
    expect(newSecret).not.toBe(oldSecret);
    expect(await sendCallback(service, transcriptOf(jobId), { secret: oldSecret }), 'signed with the old secret').toEqual(refused(401, 'callback_signature_invalid'));
    expect(await jobState(service, jobId)).toBe('waiting');
    expect(await sendCallback(service, transcriptOf(jobId), { secret: newSecret }), 'signed with the new secret').toEqual(accepted);
    expect((await waitForOutcome(service.server, 'alice', callId)).status).toBe('COMPLETED');

    // Shown once: neither the settings nor the logs hold it.
    const settings = await (await admin.fetch('/admin/api/settings')).text();
    expect(settings).not.toContain(newSecret.slice('whsec_'.length));
    expect(service.server.output()).not.toContain(newSecret.slice('whsec_'.length));
    expect(service.server.output()).not.toContain(oldSecret.slice('whsec_'.length));
  }, 90_000);

  test('with TRANSCRIPTION_WEBHOOK_SECRET in the environment, the admin page does not rotate it (400 validation_failed) and the environment\'s secret stays in force', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startCallbackService(dataDir, { TRANSCRIPTION_WEBHOOK_SECRET: secret });
    const admin = await signedInAdmin(service);
    const response = await admin.fetch('/admin/api/transcription-webhook-secret', { method: 'POST' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    // Still the environment's: its signature passes (404 for a made-up job, not 401).
    expect(await sendCallback(service, transcriptOf(`job_${randomUUID()}`), { secret })).toEqual(refused(404, 'transcription_job_not_found'));
  }, 60_000);
});
