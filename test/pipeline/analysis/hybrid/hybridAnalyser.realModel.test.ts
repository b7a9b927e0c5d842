import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../../src/config/loadConfig.js';
import type { Analysis } from '../../../../src/domain/analysis/analysisSchema.js';
import { threadResources } from '../../../../src/infrastructure/workers/WorkerResources.js';
import { analyseCall } from '../../../../src/pipeline/analysis/analyseCall.js';
import { createBuiltinAnalyser } from '../../../../src/pipeline/analysis/builtin/builtinAnalyser.js';
import { createHybridAnalyser } from '../../../../src/pipeline/analysis/hybrid/createHybridAnalyser.js';
import { headlineWords } from '../../../../src/pipeline/analysis/hybrid/headlineGrammar.js';
import { selectAnalyser } from '../../../../src/pipeline/analysis/selectAnalyser.js';
import { startChatServer, type ChatServer } from '../../../../scripts/models/chatServer.js';
import { requireEvalModelFile } from '../../../../scripts/models/evalModels.js';
import { createTestStageContext } from '../../testStageContext.js';
import { callInput, tinyRandomLlm } from '../llm/llmTestCalls.js';

/*
 * The hybrid analyser on real GGUF files:
 * - the structure-only Llama-2 (random weights, no chat template: the base-model prompt) proves
 *   that node-llama-cpp takes the headline's GBNF grammar and that its answers are read;
 * - SmolLM2-135M-Instruct (real weights, `npm run models:eval`; its own ChatML template) on this
 *   box, and on llama-cpp-python's OpenAI-compatible server (`LLM_PROVIDER=openai`, the
 *   `chat-server` environment of models:eval), each mode the service has.
 * A model this small reads poorly, so what is asserted is what holds whatever it answers: a
 * valid, grounded analysis whose items are the rules' (never new ones) and whose headline, when
 * the model wrote one, is plain words.
 */

const plainWords = new RegExp(`^[\\p{L}\\p{N}'’.:,£$€%-]+( [\\p{L}\\p{N}'’.:,£$€%-]+){1,${headlineWords.summary - 1}}$`, 'u');
const input = callInput();
let rules: Analysis;
let server: ChatServer;
let smolLm: string;

beforeAll(async () => {
  rules = (await createBuiltinAnalyser().analyse(input, createTestStageContext())).analysis;
  smolLm = requireEvalModelFile('smollm2-135m-instruct', 'gguf');
  server = await startChatServer({ modelPath: smolLm });
}, 180_000);
afterAll(async () => {
  await threadResources.disposeAll();
  await server?.stop();
});

function expectHybridOf(analysis: Analysis): void {
  const ruleItems = (rules.actionItems ?? []).map((item) => item.title);
  for (const item of analysis.actionItems ?? []) expect(ruleItems).toContain(item.title);
  if (analysis.suggestedTitle !== rules.suggestedTitle) {
    expect(analysis.suggestedTitle).toMatch(plainWords);
    expect(analysis.oneLineSummary).toMatch(plainWords);
  }
  expect(analysis.keyDiscussionPoints).toEqual(rules.keyDiscussionPoints);
}

describe('the hybrid analyser on real models (realModel)', () => {
  test('structure-only Llama-2, a base model: the headline grammar loads and the answers are read', async () => {
    const analyser = createHybridAnalyser({ modelPath: tinyRandomLlm, gpu: false, threads: 1, contextSize: 2048 });
    const { analysis, producer, grounding } = await analyseCall(input, analyser, createTestStageContext());
    expect(producer).toEqual({ analyser: 'hybrid', analyserVersion: '1', model: 'llama-2-tiny-random.gguf' });
    expectHybridOf(analysis);
    expect(grounding.violationsAfter).toEqual([]);
  }, 120_000);

  test('SmolLM2-135M-Instruct on this box, with its chat template', async () => {
    const analyser = createHybridAnalyser({ modelPath: smolLm, gpu: false, threads: 1 });
    const { analysis, producer, grounding } = await analyseCall(input, analyser, createTestStageContext());
    expect(producer.model).toBe('SmolLM2-135M-Instruct.Q4_1.gguf');
    expectHybridOf(analysis);
    expect(grounding.violationsAfter).toEqual([]);
  }, 300_000);

  test('LLM_PROVIDER=openai on llama-cpp-python\'s server with SmolLM2: the hybrid and the LLM analyser', async () => {
    // A 2048-token context keeps the LLM analyser's answer budget (40 %) to about 800 tokens: a small model fills it.
    const config = (ANALYSER: 'hybrid' | 'llm') => loadConfig({ ANALYSER, LLM_PROVIDER: 'openai', LLM_URL: server.url, LLM_MODEL_NAME: server.modelName, LLM_CONTEXT_SIZE: '2048' });
    const hybrid = await analyseCall(input, selectAnalyser(config('hybrid')), createTestStageContext());
    expect(hybrid.producer).toEqual({ analyser: 'hybrid', analyserVersion: '1', model: 'SmolLM2-135M-Instruct.Q4_1.gguf' });
    expectHybridOf(hybrid.analysis);
    expect(hybrid.grounding.violationsAfter).toEqual([]);

    // The whole analysis under the schema, through the server's `json_object` form: valid (analyseCall checks) and grounded.
    const llm = await analyseCall(input, selectAnalyser(config('llm')), createTestStageContext());
    expect(llm.producer).toEqual({ analyser: 'llm', analyserVersion: '1', model: 'SmolLM2-135M-Instruct.Q4_1.gguf' });
    expect(llm.grounding.violationsAfter).toEqual([]);
  }, 600_000);
});
