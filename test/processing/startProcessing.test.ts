import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startProcessing, type Processing } from '../../src/processing/startProcessing.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';

interface Readiness {
  status: string;
  checks: Record<string, { status: string; detail?: Record<string, unknown> }>;
}

let testApp: TestApp;
let processing: Processing;
beforeAll(async () => {
  // Model files that are never there, whatever a developer installed into models/.
  testApp = await startTestApp({ WORKER_CONCURRENCY: '2', WORKER_THREADS: '1', SEGMENTATION_MODEL: 'models/absent-segmentation.onnx', WHISPER_MODEL: 'models/absent-whisper.bin' });
  processing = await startProcessing(testApp.services, pino({ level: 'silent' }));
});
afterAll(async () => {
  await processing.stop(0);
  await testApp.close();
});

const readiness = async () => (await (await fetch(`${testApp.baseUrl}/actuator/health/readiness`)).json()) as Readiness;

test('readiness reports the worker pool UP with the queue depth while processing runs, and DOWN once it stopped', async () => {
  const running = await readiness();
  expect(running.checks.workerPool).toEqual({
    status: 'UP',
    detail: {
      concurrency: 2, threads: expect.any(Number), queuedCalls: 0, callsInFlight: 0, tasksWaiting: 0,
      // The persistent whisper-server is started by the first call that needs it.
      whisperServer: 'not started', whisperServerStarts: 0,
      // The production pipeline's calls wait for these two.
      waitingForModels: [
        { configKey: 'SEGMENTATION_MODEL', label: 'speaker segmentation model', expectedAt: 'models/absent-segmentation.onnx', howToInstall: expect.stringContaining('callscope models fetch --slot segmentation') },
        { configKey: 'WHISPER_MODEL', label: 'speech recognition model', expectedAt: 'models/absent-whisper.bin', howToInstall: expect.stringContaining('callscope models fetch --slot whisper') },
      ],
    },
  });

  await processing.stop(0);
  const stopped = await readiness();
  expect(stopped.checks.workerPool?.status).toBe('DOWN');
  expect(stopped.status).toBe('DOWN');
});
