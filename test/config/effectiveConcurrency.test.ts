import { availableParallelism } from 'node:os';
import { expect, it } from 'vitest';
import { effectiveConcurrency, effectiveDiarizationThreads } from '../../src/config/effectiveConcurrency.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { speechOptionsFromConfig } from '../../src/processing/productionPipeline.js';

const cores = availableParallelism();

it('calls at once: WORKER_CONCURRENCY, or one per two cores, at least 1', () => {
  expect(effectiveConcurrency(3)).toBe(3);
  expect(effectiveConcurrency(0)).toBe(Math.max(1, Math.floor(cores / 2)));
});

it('diarization threads: DIARIZATION_THREADS, or the cores shared out among the calls at once, at least 1', () => {
  expect(effectiveDiarizationThreads(3, 1)).toBe(3);
  expect(effectiveDiarizationThreads(0, 1)).toBe(cores);
  expect(effectiveDiarizationThreads(0, 2)).toBe(Math.max(1, Math.floor(cores / 2)));
  expect(effectiveDiarizationThreads(0, cores * 4)).toBe(1);
});

it('the service shares the cores among its calls; the command line gives its one call every core', () => {
  const config = loadConfig({ WORKER_CONCURRENCY: String(cores * 2) });
  expect(speechOptionsFromConfig(config, effectiveConcurrency(config.WORKER_CONCURRENCY)).diarization.threads).toBe(1);
  expect(speechOptionsFromConfig(config).diarization.threads).toBe(cores);
  expect(speechOptionsFromConfig(loadConfig({ DIARIZATION_THREADS: '2' })).diarization.threads).toBe(2);
  // A call's voice match embeds with the diarization's threads, so the worker thread reuses that session.
  expect(speechOptionsFromConfig(loadConfig({ DIARIZATION_THREADS: '2' })).voiceMatch.threads).toBe(2);
});
