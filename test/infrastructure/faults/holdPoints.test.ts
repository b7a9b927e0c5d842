import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/loadConfig.js';
import { armHoldPoints, holdPoint, holdPointsOf, type HoldPointName } from '../../../src/infrastructure/faults/holdPoints.js';
import { transcriptionOptionsFromConfig } from '../../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';

afterEach(() => armHoldPoints([]));

/** Settles within a few event-loop turns, or reports that it is still pending. */
async function settledSoon(promise: Promise<unknown>): Promise<string> {
  return Promise.race([
    promise.then(() => 'resolved', (error: unknown) => `rejected: ${(error as Error).message}`),
    new Promise<string>((resolve) => setTimeout(() => resolve('pending'), 20)),
  ]);
}

describe('hold points (FAULT_HOLD_AT)', () => {
  test('an unarmed point returns at once', async () => {
    armHoldPoints(['stage.analysis']);
    expect(await settledSoon(holdPoint('stage.cleanup'))).toBe('resolved');
    expect(await settledSoon(holdPoint('upload.accept'))).toBe('resolved');
  });

  test('an armed point reports itself and waits until its signal aborts', async () => {
    const reached: HoldPointName[] = [];
    armHoldPoints(['stage.analysis', 'results.store'], (name) => reached.push(name));
    const controller = new AbortController();
    const held = holdPoint('stage.analysis', controller.signal);
    expect(await settledSoon(held)).toBe('pending');
    expect(reached).toEqual(['stage.analysis']);
    controller.abort(new Error('shutting down'));
    expect(await settledSoon(held)).toBe('rejected: shutting down');
  });

  test('FAULT_HOLD_AT is read as a comma-separated list; unknown point names are refused at start-up', () => {
    expect(holdPointsOf(undefined)).toEqual([]);
    expect(holdPointsOf(loadConfig({ FAULT_HOLD_AT: 'stage.cleanup, results.store' }).FAULT_HOLD_AT)).toEqual(['stage.cleanup', 'results.store']);
    expect(loadConfig({}).FAULT_HOLD_AT).toBeUndefined();
    for (const bad of ['stage.', 'cleanup', 'upload.accept;rm -rf', 'stage.clean up']) {
      expect(() => loadConfig({ FAULT_HOLD_AT: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('WHISPER_CLI', () => {
  const models = { WHISPER_MODEL: 'models/whisper.bin', VAD_MODEL: 'models/vad.bin', WHISPER_THREADS: 0, WHISPER_LANGUAGE: 'auto' };
  test('unset: the stage runs the whisper-cli built by npm ci', () => {
    expect(transcriptionOptionsFromConfig(models).whisperCliPath).toBeUndefined();
  });
  test('set: an absolute path is used as given, a relative one from the install folder', () => {
    expect(transcriptionOptionsFromConfig({ ...models, WHISPER_CLI: '/opt/whisper-cuda/bin/whisper-cli' }).whisperCliPath).toBe('/opt/whisper-cuda/bin/whisper-cli');
    expect(transcriptionOptionsFromConfig({ ...models, WHISPER_CLI: 'native/cuda/whisper-cli' }).whisperCliPath).toMatch(/\/native\/cuda\/whisper-cli$/);
  });
});
