import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { createServices, type Services } from '../../../src/createServices.js';
import type { CallStatus } from '../../../src/domain/calls/callTypes.js';
import type { CallStatusEvent, CallStatusSnapshot } from '../../../src/http/schemas/callEventSchemas.js';
import { ProcessingQueue } from '../../../src/processing/ProcessingQueue.js';
import { wavFile } from '../../helpers/audioFixtures.js';
import { errorOf, postUpload } from '../../helpers/callInspection.js';
import { EventStreamReader, type ReceivedEvent } from '../../helpers/eventStreamReader.js';
import { seedCall } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { testDatabaseEngine } from '../../helpers/testDatabase.js';
import { uploadForm } from '../../helpers/uploads.js';

/*
 * GET /api/calls/events: the live status stream. The feed polls every 100 ms here; nothing below
 * waits for a time: each read waits for the next event the server sends.
 */

const fastFeed = { EVENTS_POLL_INTERVAL_MS: '100', EVENTS_HEARTBEAT_MS: '200' };

/** Streams opened by a test, aborted after it. */
const opened: AbortController[] = [];

afterEach(() => {
  for (const controller of opened.splice(0)) controller.abort();
});

/** Opens the stream as `user`; the response, and its reader when it is the stream. */
async function openEvents(app: TestApp, user: string, headers: Record<string, string> = {}): Promise<{ response: Response; events: EventStreamReader; controller: AbortController }> {
  const controller = new AbortController();
  opened.push(controller);
  const response = await app.as(user)('/api/calls/events', { headers, signal: controller.signal });
  return { response, events: EventStreamReader.of(response), controller };
}

/** Opens the stream, asking again while it is refused: the server frees a slot once it sees the closed stream's connection go. */
async function openOnceFreed(app: TestApp, user: string): ReturnType<typeof openEvents> {
  for (;;) {
    const stream = await openEvents(app, user);
    if (stream.response.status !== 429) return stream;
    stream.controller.abort();
    await sleep(20);
  }
}

/** Reads the stream's snapshot (its first event). */
async function snapshotOf(events: EventStreamReader): Promise<ReceivedEvent<CallStatusSnapshot>> {
  const first = await events.nextEvent<CallStatusSnapshot>();
  expect(first.event).toBe('snapshot');
  return first;
}

/** Reads status events until one says `callId` is `status`; every status event read on the way, that one last. */
async function statusEventsUntil(events: EventStreamReader, callId: string, status: CallStatus, progress?: number): Promise<ReceivedEvent<CallStatusEvent>[]> {
  const read: ReceivedEvent<CallStatusEvent>[] = [];
  for (;;) {
    const event = await events.nextEvent<CallStatusEvent>();
    expect(event.event).toBe('status');
    read.push(event);
    if (event.data.callId === callId && event.data.status === status && (progress === undefined || event.data.progress === progress)) return read;
  }
}

describe('GET /api/calls/events', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(fastFeed); });
  afterAll(async () => { await testApp.close(); });

  test('is an event stream that opens with a retry hint and a snapshot of the caller\'s unfinished calls only', async () => {
    const queued = await seedCall(testApp.services, 'alice', { status: 'QUEUED' });
    const transcribing = await seedCall(testApp.services, 'alice', { status: 'TRANSCRIBING' });
    await seedCall(testApp.services, 'alice', { status: 'COMPLETED' });
    await seedCall(testApp.services, 'alice', { status: 'FAILED' });
    await seedCall(testApp.services, 'bob', { status: 'QUEUED' });

    const { response, events } = await openEvents(testApp, 'alice');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await events.next()).toEqual({ retry: 3000 });
    const snapshot = await snapshotOf(events);
    expect(snapshot.id).toMatch(/^\d+$/);
    expect(snapshot.data.calls.map((call) => [call.callId, call.status])).toEqual([[queued, 'QUEUED'], [transcribing, 'TRANSCRIBING']]);
    expect(snapshot.data.calls[0]).toEqual({ callId: queued, status: 'QUEUED', progress: 0, updatedAt: expect.stringMatching(/Z$/) as string });
  });

  test('tells each status, progress and failure of the caller\'s call as the engine writes it, and nothing of another user\'s', async () => {
    const callId = await seedCall(testApp.services, 'carol', { status: 'QUEUED' });
    const foreign = await seedCall(testApp.services, 'dave', { status: 'QUEUED' });
    const { events } = await openEvents(testApp, 'carol');
    await snapshotOf(events);
    const { calls, clock } = testApp.services;
    const queue = new ProcessingQueue(testApp.services.database.sql);

    // The other user's call changes first: had it leaked, it would come before carol's own.
    await calls.update(foreign, { status: 'TRANSCRIBING', workerLease: 'engine-test', updatedAt: clock() });
    await calls.update(callId, { status: 'TRANSCRIBING', workerLease: 'engine-test', progress: 0, updatedAt: clock() });
    const untilTranscribing = await statusEventsUntil(events, callId, 'TRANSCRIBING');
    expect(untilTranscribing.map((event) => event.data.callId)).toEqual([callId]);

    await queue.reportProgress(foreign, 'engine-test', 'transcription', 0.5, clock());
    expect(await queue.reportProgress(callId, 'engine-test', 'transcription', 0.4, clock())).toBe(true);
    const [progress] = (await statusEventsUntil(events, callId, 'TRANSCRIBING', 0.4)).slice(-1);
    expect(progress!.data).toEqual({ callId, status: 'TRANSCRIBING', progress: 0.4, stage: 'transcription', updatedAt: expect.stringMatching(/Z$/) as string });
    expect(progress!.id).toBe(String(Date.parse(progress!.data.updatedAt)));

    expect(await queue.fail(callId, 'engine-test', 'The audio could not be decoded', clock())).toBe(true);
    const untilFailed = await statusEventsUntil(events, callId, 'FAILED');
    expect(untilFailed.every((event) => event.data.callId === callId)).toBe(true);
    expect(untilFailed.at(-1)!.data).toMatchObject({ status: 'FAILED', errorReason: 'The audio could not be decoded' });
    expect(untilFailed.at(-1)!.data).not.toHaveProperty('stage');
  });

  test('tells of a call uploaded while the stream is open', async () => {
    const { events } = await openEvents(testApp, 'erin');
    expect((await snapshotOf(events)).data.calls).toEqual([]);
    const upload = await postUpload(testApp.as('erin'), uploadForm(wavFile(0.5)));
    expect(upload.status).toBe(202);
    const { callId } = (await upload.json()) as { callId: string };
    const [event] = await statusEventsUntil(events, callId, 'QUEUED');
    expect(event!.data).toMatchObject({ callId, status: 'QUEUED', progress: 0 });
  });

  test('a reconnect with Last-Event-ID also lists the calls that finished meanwhile; a fresh connection only the unfinished', async () => {
    const finishing = await seedCall(testApp.services, 'frank', { status: 'ANALYZING' });
    const first = await openEvents(testApp, 'frank');
    const snapshot = await snapshotOf(first.events);
    expect(snapshot.data.calls.map((call) => call.callId)).toEqual([finishing]);
    first.controller.abort();

    await testApp.services.calls.update(finishing, { status: 'COMPLETED', progress: 1, updatedAt: testApp.services.clock() });
    const resumed = await openEvents(testApp, 'frank', { 'last-event-id': snapshot.id! });
    expect((await snapshotOf(resumed.events)).data.calls).toEqual([
      { callId: finishing, status: 'COMPLETED', progress: 1, updatedAt: expect.stringMatching(/Z$/) as string },
    ]);
    const fresh = await openEvents(testApp, 'frank', { 'last-event-id': 'not-an-id' });
    expect((await snapshotOf(fresh.events)).data.calls).toEqual([]);
  });

  test('sends heartbeat comments while nothing changes', async () => {
    const { events } = await openEvents(testApp, 'gina');
    await snapshotOf(events);
    let message = await events.next();
    while (message && message.comment === undefined) message = await events.next();
    expect(message).toEqual({ comment: 'heartbeat' });
  });

  test('needs credentials like the rest of /api', async () => {
    const anonymous = await fetch(`${testApp.baseUrl}/api/calls/events`);
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe('auth_invalid');
  });
});

describe('stream limits', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp({ ...fastFeed, EVENTS_MAX_STREAMS_PER_USER: '2', EVENTS_MAX_STREAMS: '3' }); });
  afterAll(async () => { await testApp.close(); });

  test('one stream over the per-user or the server-wide cap is 429 too_many_streams; a closed stream frees its slot', async () => {
    const aliceFirst = await openEvents(testApp, 'alice');
    await snapshotOf(aliceFirst.events);
    await snapshotOf((await openEvents(testApp, 'alice')).events);
    const overUser = await testApp.as('alice')('/api/calls/events');
    expect(overUser.status).toBe(429);
    expect(await errorOf(overUser)).toMatchObject({ code: 'too_many_streams', details: { scope: 'user', limit: 2 } });

    await snapshotOf((await openEvents(testApp, 'bob')).events);
    const overServer = await testApp.as('carol')('/api/calls/events');
    expect(overServer.status).toBe(429);
    expect(await errorOf(overServer)).toMatchObject({ code: 'too_many_streams', details: { scope: 'server', limit: 3 } });

    aliceFirst.controller.abort();
    const again = await openOnceFreed(testApp, 'alice');
    expect(again.response.status).toBe(200);
    await snapshotOf(again.events);
  });
});

describe('lifecycle', () => {
  test('a stream outlives REQUEST_TIMEOUT_MS: it is no request that takes too long', async () => {
    const testApp = await startTestApp({ ...fastFeed, REQUEST_TIMEOUT_MS: '1000', EVENTS_HEARTBEAT_MS: '100' });
    const { events } = await openEvents(testApp, 'alice');
    await snapshotOf(events);
    // Fifteen heartbeats 100 ms apart: past the 1 s timeout, and the stream still open.
    for (let heartbeats = 0; heartbeats < 15;) {
      const message = await events.next();
      if (!message) throw new Error('the stream ended');
      if (message.comment === 'heartbeat') heartbeats += 1;
    }
    await testApp.close();
  });

  test('app.close() ends the open streams and does not wait for their clients', async () => {
    const testApp = await startTestApp(fastFeed);
    const streams = [await openEvents(testApp, 'alice'), await openEvents(testApp, 'alice'), await openEvents(testApp, 'bob')];
    for (const { events } of streams) await snapshotOf(events);
    // The app itself, not the helper's close (which first drops every connection).
    await testApp.app.close();
    for (const { events } of streams) expect(await events.rest()).toBeInstanceOf(Array);
    await testApp.close();
  });
});

describe.runIf(testDatabaseEngine === 'postgres')('several nodes on one PostgreSQL database', () => {
  let testApp: TestApp;
  let otherNode: Services;
  let otherDataDir: string;
  beforeAll(async () => {
    testApp = await startTestApp(fastFeed);
    otherDataDir = mkdtempSync(join(tmpdir(), 'callscope-other-node-'));
    otherNode = await createServices(loadConfig({ DATABASE_URL: testApp.services.config.DATABASE_URL!, DATA_DIR: otherDataDir, LOCAL_AUTH: 'true' }), { processMetrics: false });
  });
  afterAll(async () => {
    await otherNode.close();
    rmSync(otherDataDir, { recursive: true, force: true });
    await testApp.close();
  });

  test('a change written by another node arrives on this node\'s streams', async () => {
    const callId = await seedCall(otherNode, 'harry', { status: 'QUEUED' });
    const { events } = await openEvents(testApp, 'harry');
    expect((await snapshotOf(events)).data.calls.map((call) => call.callId)).toEqual([callId]);
    const queue = new ProcessingQueue(otherNode.database.sql);
    await otherNode.calls.update(callId, { workerLease: 'other-node' });
    await queue.setStatus(callId, 'other-node', 'ANALYZING', otherNode.clock());
    const [event] = (await statusEventsUntil(events, callId, 'ANALYZING')).slice(-1);
    expect(event!.data).toMatchObject({ callId, status: 'ANALYZING' });
  });
});
