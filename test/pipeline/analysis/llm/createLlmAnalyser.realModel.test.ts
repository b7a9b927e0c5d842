import { Value } from 'typebox/value';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { AnalysisSchema } from '../../../../src/domain/analysis/analysisSchema.js';
import { threadResources } from '../../../../src/infrastructure/workers/WorkerResources.js';
import { workerTaskImplementations } from '../../../../src/infrastructure/workers/workerTasks.js';
import { createLlmAnalyser, type LlmAnalyserOptions } from '../../../../src/pipeline/analysis/llm/createLlmAnalyser.js';
import { LlmRuntime, loadLlmRuntime } from '../../../../src/pipeline/analysis/llm/LlmRuntime.js';
import { createTestStageContext } from '../../testStageContext.js';
import { callInput, longCallInput, tinyRandomLlm } from './llmTestCalls.js';

/*
 * With the structure-only Llama-2 (random weights): proves loading, grammar-constrained
 * generation and the path through the worker task; its text is random, so only the shape of
 * the result is asserted. Generation is kept small (tight limits, one CPU thread: on 2 cores,
 * llama.cpp with more threads is many times slower for a model this small).
 */
const small: LlmAnalyserOptions = {
  modelPath: tinyRandomLlm,
  gpu: false,
  threads: 1,
  contextSize: 4096,
  maxOutputTokens: 2000,
  limits: { maxTextLength: 12, maxProseLength: 24, maxListItems: 1, maxCitations: 1 },
};

afterAll(async () => {
  await threadResources.disposeAll();
});

describe('createLlmAnalyser with a real GGUF model (tiny random Llama-2)', () => {
  test('analyses a short two-speaker call end to end through the worker task: a valid analysis, produced by the model', async () => {
    const input = callInput();
    const { analysis, producer } = await createLlmAnalyser(small).analyse(input, createTestStageContext());
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(producer).toEqual({ analyser: 'llm', analyserVersion: '1', model: 'llama-2-tiny-random.gguf' });
    // The whole answer fits the output budget: nothing was cut off.
    expect(analysis.qualityWarnings).not.toContainEqual(expect.stringContaining('reached the output limit'));
    // The grammar only lets the model cite the call's segments and speakers.
    const segmentIds = new Set(input.transcript.segments.map((segment) => segment.id));
    for (const point of analysis.keyDiscussionPoints ?? []) {
      for (const id of point.sourceSegmentIds) expect(segmentIds.has(id)).toBe(true);
      expect([null, 'spk_0', 'spk_1']).toContain(point.speakerId);
    }
  });

  test('loads the model once per thread, reuses it for the next analysis, and frees it on disposeAll', async () => {
    await threadResources.disposeAll();
    const load = vi.spyOn(LlmRuntime, 'load');
    try {
      // Answers cut short at 60 tokens: quick, and the cut-off answer still gives a valid analysis.
      const analyser = createLlmAnalyser({ ...small, maxOutputTokens: 60 });
      const first = await analyser.analyse(callInput(), createTestStageContext());
      const second = await analyser.analyse(callInput(), createTestStageContext());
      expect(load).toHaveBeenCalledTimes(1);
      for (const { analysis } of [first, second]) {
        expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
        expect(analysis.qualityWarnings).toContainEqual(expect.stringContaining('reached the output limit'));
      }
      const runtime = await loadLlmRuntime({ modelPath: tinyRandomLlm, gpu: false });
      expect(load).toHaveBeenCalledTimes(1);
      expect(runtime.disposed).toBe(false);
      expect(await threadResources.disposeAll()).toBe(1);
      expect(runtime.disposed).toBe(true);
    } finally {
      load.mockRestore();
    }
  });

  test('analyses a long call in several chunks with the real tokenizer and merges them', async () => {
    const context = createTestStageContext();
    const runInWorker = vi.spyOn(context, 'runInWorker');
    const { analysis } = await createLlmAnalyser({ ...small, contextSize: 1024, maxOutputTokens: 60 }).analyse(longCallInput(4), context);
    expect(runInWorker.mock.calls.length).toBeGreaterThan(1);
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(context.progress.at(-1)).toBe(1);
  });

  test('reports a prompt that does not fit the context instead of generating', async () => {
    const output = await workerTaskImplementations.llmAnalyseChunk({
      model: { modelPath: tinyRandomLlm, gpu: false }, contextSize: 512, threads: 1,
      systemPrompt: 'Answer in JSON.', userPrompt: 'word '.repeat(400), schema: { type: 'object', properties: {} }, maxOutputTokens: 200,
    });
    expect(output).toMatchObject({ kind: 'too_long', contextSize: 512 });
    expect(output.promptTokens).toBeGreaterThan(312);
  });

  test('stops a generation at its time limit and returns what it wrote, marked cut off (LLM_TIMEOUT_SECONDS on this box)', async () => {
    const request = {
      model: { modelPath: tinyRandomLlm, gpu: false as const }, contextSize: 2048, threads: 1,
      systemPrompt: 'Answer in JSON.', userPrompt: 'Describe the call.', schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, maxOutputTokens: 1500,
    };
    const unlimited = await workerTaskImplementations.llmAnalyseChunk(request);
    const limited = await workerTaskImplementations.llmAnalyseChunk({ ...request, timeoutMs: 50 });
    expect(limited).toMatchObject({ kind: 'answered', cutOff: true });
    if (limited.kind !== 'answered' || unlimited.kind !== 'answered') throw new Error('both answer');
    expect(limited.answerTokens).toBeLessThan(unlimited.answerTokens);
  });
});
