import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { MissingModel } from '../../src/infrastructure/models/missingModels.js';
import { StageFailure } from '../../src/pipeline/StageFailure.js';
import {
  callView, defaultActionItemTitles, stageOutcomes, testPipeline, uploadCall, useEngineTestApp, waitFor, waitForStatus,
} from '../helpers/processingHarness.js';

const setup = useEngineTestApp();
const alice = () => setup.testApp.as('alice');

const whisperMissing: MissingModel = {
  slot: 'whisper', configKey: 'WHISPER_MODEL', label: 'speech recognition model', expectedAt: 'models/whisper.bin',
  howToInstall: 'fetch it on the admin page (Models) or with `callscope models fetch --slot whisper`, import it with `callscope models import DIR`, or copy the file to models/whisper.bin',
};

/**
 * A model that the test installs and removes: what the engine's `missingModels` reports, and how
 * often it was asked (once at the start of each look at the queue).
 */
function modelSwitch(installed: boolean) {
  const state = { installed, asked: 0 };
  return {
    state,
    missingModels: () => {
      state.asked += 1;
      return state.installed ? [] : [whisperMissing];
    },
  };
}


describe('calls wait while a model they need is not installed', () => {
  test('a call uploaded without the model stays QUEUED, no stage runs, and it completes once the model appears, without a wake-up', async () => {
    const model = modelSwitch(false);
    const { engine } = await setup.startEngine(testPipeline(), { missingModels: model.missingModels });
    const callId = await uploadCall(alice());

    await waitFor('the engine to see the model is missing', () => engine.waitingForModels.length === 1);
    expect(engine.waitingForModels[0]).toMatchObject({ configKey: 'WHISPER_MODEL' });
    // Three more looks at the queue begun: the second has ended (looks never overlap), and it was the
    // timer's (only the upload's wake may still have been owed a look).
    const asked = model.state.asked;
    await waitFor('a timed look at the queue to end', () => model.state.asked >= asked + 3);
    expect(await callView(alice(), callId)).toEqual({ status: 'QUEUED', errorReason: null });
    expect(await stageOutcomes(engine, callId)).toEqual([]);

    // Only the timed look notices it: nothing wakes the engine here.
    model.state.installed = true;
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(engine.waitingForModels).toEqual([]);
    const items = (await (await alice()('/api/actions')).json()) as { title: string }[];
    expect(items.map((item) => item.title).sort()).toEqual([...defaultActionItemTitles].sort());
  });

  test('a model removed between the claim and its stage sends the call back to the queue (not FAILED); it completes once the model is back', async () => {
    const model = modelSwitch(true);
    let runs = 0;
    const pipeline = testPipeline({
      transcription: async () => {
        runs += 1;
        if (runs === 1) {
          model.state.installed = false;
          throw new StageFailure('model_missing', 'The speech recognition model is not installed');
        }
      },
    });
    const { engine } = await setup.startEngine(pipeline, { missingModels: model.missingModels });
    const callId = await uploadCall(alice());

    await waitFor('the first run to give the call back', async () => runs === 1 && (await callView(alice(), callId)).status === 'QUEUED', 10_000);
    expect(await stageOutcomes(engine, callId)).toEqual([['transcription', 'FAILED']]);
    const row = await setup.testApp.services.database.sql.get(sql`SELECT processing_attempts AS attempts, worker_lease AS lease, error_reason AS reason FROM calls WHERE id = ${callId}`);
    // Handed back as on a graceful stop: the wait costs no attempt, and no reason is shown.
    expect(row).toEqual({ attempts: 0, lease: null, reason: null });

    model.state.installed = true;
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(runs).toBe(2);
    expect((await stageOutcomes(engine, callId)).map(([stage, outcome]) => `${stage}:${outcome}`)).toEqual(['transcription:FAILED', 'transcription:OK', 'analysis:OK', 'actionItems:OK']);
  });

  test('a stage that says "not installed" while the file is there fails the call with its reason (no claim-and-fail loop)', async () => {
    const model = modelSwitch(true);
    let runs = 0;
    const pipeline = testPipeline({
      transcription: async () => {
        runs += 1;
        throw new StageFailure('model_missing', 'The speech recognition model is not installed');
      },
    });
    await setup.startEngine(pipeline, { missingModels: model.missingModels });
    const callId = await uploadCall(alice());
    expect(await waitForStatus(alice(), callId, 'FAILED')).toEqual({ status: 'FAILED', errorReason: 'The speech recognition model is not installed' });
    expect(runs).toBe(1);
  });

  test('an engine whose pipeline needs no model files (missingModels unset) never waits', async () => {
    const { engine } = await setup.startEngine(testPipeline());
    const callId = await uploadCall(alice());
    await waitForStatus(alice(), callId, 'COMPLETED');
    expect(engine.waitingForModels).toEqual([]);
  });
});
