import { describe, expect, test } from 'vitest';
import type { WorkerTasks } from '../../../../src/infrastructure/workers/workerTasks.js';
import { analyseCall } from '../../../../src/pipeline/analysis/analyseCall.js';
import type { JsonSchema } from '../../../../src/pipeline/analysis/llm/generationSchema.js';
import { selectAnalyser } from '../../../../src/pipeline/analysis/selectAnalyser.js';
import type { StageContext } from '../../../../src/pipeline/StageContext.js';
import { callInput, sampleAnswer, tinyRandomLlm } from './llmTestCalls.js';

// ANALYSER=llm through the analysis stage: the worker's model is played by the test (the fake
// runtime answers each chunk with a fixed text), the rest is the real analyser, schema fitting,
// merging, grounding and action-item derivation.

type ChunkTask = WorkerTasks['llmAnalyseChunk'];

const config = { ANALYSER: 'llm', LLM_MODEL: tinyRandomLlm, LLM_CONTEXT_SIZE: 4096, GPU: 'off', LLM_PROVIDER: 'local', LLM_TIMEOUT_SECONDS: 600 } as const;

/** A stage context whose model answers every chunk with `answer(schema)`, the schema being the one the answer is generated under. */
function modelAnswering(answer: (schema: JsonSchema) => unknown): StageContext {
  return {
    signal: new AbortController().signal,
    reportProgress: () => undefined,
    runInWorker: (async (_name: string, input: ChunkTask['input']): Promise<ChunkTask['output']> =>
      ({ kind: 'answered', text: JSON.stringify(answer(input.schema)), cutOff: false, promptTokens: 300, answerTokens: 900 })) as StageContext['runInWorker'],
  };
}

/** Nobody in the call is Zelda, nothing cost $4,870, and 2031 is never spoken of. */
const invention = 'by Zelda, $4,870, 2031-05-09';
const inventedTraces = ['Zelda', '4,870', '4870', '2031'];

/**
 * What a model that invents everywhere answers under the generation schema: every free text
 * holds {@link invention} (cut to its length), every number is 4870, every date and date-time is
 * in 2031. A list holds as many items as it may, item `n` taking choice `n` of every enum and
 * variant below it, so every intent's metadata is written.
 */
function inventingAnswer(schema: JsonSchema, choice = 0): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[choice % schema.enum.length];
  if (Array.isArray(schema.oneOf)) {
    const variants = (schema.oneOf as JsonSchema[]).filter((variant) => variant.type !== 'null');
    return inventingAnswer(variants[choice % variants.length]!, choice);
  }
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => [name, inventingAnswer(property, choice)]));
    case 'array':
      return Array.from({ length: schema.maxItems as number }, (_, index) => inventingAnswer(schema.items as JsonSchema, index));
    case 'string':
      if (schema.format === 'date') return '2031-05-09';
      if (schema.format === 'date-time') return '2031-05-09T10:00:00+00:00';
      return invention.slice(0, schema.maxLength as number);
    case 'number':
    case 'integer':
      return 4870;
    default:
      return null;
  }
}

describe('ANALYSER=llm: grounding covers every free text of the model\'s answer', () => {
  test('a name, an amount and a date the model invents in every free-text field (emotional signals, tags, descriptors, topics, units…) survive nowhere', async () => {
    const analysed = await analyseCall(callInput(), selectAnalyser(config), modelAnswering((schema) => inventingAnswer(schema)));

    // The invention reached the analysis (the model's free texts are read), and the filter took all of it out.
    const found = new Set(analysed.grounding.violationsBefore.map((violation) => `${violation.path} ${violation.kind}`));
    for (const kind of ['name', 'amount', 'date']) expect(found).toContain(`/sentiment/emotionalSignals/0 ${kind}`);
    expect(analysed.grounding.violationsAfter).toEqual([]);
    const stored = JSON.stringify({ analysis: analysed.analysis, actionItems: analysed.actionItems });
    for (const trace of inventedTraces) expect(stored).not.toContain(trace);
    expect(analysed.analysis.qualityWarnings.join(' ')).toContain('Removed statements the transcript does not support');
    // A tone whose every descriptor was invented cannot be described (the schema wants one at least).
    expect(analysed.analysis.tone).toBeNull();
  });

  test('what the call supports stays: a faithful answer keeps its emotional signals, descriptors, topics and tags', async () => {
    const analysed = await analyseCall(callInput(), selectAnalyser(config), modelAnswering(() => sampleAnswer));
    expect(analysed.grounding.violationsBefore).toEqual([]);
    expect(analysed.analysis.sentiment?.emotionalSignals).toEqual(['cooperative']);
    expect(analysed.analysis.tone?.descriptors).toEqual(['efficient', 'friendly']);
    expect(analysed.analysis.tags).toEqual(['warehouse', 'shipping', 'purchase order']);
    expect(analysed.analysis.keyDiscussionPoints?.map((point) => point.topic)).toEqual(['warehouse order', 'shipping', 'delivery schedule']);
  });
});
