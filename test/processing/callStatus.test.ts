import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { StageFailure, type StageFailureKind } from '../../src/pipeline/StageFailure.js';
import { callFolders, errorOf, rowsOfCall, storedAudioPath } from '../helpers/callInspection.js';
import {
  callView, defaultActionItemTitles, StageGate, statusesOf, testPipeline, uploadCall, useEngineTestApp, waitForStatus,
} from '../helpers/processingHarness.js';
import { analysisV2Fixture } from '../helpers/seedCalls.js';

// The rows of the spec's Call status table, driven by a real engine over real uploads; only the
// stages are stand-ins the test controls.

const setup = useEngineTestApp();

const alice = () => setup.testApp.as('alice');

const callFolderExists = (callId: string) => callFolders(setup.testApp.dataDir).includes(callId);

async function actionItemsOf(callId: string): Promise<{ id: string; title: string; status: string }[]> {
  const items = (await (await alice()('/api/actions')).json()) as { id: string; callRecordId: string; title: string; status: string }[];
  return items.filter((item) => item.callRecordId === callId);
}

describe('upload', () => {
  test('an accepted upload is QUEUED, with its audio held, until an engine takes it', async () => {
    const callId = await uploadCall(alice());

    expect(await callView(alice(), callId)).toEqual({ status: 'QUEUED', errorReason: null });
    expect(await statusesOf(alice(), [callId])).toEqual({ [callId]: 'QUEUED' });
    expect(existsSync(storedAudioPath(setup.testApp.dataDir, callId, 'wav'))).toBe(true);
  });
});

describe('processing', () => {
  test('a call is seen QUEUED, then TRANSCRIBING, then ANALYZING, then COMPLETED with its action items inserted', async () => {
    const transcribing = new StageGate();
    const analysing = new StageGate();
    const callId = await uploadCall(alice());
    expect((await statusesOf(alice(), [callId]))[callId]).toBe('QUEUED');

    await setup.startEngine(testPipeline({ transcription: transcribing.pass, analysis: analysing.pass }));

    await transcribing.reached();
    expect((await statusesOf(alice(), [callId]))[callId]).toBe('TRANSCRIBING');
    transcribing.open();
    await analysing.reached();
    expect((await statusesOf(alice(), [callId]))[callId]).toBe('ANALYZING');
    expect(await actionItemsOf(callId)).toEqual([]);
    analysing.open();

    expect(await waitForStatus(alice(), callId, 'COMPLETED')).toEqual({ status: 'COMPLETED', errorReason: null });
    expect((await actionItemsOf(callId)).map((item) => item.title).sort()).toEqual([...defaultActionItemTitles].sort());
    expect((await actionItemsOf(callId)).every((item) => item.status === 'PENDING')).toBe(true);
    const analysis = await alice()(`/api/calls/${callId}/analysis`);
    expect(analysis.status).toBe(200);
    expect(((await analysis.json()) as { oneLineSummary: string }).oneLineSummary).toBe(analysisV2Fixture().oneLineSummary);
    expect((await alice()(`/api/calls/${callId}/transcript`)).status).toBe(200);
  });

  test.each<[StageFailureKind, 'transcription' | 'analysis']>([
    ['rejected', 'analysis'],
    ['rejected', 'transcription'],
    ['bad_input', 'transcription'],
    ['unavailable', 'analysis'],
  ])('a %s failure in the %s stage fails the call at once, with the failure\'s reason as errorReason', async (kind, stage) => {
    const reason = `The ${stage} was refused (${kind})`;
    let attempts = 0;
    const fail = async () => {
      attempts += 1;
      throw new StageFailure(kind, reason);
    };
    const callId = await uploadCall(alice());

    await setup.startEngine(testPipeline({ [stage]: fail }));

    expect(await waitForStatus(alice(), callId, 'FAILED')).toEqual({ status: 'FAILED', errorReason: reason });
    expect(attempts).toBe(1);
    expect(await actionItemsOf(callId)).toEqual([]);
    const analysis = await alice()(`/api/calls/${callId}/analysis`);
    expect(analysis.status).toBe(422);
    expect((await errorOf(analysis)).code).toBe('call_not_completed');
  });

  test('an unexpected error fails the call with a generic reason that reveals nothing of the error', async () => {
    const callId = await uploadCall(alice());

    await setup.startEngine(testPipeline({ analysis: async () => { throw new Error('SQLITE_CORRUPT at /srv/secret/path'); } }));

    const { errorReason } = await waitForStatus(alice(), callId, 'FAILED');
    expect(errorReason).toBe('An internal error stopped processing; the call can be reprocessed');
  });
});

describe('DELETE while processing', () => {
  test('DELETE of a QUEUED call answers 409 call_in_progress, and the call is processed as if nothing happened', async () => {
    const callId = await uploadCall(alice());

    const response = await alice()(`/api/calls/${callId}`, { method: 'DELETE' });

    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('call_in_progress');
    expect((await callView(alice(), callId)).status).toBe('QUEUED');
    expect(existsSync(storedAudioPath(setup.testApp.dataDir, callId, 'wav'))).toBe(true);
    await setup.startEngine(testPipeline());
    await waitForStatus(alice(), callId, 'COMPLETED');
  });

  test.each(['TRANSCRIBING', 'ANALYZING'] as const)('DELETE of a call still %s answers 409 call_in_progress, and the run completes untouched', async (status) => {
    const gate = new StageGate();
    const callId = await uploadCall(alice());
    await setup.startEngine(testPipeline(status === 'TRANSCRIBING' ? { transcription: gate.pass } : { analysis: gate.pass }));
    await gate.reached();

    const response = await alice()(`/api/calls/${callId}`, { method: 'DELETE' });

    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('call_in_progress');
    expect((await callView(alice(), callId)).status).toBe(status);
    expect(existsSync(storedAudioPath(setup.testApp.dataDir, callId, 'wav'))).toBe(true);
    expect(gate.context?.signal.aborted).toBe(false);
    gate.open();
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(await actionItemsOf(callId)).toHaveLength(defaultActionItemTitles.length);
  });

  test.each([
    ['COMPLETED', testPipeline()],
    ['FAILED', testPipeline({ analysis: async () => { throw new StageFailure('rejected', 'Refused by the model'); } })],
  ] as const)('DELETE of a call the engine left %s answers 204 and removes its files, artifacts, events and action items', async (status, pipeline) => {
    const callId = await uploadCall(alice());
    await setup.startEngine(pipeline);
    await waitForStatus(alice(), callId, status);
    expect(callFolderExists(callId)).toBe(true);

    const response = await alice()(`/api/calls/${callId}`, { method: 'DELETE' });

    expect(response.status).toBe(204);
    expect(callFolderExists(callId)).toBe(false);
    expect((await alice()(`/api/calls/${callId}`)).status).toBe(404);
    expect(await actionItemsOf(callId)).toEqual([]);
    for (const table of ['calls', 'call_artifacts', 'action_items', 'processing_events'] as const) expect(await rowsOfCall(setup.testApp.services, table, callId)).toBe(0);
  });
});
