import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { AnalysisSchema } from '../../../../src/domain/analysis/analysisSchema.js';
import { workerTaskImplementations, type WorkerTasks } from '../../../../src/infrastructure/workers/workerTasks.js';
import { createLlmAnalyser } from '../../../../src/pipeline/analysis/llm/createLlmAnalyser.js';
import type { StageContext } from '../../../../src/pipeline/StageContext.js';
import { StageFailure } from '../../../../src/pipeline/StageFailure.js';
import { callInput, longCallInput, tinyRandomLlm } from './llmTestCalls.js';

type ChunkTask = WorkerTasks['llmAnalyseChunk'];

/**
 * A stage context whose worker answers each chunk without a model: one key discussion point per
 * segment in the prompt, or `too_long` when the prompt has more than `maxLines` lines.
 */
function fakeWorkerContext(maxLines = Number.POSITIVE_INFINITY, signal = new AbortController().signal) {
  const requests: ChunkTask['input'][] = [];
  const progress: number[] = [];
  const context: StageContext = {
    signal,
    reportProgress: (fraction) => progress.push(fraction),
    runInWorker: (async (_name: string, input: ChunkTask['input']): Promise<ChunkTask['output']> => {
      const segmentIds = [...input.userPrompt.matchAll(/^\[(seg_\d+)\]/gm)].map((match) => match[1]!);
      if (segmentIds.length > maxLines) return { kind: 'too_long', promptTokens: 5000, contextSize: input.contextSize };
      requests.push(input);
      const keyDiscussionPoints = segmentIds.map((id) => ({ text: `About ${id}`, topic: 't', phase: 'middle', speakerId: 'spk_0', sourceSegmentIds: [id] }));
      return { kind: 'answered', text: JSON.stringify({ callType: 'sales', keyDiscussionPoints, tags: ['order'] }), cutOff: false, promptTokens: 100, answerTokens: 100 };
    }) as StageContext['runInWorker'],
  };
  return { context, requests, progress };
}

const citationChoices = (request: ChunkTask['input']) => {
  const points = (request.schema.properties as Record<string, { items: { properties: Record<string, { items: { enum: string[] } }> } }>).keyDiscussionPoints!;
  return points.items.properties.sourceSegmentIds!.items.enum;
};

describe('createLlmAnalyser (worker faked, no model)', () => {
  const options = { modelPath: tinyRandomLlm, contextSize: 2048, maxOutputTokens: 400 };

  test('analyses a long call in chunks that fit the context, each citing only its own segments, and merges them', async () => {
    const input = longCallInput(12);
    const { context, requests, progress } = fakeWorkerContext();
    const { analysis, producer } = await createLlmAnalyser(options).analyse(input, context);
    expect(requests.length).toBeGreaterThan(1);
    for (const request of requests) {
      const inPrompt = [...request.userPrompt.matchAll(/^\[(seg_\d+)\]/gm)].map((match) => match[1]);
      expect(citationChoices(request)).toEqual(inPrompt);
      expect(request.userPrompt).toContain(`part ${requests.indexOf(request) + 1} of ${requests.length}`);
    }
    expect(requests.flatMap(citationChoices)).toEqual(input.transcript.segments.map((segment) => segment.id));
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(analysis.keyDiscussionPoints).toHaveLength(30);
    expect(analysis).toMatchObject({ callType: 'sales', tags: ['order'], qualityWarnings: [] });
    expect(producer).toEqual({ analyser: 'llm', analyserVersion: '1', model: 'llama-2-tiny-random.gguf' });
    expect(progress.at(-1)).toBe(1);
  });

  test('splits again a chunk the worker finds too long for the context', async () => {
    const input = longCallInput(4);
    const { context, requests } = fakeWorkerContext(4);
    await createLlmAnalyser(options).analyse(input, context);
    expect(requests.map((request) => citationChoices(request).length).every((lines) => lines <= 4)).toBe(true);
    expect(requests.flatMap(citationChoices)).toEqual(input.transcript.segments.map((segment) => segment.id));
  });

  test('gives a call without speech an empty analysis without asking the model', async () => {
    const input = callInput();
    const { context, requests } = fakeWorkerContext();
    const { analysis } = await createLlmAnalyser(options).analyse({ ...input, transcript: { ...input.transcript, segments: [] } }, context);
    expect(requests).toHaveLength(0);
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(analysis.qualityWarnings).toEqual(['The transcript has no speech to analyse.']);
  });

  test('fails as model_missing (the call waits) when the model file is missing, in the analyser and in the worker task', async () => {
    const missing = { ...options, modelPath: `${tinyRandomLlm}.missing` };
    const { context, requests } = fakeWorkerContext();
    const analysing = createLlmAnalyser(missing).analyse(callInput(), context);
    await expect(analysing).rejects.toBeInstanceOf(StageFailure);
    await expect(analysing).rejects.toMatchObject({ kind: 'model_missing', reason: expect.not.stringContaining('/') });
    expect(requests).toHaveLength(0);
    const task = workerTaskImplementations.llmAnalyseChunk({
      model: { modelPath: missing.modelPath, gpu: false }, contextSize: 512, threads: 1, systemPrompt: '', userPrompt: '', schema: {}, maxOutputTokens: 10,
    });
    await expect(task).rejects.toMatchObject({ name: 'StageFailure', kind: 'model_missing' });
  });

  test('stops when the call is given up', async () => {
    const controller = new AbortController();
    controller.abort(new Error('given up'));
    const { context, requests } = fakeWorkerContext(Number.POSITIVE_INFINITY, controller.signal);
    await expect(createLlmAnalyser(options).analyse(callInput(), context)).rejects.toThrow('given up');
    expect(requests).toHaveLength(0);
  });

  test('rejects an output budget that leaves no room for the transcript', () => {
    expect(() => createLlmAnalyser({ modelPath: tinyRandomLlm, contextSize: 1024, maxOutputTokens: 1024 })).toThrow(RangeError);
  });
});
