import { Value } from 'typebox/value';
import { afterAll, expect, test } from 'vitest';
import { AnalysisSchema } from '../../../../src/domain/analysis/analysisSchema.js';
import { WorkerPool } from '../../../../src/infrastructure/workers/WorkerPool.js';
import { createLlmAnalyser } from '../../../../src/pipeline/analysis/llm/createLlmAnalyser.js';
import { callInput, tinyRandomLlm } from './llmTestCalls.js';

const pool = new WorkerPool(1);
afterAll(() => pool.close());

test('the LLM analyser runs its generation on a real worker thread (Piscina), and the pool frees the thread\'s model on close', async () => {
  const analyser = createLlmAnalyser({
    modelPath: tinyRandomLlm, gpu: false, threads: 1, contextSize: 4096, maxOutputTokens: 2000,
    limits: { maxTextLength: 12, maxProseLength: 24, maxListItems: 1, maxCitations: 1 },
  });
  const context = { signal: new AbortController().signal, reportProgress: () => undefined, runInWorker: pool.run.bind(pool) } as Parameters<typeof analyser.analyse>[1];
  const { analysis, producer } = await analyser.analyse(callInput(), context);
  expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
  expect(producer.model).toBe('llama-2-tiny-random.gguf');
  const freed = await pool.close();
  expect(freed.resourcesFreed).toBeGreaterThanOrEqual(1);
}, 120_000);
