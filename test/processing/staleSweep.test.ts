import { sql } from 'drizzle-orm';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import type { StageContext } from '../../src/pipeline/StageContext.js';
import { errorOf } from '../helpers/callInspection.js';
import {
  callView, engineIdle, StageGate, stageOutcomes, testPipeline, uploadCall, useEngineTestApp, waitFor, waitForStatus,
} from '../helpers/processingHarness.js';
import { seedCall } from '../helpers/seedCalls.js';

const staleMinutes = 5;

const setup = useEngineTestApp({ STALE_JOB_MINUTES: String(staleMinutes) });

const alice = () => setup.testApp.as('alice');

/** Makes the call look as if its stages last reported progress `minutes` ago. */
async function lastProgressMinutesAgo(callId: string, minutes: number): Promise<void> {
  await setup.testApp.services.database.sql.run(sql`UPDATE calls SET last_progress_at = ${Date.now() - minutes * 60_000} WHERE id = ${callId}`);
}

function staleReason(stage: string): string {
  return `Processing made no progress during ${stage} for ${staleMinutes} minutes and was stopped; the call can be reprocessed`;
}

describe('stale-job sweep', () => {
  test.each([
    ['transcription', 'ends late as if it had succeeded', false],
    ['actionItems', 'stops when aborted', true],
  ] as const)('a call stuck in %s is FAILED with errorReason set; the stuck stage (which %s) sees its signal aborted and never overwrites the call', async (stage, _behaviour, honourAbort) => {
    const stuck = new StageGate({ honourAbort });
    const callId = await uploadCall(alice());
    const stuckWork = stage === 'transcription'
      ? { transcription: stuck.pass }
      : { actionItems: async (context: StageContext) => { await stuck.pass(context); return []; } };
    const processing = await setup.startEngine(testPipeline(stuckWork));
    const context = await stuck.reached();
    await lastProgressMinutesAgo(callId, staleMinutes + 1);

    expect(await processing.engine.sweepStale()).toEqual([callId]);

    expect(await callView(alice(), callId)).toEqual({ status: 'FAILED', errorReason: staleReason(stage) });
    expect(context.signal.aborted).toBe(true);
    stuck.open();
    await engineIdle(processing.engine);
    expect(await callView(alice(), callId)).toEqual({ status: 'FAILED', errorReason: staleReason(stage) });
    const analysis = await alice()(`/api/calls/${callId}/analysis`);
    expect(analysis.status).toBe(422);
    expect((await errorOf(analysis)).code).toBe('call_not_completed');
    expect(((await (await alice()('/api/actions')).json()) as unknown[])).toEqual([]);
    expect((await stageOutcomes(processing.engine, callId)).at(-1)).toEqual([stage, 'INTERRUPTED']);
    expect(await (await fetch(`${setup.testApp.baseUrl}/actuator/prometheus`)).text()).toContain('callscope_calls_finished_total{status="FAILED"} 1');
  });

  test('after sweeping a stuck call the engine goes on with the next one', async () => {
    const stuck = new StageGate({ honourAbort: true });
    const stuckCall = await uploadCall(alice());
    const processing = await setup.startEngine(testPipeline({ transcription: async (context, job) => { if (job.callId === stuckCall) await stuck.pass(context); } }));
    await stuck.reached();
    const nextCall = await uploadCall(alice());
    expect((await callView(alice(), nextCall)).status).toBe('QUEUED');
    await lastProgressMinutesAgo(stuckCall, staleMinutes + 1);

    await processing.engine.sweepStale();

    await waitForStatus(alice(), nextCall, 'COMPLETED');
    expect((await callView(alice(), stuckCall)).status).toBe('FAILED');
  });

  test('a call whose last progress is within STALE_JOB_MINUTES is left running', async () => {
    const gate = new StageGate();
    const callId = await uploadCall(alice());
    const processing = await setup.startEngine(testPipeline({ transcription: gate.pass }));
    await gate.reached();
    await lastProgressMinutesAgo(callId, staleMinutes - 1);

    expect(await processing.engine.sweepStale()).toEqual([]);

    expect((await callView(alice(), callId)).status).toBe('TRANSCRIBING');
    expect(gate.context?.signal.aborted).toBe(false);
    gate.open();
    await waitForStatus(alice(), callId, 'COMPLETED');
  });

  test('an in-flight call no engine of this process holds (its process is gone) is FAILED too, naming its stage', async () => {
    const callId = await seedCall(setup.testApp.services, 'alice', { status: 'ANALYZING' });
    await setup.testApp.services.database.sql.run(sql`UPDATE calls SET worker_lease = 'engine-gone', stage = 'analysis' WHERE id = ${callId}`);
    await lastProgressMinutesAgo(callId, 60);
    // Not started: a started engine would first recover the call as abandoned.
    const engine = setup.idleEngine();

    expect(await engine.sweepStale()).toEqual([callId]);

    expect(await callView(alice(), callId)).toEqual({ status: 'FAILED', errorReason: staleReason('analysis') });
  });
});

describe('a swept run that ends late', () => {
  test('a call reprocessed while its swept run is still stuck completes: the late run neither removes the new run\'s working files nor frees its slot', async () => {
    await setup.restartApp({ WORKER_CONCURRENCY: '2' });
    const stuck = new StageGate({ honourAbort: false });
    const analysing = new StageGate();
    let runs = 0;
    const pipeline = testPipeline({
      transcription: async (context, job) => {
        runs += 1;
        if (runs === 1) return stuck.pass(context);
        await writeFile(join(job.workDir, 'cleaned.wav'), Buffer.alloc(16));
      },
      analysis: async (context, job) => {
        await analysing.pass(context);
        await readFile(join(job.workDir, 'cleaned.wav'));
      },
    });
    const callId = await uploadCall(alice());
    const processing = await setup.startEngine(pipeline);
    await stuck.reached();
    await lastProgressMinutesAgo(callId, staleMinutes + 1);
    await processing.engine.sweepStale();
    expect(await processing.engine.queue.requeue(callId, Date.now())).toBe('queued');
    await processing.engine.wake();
    await analysing.reached();
    const runEnds = vi.spyOn(setup.testApp.services.calls, 'existsEvenDeleting');

    stuck.open();
    await waitFor('the stuck run to end', () => runEnds.mock.calls.length > 0);
    // That look at the call is a query: let it answer, and the late run's clean-up go on from there.
    await runEnds.mock.results[0]!.value;
    await new Promise((resolve) => setImmediate(resolve));

    expect(processing.engine.activeCallIds).toEqual([callId]);
    analysing.open();
    expect(await waitForStatus(alice(), callId, 'COMPLETED')).toEqual({ status: 'COMPLETED', errorReason: null });
  });
});
