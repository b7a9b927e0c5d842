import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { AnalysisSchema } from '../../../../src/domain/analysis/analysisSchema.js';
import { createBuiltinAnalyser } from '../../../../src/pipeline/analysis/builtin/builtinAnalyser.js';
import { createServerHybridAnalyser, type HybridDecision } from '../../../../src/pipeline/analysis/hybrid/createHybridAnalyser.js';
import { createTestStageContext } from '../../testStageContext.js';
import { callInput } from '../llm/llmTestCalls.js';

// ANALYSER=hybrid with the site's chat server played by the test: the rules' analysis, whose
// action items the model checks one by one and whose headline it writes. The server's answers
// are scripted per question, so what the analyser makes of each is exact.

interface ChatBody {
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema?: { schema: JsonSchemaShape }; schema?: JsonSchemaShape };
  max_tokens: number;
}
interface JsonSchemaShape { properties: Record<string, { pattern?: string; maxLength?: number }> }

let server: Server;
let url: string;
const seen: ChatBody[] = [];
/** Answers to item questions, by a word of the item's title; the headline's answer; a status to refuse OpenAI's form with. */
let itemAnswers: Record<string, unknown> = {};
let headlineAnswer: unknown = { title: 'Purchase order and delivery review', summary: 'Dana Whitfield and Marco Ruiz agreed the order of 40 pallets.' };
let refuseJsonSchemaWith: number | undefined;

const answerWith = (content: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as ChatBody;
      seen.push(body);
      if (refuseJsonSchemaWith && body.response_format.type === 'json_schema') {
        response.writeHead(refuseJsonSchemaWith, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: [{ type: 'literal_error', loc: ['body', 'response_format', 'type'], msg: "Input should be 'text' or 'json_object'" }] }));
        return;
      }
      const user = body.messages[1]!.content;
      const item = /Proposed action item: "([^"]+)"/.exec(user)?.[1];
      const answer = item === undefined ? headlineAnswer : Object.entries(itemAnswers).find(([word]) => item.includes(word))?.[1] ?? { isAction: true, intent: 'task' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answerWith(typeof answer === 'string' ? answer : JSON.stringify(answer))));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => { await new Promise((closed) => server.close(closed)); });
beforeEach(() => {
  seen.length = 0;
  itemAnswers = {};
  refuseJsonSchemaWith = undefined;
  headlineAnswer = { title: 'Purchase order and delivery review', summary: 'Dana Whitfield and Marco Ruiz agreed the order of 40 pallets.' };
});

const hybrid = (decides?: readonly HybridDecision[], serverUrl = url) => createServerHybridAnalyser({
  contextSize: 4096,
  server: { url: serverUrl, modelName: 'qwen2.5-7b-instruct', timeoutMs: 10_000 },
  ...(decides ? { decides } : {}),
});
/** A call in which the rules find two action items: an email (with its details) and a call. */
const twoItemCall = () => callInput([
  ['A', 'Hi Marco, Dana here. Do you have a minute about the warehouse order?'],
  ['B', 'Sure Dana. We can ship the 40 pallets on Thursday if you confirm today.'],
  ['A', 'Great. I will email you the signed purchase order this afternoon.'],
  ['B', 'Perfect. I will call you on Monday to confirm the delivery slot.'],
  ['A', 'Works for me. Talk soon.'],
]);
const rulesOf = async () => (await createBuiltinAnalyser().analyse(twoItemCall(), createTestStageContext())).analysis;

describe('the hybrid analyser', () => {
  test('keeps the rules\' analysis, drops the items the model rejects, takes its intents and writes its headline', async () => {
    const rules = await rulesOf();
    expect(rules.actionItems!.map((item) => [item.title, item.intent])).toEqual([
      ['Email the signed purchase order to the contact', 'email'],
      ['Call the user to confirm the delivery slot', 'call'],
    ]);
    itemAnswers = { 'purchase order': { isAction: true, intent: 'task' }, 'delivery slot': { isAction: false, intent: 'call' } };

    const { analysis, producer } = await hybrid().analyse(twoItemCall(), createTestStageContext());

    expect(producer).toEqual({ analyser: 'hybrid', analyserVersion: '1', model: 'qwen2.5-7b-instruct' });
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    // One question per rules' item, then the headline.
    expect(seen).toHaveLength(3);
    const [kept, ...others] = analysis.actionItems!;
    expect(others).toEqual([]);
    // The model's intent; a changed intent drops the rules' details (the email's subject), which were the other intent's.
    expect(kept).toEqual({ ...rules.actionItems![0]!, intent: 'task', intentMetadata: {} });
    expect(analysis.suggestedTitle).toBe('Purchase order and delivery review');
    expect(analysis.oneLineSummary).toBe('Dana Whitfield and Marco Ruiz agreed the order of 40 pallets.');
    // Everything else is the rules'.
    expect(analysis.keyDiscussionPoints).toEqual(rules.keyDiscussionPoints);
    expect(analysis.importantDates).toEqual(rules.importantDates);
  });

  test('asks each item with its own lines and the one either side, and the headline under the call\'s own names and numbers', async () => {
    await hybrid().analyse(twoItemCall(), createTestStageContext());
    const itemQuestion = seen.find((body) => body.messages[1]!.content.includes('Proposed action item'))!;
    // The purchase order's line, with Marco's lines either side.
    expect(itemQuestion.messages[1]!.content.split('\n').slice(1, 4)).toEqual([
      'Marco Ruiz: Sure Dana. We can ship the 40 pallets on Thursday if you confirm today.',
      'Dana Whitfield: Great. I will email you the signed purchase order this afternoon.',
      'Marco Ruiz: Perfect. I will call you on Monday to confirm the delivery slot.',
    ]);
    expect(itemQuestion.max_tokens).toBeLessThanOrEqual(32);
    const headlineQuestion = seen.at(-1)!;
    const schema = headlineQuestion.response_format.json_schema!.schema;
    const title = new RegExp(schema.properties.title!.pattern!);
    const summary = new RegExp(schema.properties.summary!.pattern!);
    expect(title.test('Purchase order emailed and delivery call Monday')).toBe(true);
    // A title is words and spaces only.
    expect(title.test('Purchase order emailed, delivery call on Monday')).toBe(false);
    expect(summary.test('Dana Whitfield and Marco Ruiz agreed to ship 40 pallets on Thursday.')).toBe(true);
    // A name and a number the call never had cannot be written.
    expect(summary.test('Dana called Sophie about 41 pallets.')).toBe(false);
    expect(summary.test('Dana called about 41 pallets.')).toBe(false);
  });

  test('keeps the rules\' item, or headline, with a warning where the model\'s answer is unusable', async () => {
    const rules = await rulesOf();
    itemAnswers = { 'purchase order': 'not json', 'delivery slot': { isAction: true, intent: 'call' } };
    headlineAnswer = { title: 'Order', summary: 'Too short' };
    const { analysis } = await hybrid().analyse(twoItemCall(), createTestStageContext());
    expect(analysis.actionItems).toEqual(rules.actionItems);
    expect([analysis.suggestedTitle, analysis.oneLineSummary]).toEqual([rules.suggestedTitle, rules.oneLineSummary]);
    expect(analysis.qualityWarnings).toEqual(expect.arrayContaining([
      expect.stringContaining('no usable verdict on an action item'),
      expect.stringContaining('no usable headline'),
    ]));
  });

  test('decides only what it is told to: with `actions` alone the kept items keep the rules\' intents and the headline stays the rules\'', async () => {
    const rules = await rulesOf();
    itemAnswers = { 'purchase order': { isAction: false, intent: 'email' }, 'delivery slot': { isAction: true, intent: 'meeting' } };
    const { analysis } = await hybrid(['actions']).analyse(twoItemCall(), createTestStageContext());
    expect(analysis.actionItems).toEqual([rules.actionItems![1]]);
    expect(analysis.suggestedTitle).toBe(rules.suggestedTitle);
    expect(seen).toHaveLength(2);
  });

  test('asks a server that refuses OpenAI\'s `json_schema` form (llama-cpp-python answers 500 naming response_format) with `json_object`, from then on', async () => {
    refuseJsonSchemaWith = 500;
    // A URL of its own: the fallback is remembered per URL.
    const own = `${url}?server=refusing`;
    const { analysis } = await hybrid(['headline'], own).analyse(callInput(), createTestStageContext());
    expect(analysis.suggestedTitle).toBe('Purchase order and delivery review');
    expect(seen.map((body) => body.response_format.type)).toEqual(['json_schema', 'json_object']);
    expect(seen[1]!.response_format.schema!.properties.title!.pattern).toBeDefined();
    await hybrid(['headline'], own).analyse(callInput(), createTestStageContext());
    expect(seen.map((body) => body.response_format.type)).toEqual(['json_schema', 'json_object', 'json_object']);
  });
});
