import { sql } from 'drizzle-orm';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import type { StageContext } from '../../src/pipeline/StageContext.js';
import { StageFailure } from '../../src/pipeline/StageFailure.js';
import type { CallPipeline } from '../../src/processing/CallPipeline.js';
import { callFolders, rowsOfCall } from '../helpers/callInspection.js';
import {
  callView, engineIdle, StageGate, stageOutcomes, statusesOf, testPipeline, uploadCall, useEngineTestApp, waitFor, waitForStatus,
} from '../helpers/processingHarness.js';
import { seedCall } from '../helpers/seedCalls.js';

const setup = useEngineTestApp();

const alice = () => setup.testApp.as('alice');

const callFolderExists = (callId: string) => callFolders(setup.testApp.dataDir).includes(callId);

describe('working files', () => {
  test.each([
    ['COMPLETED', testPipeline(), ['analysis.json', 'original.wav', 'transcript.json']],
    ['FAILED', testPipeline({ analysis: async () => { throw new StageFailure('rejected', 'Refused by the model'); } }), ['original.wav']],
  ] as const)('a run that ends %s leaves only the audio and the stored documents in the call\'s folder', async (status, pipeline, files) => {
    let workDir = '';
    const callId = await uploadCall(alice());
    const processing = await setup.startEngine(async (job, run) => {
      workDir = job.workDir;
      await writeFile(join(job.workDir, 'cleaned.wav'), Buffer.alloc(16));
      return pipeline(job, run);
    });

    await waitForStatus(alice(), callId, status);
    await engineIdle(processing.engine);

    expect(workDir.startsWith(join(setup.testApp.dataDir, 'objects', 'calls', callId))).toBe(true);
    expect(readdirSync(join(setup.testApp.dataDir, 'objects', 'calls', callId)).sort()).toEqual(files);
  });
});

describe('a run that loses its call', () => {
  test.each(['analysis', 'actionItems'] as const)('a call deleted while its %s stage runs is not stored again, and none of its files are left', async (stage) => {
    const gate = new StageGate({ honourAbort: false });
    let laterStages = 0;
    // The stage goes on after the deletion and writes a working file, as a real stage would.
    const stuckStage = async (context: StageContext, job: { workDir: string }) => {
      await gate.pass(context);
      await writeFile(join(job.workDir, 'cleaned.wav'), Buffer.alloc(16));
    };
    const pipeline = stage === 'analysis'
      ? testPipeline({ analysis: stuckStage, actionItems: async () => { laterStages += 1; return []; } })
      : testPipeline({ actionItems: async (context, job) => { await stuckStage(context, job); return []; } });
    const callId = await uploadCall(alice());
    const processing = await setup.startEngine(pipeline);
    await gate.reached();

    await setup.testApp.services.database.sql.run(sql`DELETE FROM calls WHERE id = ${callId}`);
    gate.open();
    await engineIdle(processing.engine);

    expect(callFolderExists(callId)).toBe(false);
    for (const table of ['calls', 'call_artifacts', 'action_items', 'processing_events'] as const) expect(await rowsOfCall(setup.testApp.services, table, callId)).toBe(0);
    expect((await alice()(`/api/calls/${callId}`)).status).toBe(404);
    expect(laterStages).toBe(0);
  });

  test('after losing a call the engine goes on with the next one', async () => {
    const gate = new StageGate({ honourAbort: false });
    const lostCall = await uploadCall(alice());
    const processing = await setup.startEngine(testPipeline({ transcription: async (context, job) => { if (job.callId === lostCall) await gate.pass(context); } }));
    await gate.reached();
    const nextCall = await uploadCall(alice());

    await setup.testApp.services.database.sql.run(sql`DELETE FROM calls WHERE id = ${lostCall}`);
    gate.open();

    await waitForStatus(alice(), nextCall, 'COMPLETED');
    await engineIdle(processing.engine);
    expect(callFolderExists(lostCall)).toBe(false);
  });
});

describe('start-up recovery', () => {
  /** A call another (dead) process held: in flight under its lease, started `attempts` times, with its stage event left RUNNING. */
  async function abandonedCall(status: 'TRANSCRIBING' | 'ANALYZING', attempts: number, lease: string | null = 'engine-dead'): Promise<string> {
    const callId = await seedCall(setup.testApp.services, 'alice', { status });
    const database = setup.testApp.services.database.sql;
    await database.run(sql`UPDATE calls SET worker_lease = ${lease}, processing_attempts = ${attempts}, stage = 'transcription', last_progress_at = ${Date.now()}
      WHERE id = ${callId}`);
    await database.run(sql`INSERT INTO processing_events (call_id, stage, outcome, started_at) VALUES (${callId}, 'transcription', 'RUNNING', ${Date.now() - 5000})`);
    return callId;
  }

  test.each([
    ['TRANSCRIBING', 'engine-dead'],
    ['ANALYZING', null],
  ] as const)('a call left %s by a dead process (lease %s) is queued again and completed; its RUNNING stage becomes INTERRUPTED', async (status, lease) => {
    const callId = await abandonedCall(status, 1, lease);

    const processing = await setup.startEngine(testPipeline());

    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(await stageOutcomes(processing.engine, callId)).toEqual([
      ['transcription', 'INTERRUPTED'], ['transcription', 'OK'], ['analysis', 'OK'], ['actionItems', 'OK'],
    ]);
  });

  test('a call interrupted MAX_PROCESSING_ATTEMPTS times is FAILED with a reason and not started again', async () => {
    const exhausted = await abandonedCall('TRANSCRIBING', 3);
    const retried = await abandonedCall('TRANSCRIBING', 2);
    const started: string[] = [];

    const processing = await setup.startEngine(testPipeline({ transcription: async (_context, job) => { started.push(job.callId); } }));

    expect(await callView(alice(), exhausted)).toEqual({
      status: 'FAILED',
      errorReason: 'Processing was interrupted 3 times (the service stopped while working on this call); it was not tried again',
    });
    await waitForStatus(alice(), retried, 'COMPLETED');
    expect(started).toEqual([retried]);
    expect(await stageOutcomes(processing.engine, exhausted)).toEqual([['transcription', 'INTERRUPTED']]);
  });

  test('a call that keeps killing the process is FAILED once it has been started MAX_PROCESSING_ATTEMPTS times', async () => {
    const callId = await uploadCall(alice());
    const crashed: StageGate[] = [];
    // Each engine takes the call and "dies" in its stage: it is left behind with its stage never
    // returning, as a crashed process would be, and the next engine starts on the same database.
    for (let start = 1; start <= 3; start += 1) {
      const crashing = new StageGate({ honourAbort: false });
      crashed.push(crashing);
      await setup.startEngine(testPipeline({ transcription: crashing.pass }));
      await crashing.reached();
    }

    await setup.startEngine(testPipeline());

    expect(await callView(alice(), callId)).toEqual({
      status: 'FAILED',
      errorReason: 'Processing was interrupted 3 times (the service stopped while working on this call); it was not tried again',
    });
    for (const gate of crashed) gate.open();
  });
});

describe('graceful stop', () => {
  test('a stage that finishes within the grace period completes its call, and no new call is taken meanwhile', async () => {
    const gate = new StageGate();
    const running = await uploadCall(alice());
    const processing = await setup.startEngine(testPipeline({ transcription: gate.pass }));
    await gate.reached();

    const stopped = processing.stop(10_000);
    const uploadedDuringStop = await uploadCall(alice());
    gate.open();

    expect(await stopped).toEqual({ finished: 1, handedBack: 0 });
    expect((await callView(alice(), running)).status).toBe('COMPLETED');
    expect((await callView(alice(), uploadedDuringStop)).status).toBe('QUEUED');
  });

  test('a stage that does not finish within the grace period is aborted and its call handed back to the queue; another engine completes it', async () => {
    const gate = new StageGate();
    const callId = await uploadCall(alice());
    const first = await setup.startEngine(testPipeline({ transcription: gate.pass }));
    const context = await gate.reached();

    expect(await first.stop(200)).toEqual({ finished: 0, handedBack: 1 });

    expect(context.signal.aborted).toBe(true);
    expect(await callView(alice(), callId)).toEqual({ status: 'QUEUED', errorReason: null });
    expect(await stageOutcomes(first.engine, callId)).toEqual([['transcription', 'INTERRUPTED']]);
    const second = await setup.startEngine(testPipeline());
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(await stageOutcomes(second.engine, callId)).toEqual([
      ['transcription', 'INTERRUPTED'], ['transcription', 'OK'], ['analysis', 'OK'], ['actionItems', 'OK'],
    ]);
  });

  test('stop returns after the grace period even when a stage ignores its abort signal, and the late stage cannot take the call back', async () => {
    const gate = new StageGate({ honourAbort: false });
    const callId = await uploadCall(alice());
    const first = await setup.startEngine(testPipeline({ transcription: gate.pass }));
    await gate.reached();

    const stopped = await Promise.race([first.stop(200), sleep(5000).then(() => 'still waiting' as const)]);

    expect(stopped).toEqual({ finished: 0, handedBack: 1 });
    expect((await callView(alice(), callId)).status).toBe('QUEUED');
    gate.open();
    await engineIdle(first.engine);
    expect((await callView(alice(), callId)).status).toBe('QUEUED');
    await setup.startEngine(testPipeline());
    await waitForStatus(alice(), callId, 'COMPLETED');
  });
});

describe('concurrency', () => {
  test('with WORKER_CONCURRENCY 2, five queued calls run at most two at a time, in queue order, and all complete', async () => {
    await setup.restartApp({ WORKER_CONCURRENCY: '2' });
    const gates = new Map<string, StageGate>();
    const gateOf = (callId: string) => gates.get(callId) ?? gates.set(callId, new StageGate()).get(callId)!;
    const startOrder: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const gated = testPipeline({ transcription: (context, job) => gateOf(job.callId).pass(context) });
    const counted: CallPipeline = async (job, run) => {
      startOrder.push(job.callId);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        return await gated(job, run);
      } finally {
        inFlight -= 1;
      }
    };
    const callIds: string[] = [];
    for (let index = 0; index < 5; index += 1) callIds.push(await uploadCall(alice()));
    const inFlightNow = async () => Object.values(await statusesOf(alice(), callIds)).filter((status) => status === 'TRANSCRIBING' || status === 'ANALYZING').length;

    await setup.startEngine(counted);

    await waitFor('two calls to start', () => startOrder.length === 2);
    expect([...startOrder].sort()).toEqual(callIds.slice(0, 2).sort());
    expect(await statusesOf(alice(), callIds)).toEqual(Object.fromEntries(callIds.map((id, index) => [id, index < 2 ? 'TRANSCRIBING' : 'QUEUED'])));
    for (const [index, callId] of callIds.entries()) {
      await waitFor(`call ${index} to reach its gate`, () => gates.get(callId)?.isReached);
      expect(await inFlightNow()).toBeLessThanOrEqual(2);
      gateOf(callId).open();
      await waitForStatus(alice(), callId, 'COMPLETED');
      const next = callIds[index + 2];
      if (next) {
        await waitFor(`call ${index + 2} to start`, () => startOrder.length === index + 3);
        expect(startOrder[index + 2]).toBe(next);
      }
    }
    expect(Object.values(await statusesOf(alice(), callIds))).toEqual(Array(5).fill('COMPLETED'));
    expect(mostInFlight).toBe(2);
  });
});
