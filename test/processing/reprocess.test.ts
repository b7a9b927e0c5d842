import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { StageFailure } from '../../src/pipeline/StageFailure.js';
import { errorOf, storedAudioPath } from '../helpers/callInspection.js';
import {
  callView, defaultActionItemTitles, testPipeline, uploadCall, useEngineTestApp, waitFor, waitForStatus,
} from '../helpers/processingHarness.js';
import { seedCall } from '../helpers/seedCalls.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const dayMs = 24 * 60 * 60_000;

interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `callscope <args>` as an operator would: a separate process on the same DATA_DIR. */
function callscope(args: string[], env: Record<string, string>): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', ...args], { cwd: projectRoot, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const setup = useEngineTestApp();

const alice = () => setup.testApp.as('alice');
// On the app's database: its DATA_DIR, and on a PostgreSQL run its DATABASE_URL.
const reprocess = (callId: string) => {
  const { DATABASE_URL } = setup.testApp.services.config;
  return callscope(['reprocess', callId], { DATA_DIR: setup.testApp.dataDir, ...(DATABASE_URL ? { DATABASE_URL } : {}) });
};

/** A pipeline whose analysis says which run produced it ("Run 1", "Run 2", ...). */
function numberedRuns() {
  let runs = 0;
  return testPipeline({ analysis: async () => ({ oneLineSummary: `Run ${++runs}` }) });
}

async function summaryOf(callId: string): Promise<string> {
  return ((await (await alice()(`/api/calls/${callId}/analysis`)).json()) as { oneLineSummary: string }).oneLineSummary;
}

async function actionItemsOf(callId: string): Promise<{ id: string; title: string }[]> {
  const items = (await (await alice()('/api/actions')).json()) as { id: string; callRecordId: string; title: string }[];
  return items.filter((item) => item.callRecordId === callId);
}

describe('operator reprocess (callscope reprocess)', () => {
  test('a COMPLETED call goes back to QUEUED, then completes again with its analysis overwritten and its action items recreated', async () => {
    const pipeline = numberedRuns();
    const callId = await uploadCall(alice());
    const first = await setup.startEngine(pipeline);
    await waitForStatus(alice(), callId, 'COMPLETED');
    await first.stop();
    const firstItems = await actionItemsOf(callId);
    expect(await summaryOf(callId)).toBe('Run 1');

    const outcome = await reprocess(callId);

    expect(outcome).toEqual({ code: 0, stdout: `Call ${callId} is queued again; the running service picks it up within a second.\n`, stderr: '' });
    expect(await callView(alice(), callId)).toEqual({ status: 'QUEUED', errorReason: null });
    await setup.startEngine(pipeline);
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(await summaryOf(callId)).toBe('Run 2');
    const secondItems = await actionItemsOf(callId);
    expect(secondItems.map((item) => item.title).sort()).toEqual([...defaultActionItemTitles].sort());
    expect(secondItems.filter((item) => firstItems.some((old) => old.id === item.id))).toEqual([]);
  });

  test('a FAILED call reprocessed from another process is picked up by the running engine without being woken, and completes', async () => {
    let runs = 0;
    const callId = await uploadCall(alice());
    await setup.startEngine(testPipeline({
      analysis: async () => {
        runs += 1;
        if (runs === 1) throw new StageFailure('unavailable', 'The language model is not installed');
      },
    }));
    await waitForStatus(alice(), callId, 'FAILED');

    expect((await reprocess(callId)).code).toBe(0);

    expect(await waitForStatus(alice(), callId, 'COMPLETED')).toEqual({ status: 'COMPLETED', errorReason: null });
    expect(await actionItemsOf(callId)).toHaveLength(defaultActionItemTitles.length);
  });

  test('a call in flight and an unknown call are refused with exit code 1, a malformed id with 64, and nothing changes', async () => {
    const inFlight = await seedCall(setup.testApp.services, 'alice', { status: 'TRANSCRIBING' });
    const unknown = randomUUID();

    const [inFlightOutcome, unknownOutcome, malformedOutcome] = await Promise.all([reprocess(inFlight), reprocess(unknown), reprocess('not-a-call-id')]);

    expect(inFlightOutcome).toEqual({ code: 1, stdout: '', stderr: `Call ${inFlight} is still being processed; reprocess it once it has completed or failed.\n` });
    expect((await callView(alice(), inFlight)).status).toBe('TRANSCRIBING');
    // The CLI names the database it looked in as the service does (SQLite's file, or PostgreSQL's host and name).
    expect(unknownOutcome).toEqual({ code: 1, stdout: '', stderr: `No call ${unknown} in ${setup.testApp.services.database.location}.\n` });
    expect(malformedOutcome.code).toBe(64);
    expect(malformedOutcome.stderr).toBe('"not-a-call-id" is not a call id (a UUID).\nUsage: callscope reprocess <callId>\n');
  });
});

describe('audio retention', () => {
  test('a finished call older than AUDIO_RETENTION_DAYS loses its original audio, keeps its transcript, analysis and action items, and can no longer be reprocessed', async () => {
    const now = Date.now();
    const expired = await seedCall(setup.testApp.services, 'alice', { createdAt: now - 31 * dayMs });
    const expiredFailed = await seedCall(setup.testApp.services, 'alice', { status: 'FAILED', createdAt: now - 31 * dayMs });
    const recent = await seedCall(setup.testApp.services, 'alice', { createdAt: now - 29 * dayMs });
    const engine = setup.idleEngine();

    expect(await engine.expireAudio()).toBe(2);

    expect(existsSync(storedAudioPath(setup.testApp.dataDir, expired, 'wav'))).toBe(false);
    expect(existsSync(storedAudioPath(setup.testApp.dataDir, expiredFailed, 'wav'))).toBe(false);
    expect(existsSync(storedAudioPath(setup.testApp.dataDir, recent, 'wav'))).toBe(true);
    expect(await setup.testApp.services.database.sql.get(sql`SELECT audio_object_key AS "audioKey" FROM calls WHERE id = ${expired}`)).toEqual({ audioKey: null });
    expect(await callView(alice(), expired)).toEqual({ status: 'COMPLETED', errorReason: null });
    expect((await alice()(`/api/calls/${expired}/transcript`)).status).toBe(200);
    expect((await alice()(`/api/calls/${expired}/analysis`)).status).toBe(200);
    expect(await actionItemsOf(expired)).toHaveLength(2);

    const outcome = await reprocess(expired);

    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(`The audio of call ${expired} is no longer held (AUDIO_RETENTION_DAYS=30), so it cannot be reprocessed.\n`);
    expect((await callView(alice(), expired)).status).toBe('COMPLETED');
  });

  test('an engine removes expired audio when it starts', async () => {
    const expired = await seedCall(setup.testApp.services, 'alice', { createdAt: Date.now() - 40 * dayMs });

    await setup.startEngine(testPipeline());

    await waitFor('the expired audio to be removed', () => !existsSync(storedAudioPath(setup.testApp.dataDir, expired, 'wav')));
    expect((await alice()(`/api/calls/${expired}/transcript`)).status).toBe(200);
  });

  test('with AUDIO_RETENTION_DAYS=0 audio is kept however old the call', async () => {
    await setup.restartApp({ AUDIO_RETENTION_DAYS: '0' });
    const old = await seedCall(setup.testApp.services, 'alice', { createdAt: Date.now() - 3650 * dayMs });
    const engine = setup.idleEngine();

    expect(await engine.expireAudio()).toBe(0);

    expect(existsSync(storedAudioPath(setup.testApp.dataDir, old, 'wav'))).toBe(true);
    const analysis = await alice()(`/api/calls/${old}/analysis`);
    expect(analysis.status).toBe(200);
  });

  test('a queued call keeps its audio however long it waited', async () => {
    const queued = await seedCall(setup.testApp.services, 'alice', { status: 'QUEUED', createdAt: Date.now() - 40 * dayMs });
    const engine = setup.idleEngine();

    expect(await engine.expireAudio()).toBe(0);

    expect(existsSync(storedAudioPath(setup.testApp.dataDir, queued, 'wav'))).toBe(true);
    const analysis = await alice()(`/api/calls/${queued}/analysis`);
    expect((await errorOf(analysis)).code).toBe('call_not_completed');
  });
});
