import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { threadResources } from '../../../src/infrastructure/workers/WorkerResources.js';
import { modeWhenModelInstalled, selectAnalyser } from '../../../src/pipeline/analysis/selectAnalyser.js';
import { createTestStageContext } from '../testStageContext.js';
import { callInput, tinyRandomLlm } from './llm/llmTestCalls.js';

afterAll(async () => {
  await threadResources.disposeAll();
});

const producerOf = async (settings: Record<string, string>) =>
  (await selectAnalyser(loadConfig({ GPU: 'off', LLM_CONTEXT_SIZE: '2048', ...settings })).analyse(callInput(), createTestStageContext())).producer;

describe('selectAnalyser', () => {
  test('ANALYSER=auto runs the mode that measured best when a model is installed (the built-in analyser, with the small models measured), and the built-in one without', async () => {
    expect(modeWhenModelInstalled).toBe('builtin');
    expect(await producerOf({ LLM_MODEL: tinyRandomLlm })).toEqual({ analyser: 'builtin', analyserVersion: '2' });
    expect(await producerOf({ LLM_MODEL: 'models/absent.gguf' })).toEqual({ analyser: 'builtin', analyserVersion: '2' });
  });

  test('ANALYSER=hybrid and llm run the model in LLM_MODEL', async () => {
    expect(await producerOf({ ANALYSER: 'hybrid', LLM_MODEL: tinyRandomLlm })).toEqual({ analyser: 'hybrid', analyserVersion: '1', model: 'llama-2-tiny-random.gguf' });
    expect(await producerOf({ ANALYSER: 'llm', LLM_MODEL: tinyRandomLlm })).toMatchObject({ analyser: 'llm', model: 'llama-2-tiny-random.gguf' });
  }, 120_000);
});
