import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { productionStages } from '../../src/processing/productionPipeline.js';
import { callCount, enrolVoice, expectNoOrphans, faultRig, uploadSample, waitForOutcome, type CallOutcome, type FaultRig } from './faultSetup.js';
import { killServer, newDataDir, stageOutcomes, startServer, waitForHold } from '../helpers/serverProcess.js';

// SIGKILL of the real service (and its ffmpeg and whisper-cli) while a call is in each stage of
// the production pipeline, and just before its results are committed; then a restart on the same
// DATA_DIR. The service is stopped at each point with FAULT_HOLD_AT (src/infrastructure/faults/
// holdPoints.ts), so every kill lands in a known state rather than wherever a timer happened to fire.

const stageNames = Object.values(productionStages).map((stage) => stage.name);

let rig: FaultRig;
/** The call's outcome in a run that nobody interrupted: what every recovered run must also reach. */
let uninterrupted: CallOutcome;

beforeAll(async () => {
  rig = await faultRig();
  const dataDir = newDataDir();
  const server = await startServer(dataDir, rig.env);
  await enrolVoice(server, 'alice');
  const response = await uploadSample(server, 'alice', 'reference');
  const { callId } = (await response.json()) as { callId: string };
  uninterrupted = await waitForOutcome(server, 'alice', callId);
  // Every stage ran, so each point below is reached.
  expect((await stageOutcomes(dataDir, callId))).toEqual(stageNames.map((name) => [name, 'OK']));
  await killServer(server);
}, 120_000);
afterAll(() => rig?.remove());

describe('SIGKILL at each point of processing, then a restart', () => {
  test('the uninterrupted run completes with action items (the reference the others must reach)', () => {
    expect(uninterrupted.status).toBe('COMPLETED');
    expect(uninterrupted.actionItemTitles.length).toBeGreaterThanOrEqual(3);
  });

  const points = [...stageNames.map((name) => `stage.${name}`), 'results.store'];
  test.each(points)('killed at %s: the call completes after the restart, once, with the same action items and no orphan files', async (point) => {
    const dataDir = newDataDir();
    const first = await startServer(dataDir, { ...rig.env, FAULT_HOLD_AT: point });
    await enrolVoice(first, 'alice');
    const response = await uploadSample(first, 'alice', 'upload-call-1');
    expect(response.status).toBe(202);
    const { callId } = (await response.json()) as { callId: string };
    await waitForHold(first, point);
    if (point.startsWith('stage.')) expect((await stageOutcomes(dataDir, callId)).at(-1)).toEqual([point.slice('stage.'.length), 'RUNNING']);

    await killServer(first);

    const second = await startServer(dataDir, rig.env);
    // The app, which saw its connection drop, sends the upload again with its key: the same call.
    const retry = await uploadSample(second, 'alice', 'upload-call-1');
    expect(retry.status).toBe(202);
    expect(((await retry.json()) as { callId: string }).callId).toBe(callId);

    const outcome = await waitForOutcome(second, 'alice', callId);
    expect(outcome).toEqual(uninterrupted);
    expect(await callCount(dataDir)).toBe(1);
    const events = (await stageOutcomes(dataDir, callId));
    if (point.startsWith('stage.')) {
      const stage = point.slice('stage.'.length);
      // The interrupted stage is recorded as such, then the whole pipeline runs again.
      expect(events).toContainEqual([stage, 'INTERRUPTED']);
      expect(events.slice(events.findIndex(([name, outcome]) => name === stage && outcome === 'INTERRUPTED') + 1)).toEqual(stageNames.map((name) => [name, 'OK']));
    } else {
      expect(events).toEqual([...stageNames, ...stageNames].map((name) => [name, 'OK']));
    }
    await expectNoOrphans(dataDir);
    await killServer(second);
  }, 180_000);
});
