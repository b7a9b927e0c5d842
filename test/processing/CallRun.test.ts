import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { StageFailure } from '../../src/pipeline/StageFailure.js';
import {
  actionItemWarning, StageGate, stageOutcomes, testPipeline, uploadCall, useEngineTestApp, waitForStatus,
} from '../helpers/processingHarness.js';

// The hook every stage runs through: retry rule, optional stages, events, progress, metrics, logs.

const setup = useEngineTestApp();

const alice = () => setup.testApp.as('alice');

/** Stage work that fails with `failures` in turn, then succeeds; counts its attempts. */
function failingFirst(...failures: Error[]) {
  const work = async () => {
    work.attempts += 1;
    const failure = failures[work.attempts - 1];
    if (failure) throw failure;
  };
  work.attempts = 0;
  return work;
}

async function metricsText(): Promise<string> {
  return (await fetch(`${setup.testApp.baseUrl}/actuator/prometheus`)).text();
}

async function analysisOf(callId: string): Promise<{ qualityWarnings: string[] }> {
  const response = await alice()(`/api/calls/${callId}/analysis`);
  expect(response.status).toBe(200);
  return (await response.json()) as { qualityWarnings: string[] };
}

async function actionItemCount(callId: string): Promise<number> {
  const items = (await (await alice()('/api/actions')).json()) as { callRecordId: string }[];
  return items.filter((item) => item.callRecordId === callId).length;
}

describe('retry rule', () => {
  test('a transient failure of the analysis is retried once and the call completes; its events show RETRIED then OK', async () => {
    const analysis = failingFirst(new StageFailure('transient', 'The model server answered 503'));
    const callId = await uploadCall(alice());

    const processing = await setup.startEngine(testPipeline({ analysis }));

    expect(await waitForStatus(alice(), callId, 'COMPLETED')).toEqual({ status: 'COMPLETED', errorReason: null });
    expect(analysis.attempts).toBe(2);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([
      ['transcription', 'OK'], ['analysis', 'RETRIED'], ['analysis', 'OK'], ['actionItems', 'OK'],
    ]);
    expect(await actionItemCount(callId)).toBe(2);
    const metrics = await metricsText();
    expect(metrics).toContain('callscope_pipeline_stage_retries_total{stage="analysis"} 1');
    expect(metrics).toMatch(/callscope_pipeline_stage_duration_seconds_count\{stage="analysis",outcome="RETRIED"\} 1\b/);
    expect(metrics).toMatch(/callscope_pipeline_stage_duration_seconds_count\{stage="analysis",outcome="OK"\} 1\b/);
  });

  test('a second transient failure in a row, with one retry allowed, fails the call with that failure\'s reason', async () => {
    const analysis = failingFirst(new StageFailure('transient', 'The model server answered 503'), new StageFailure('transient', 'The model server timed out'));
    const callId = await uploadCall(alice());

    const processing = await setup.startEngine(testPipeline({ analysis, analysisRetries: 1 }));

    expect(await waitForStatus(alice(), callId, 'FAILED')).toEqual({ status: 'FAILED', errorReason: 'The model server timed out' });
    expect(analysis.attempts).toBe(2);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['transcription', 'OK'], ['analysis', 'RETRIED'], ['analysis', 'FAILED']]);
    expect(await actionItemCount(callId)).toBe(0);
  });

  test('a transient failure of a stage without retries fails the call', async () => {
    const transcription = failingFirst(new StageFailure('transient', 'The recogniser crashed'));
    const callId = await uploadCall(alice());

    const processing = await setup.startEngine(testPipeline({ transcription }));

    expect(await waitForStatus(alice(), callId, 'FAILED')).toEqual({ status: 'FAILED', errorReason: 'The recogniser crashed' });
    expect(transcription.attempts).toBe(1);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['transcription', 'FAILED']]);
  });

  test('a rejection is not retried even where transient failures would be', async () => {
    const analysis = failingFirst(new StageFailure('rejected', 'The model refused the prompt'));
    const callId = await uploadCall(alice());

    const processing = await setup.startEngine(testPipeline({ analysis, analysisRetries: 3 }));

    expect(await waitForStatus(alice(), callId, 'FAILED')).toEqual({ status: 'FAILED', errorReason: 'The model refused the prompt' });
    expect(analysis.attempts).toBe(1);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['transcription', 'OK'], ['analysis', 'FAILED']]);
    expect(await metricsText()).not.toContain('callscope_pipeline_stage_retries_total{stage="analysis"}');
  });
});

describe('optional stage', () => {
  test('a failed action-item extraction still completes the call: the analysis carries the warning and there are no action items', async () => {
    const callId = await uploadCall(alice());

    const processing = await setup.startEngine(testPipeline({ actionItems: async () => { throw new StageFailure('transient', 'The model server answered 502'); } }));

    expect(await waitForStatus(alice(), callId, 'COMPLETED')).toEqual({ status: 'COMPLETED', errorReason: null });
    expect((await analysisOf(callId)).qualityWarnings).toEqual([actionItemWarning]);
    expect(await actionItemCount(callId)).toBe(0);
    expect((await alice()(`/api/calls/${callId}/transcript`)).status).toBe(200);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['transcription', 'OK'], ['analysis', 'OK'], ['actionItems', 'FAILED']]);
  });

  test('a call whose stages all succeed has no quality warning added', async () => {
    const callId = await uploadCall(alice());

    await setup.startEngine(testPipeline());

    await waitForStatus(alice(), callId, 'COMPLETED');
    expect((await analysisOf(callId)).qualityWarnings).toEqual([]);
  });
});

describe('stage bookkeeping', () => {
  test('while a stage runs the call records that stage and the share of the run already done', async () => {
    const analysing = new StageGate();
    const callId = await uploadCall(alice());
    const progressOf = () => setup.testApp.services.database.sql
      .get<{ stage: string | null; progress: number; lastProgressAt: number }>(sql`SELECT stage, progress, last_progress_at AS "lastProgressAt" FROM calls WHERE id = ${callId}`);

    const processing = await setup.startEngine(testPipeline({ analysis: analysing.pass }));

    await analysing.reached();
    expect(await progressOf()).toMatchObject({ stage: 'analysis', progress: 0.6 });
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['transcription', 'OK'], ['analysis', 'RUNNING']]);
    analysing.open();
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(await progressOf()).toMatchObject({ stage: null, progress: 1 });
  });

  test('every stage writes one log line with its name, outcome and duration, and nothing of the call\'s content', async () => {
    const callId = await uploadCall(alice());

    await setup.startEngine(testPipeline());

    await waitForStatus(alice(), callId, 'COMPLETED');
    const stageLines = setup.testApp.logLines.filter((line) => line.msg === 'stage finished' && line.callId === callId);
    expect(stageLines.map((line) => [line.stage, line.outcome])).toEqual([['transcription', 'OK'], ['analysis', 'OK'], ['actionItems', 'OK']]);
    for (const line of stageLines) expect(line.durationMs).toEqual(expect.any(Number));
    const callLines = JSON.stringify(setup.testApp.logLines.filter((line) => line.callId === callId));
    for (const content of ['Sheila', 'Pricing call', 'Send the contract', 'Hi, this is Diane']) expect(callLines).not.toContain(content);
  });
});
