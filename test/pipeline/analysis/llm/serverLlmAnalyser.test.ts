import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { AnalysisSchema } from '../../../../src/domain/analysis/analysisSchema.js';
import { createServerLlmAnalyser } from '../../../../src/pipeline/analysis/llm/createLlmAnalyser.js';
import { StageFailure } from '../../../../src/pipeline/StageFailure.js';
import { createTestStageContext } from '../../testStageContext.js';
import { callInput, longCallInput } from './llmTestCalls.js';

// LLM_PROVIDER=openai: the LLM analyser with the site's chat server (played by the test,
// speaking OpenAI's /v1/chat/completions) answering each chunk.

interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: { properties: Record<string, unknown> } } };
  max_tokens: number;
  temperature: number;
  stream: boolean;
}

interface Seen {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: ChatBody;
}

let server: Server;
let url: string;
const seen: Seen[] = [];
/** How the server answers the next requests (taken in order); the default answers with a key point per segment. */
let plan: ((body: ChatBody) => { status: number; body: unknown })[] = [];

const segmentIdsOf = (body: ChatBody) => [...body.messages[1]!.content.matchAll(/^\[(seg_\d+)\]/gm)].map((match) => match[1]!);
const answerWith = (content: string, finishReason = 'stop') => ({
  status: 200,
  body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }], usage: { prompt_tokens: 321, completion_tokens: 54 } },
});
const keyPoints = (body: ChatBody) => answerWith(JSON.stringify({
  callType: 'sales', tags: ['order'],
  keyDiscussionPoints: segmentIdsOf(body).map((id) => ({ text: `About ${id}`, topic: 't', phase: 'middle', speakerId: 'spk_0', sourceSegmentIds: [id] })),
}));

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as ChatBody;
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, contentType: request.headers['content-type'], body });
      const answer = (plan.shift() ?? keyPoints)(body);
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => { await new Promise((closed) => server.close(closed)); });
beforeEach(() => {
  seen.length = 0;
  plan = [];
});

const analyser = (extra: { apiKey?: string; contextSize?: number; timeoutMs?: number } = {}) => createServerLlmAnalyser({
  contextSize: extra.contextSize ?? 4096,
  maxOutputTokens: 400,
  server: { url, modelName: 'qwen2.5-7b-instruct', timeoutMs: extra.timeoutMs ?? 10_000, ...(extra.apiKey ? { apiKey: extra.apiKey } : {}) },
});

describe('the LLM analyser with the site\'s chat server', () => {
  test('asks for JSON under the generation schema, field by field, and makes a valid analysis of the answer', async () => {
    const input = callInput();
    const { analysis, producer } = await analyser({ apiKey: 'chat-key-0123456789' }).analyse(input, createTestStageContext());

    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.authorization).toBe('Bearer chat-key-0123456789');
    expect(request!.contentType).toBe('application/json');
    const body = request!.body;
    expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model', 'response_format', 'stream', 'temperature']);
    expect(body).toMatchObject({ model: 'qwen2.5-7b-instruct', max_tokens: 400, temperature: 0, stream: false });
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    // The transcript is in the user message, each line with its segment id.
    expect(segmentIdsOf(body)).toEqual(input.transcript.segments.map((segment) => segment.id));
    // The nested form llama.cpp's server reads: {type: json_schema, json_schema: {name, strict, schema}}.
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('call_analysis');
    expect(body.response_format.json_schema.strict).toBe(true);
    const citations = (body.response_format.json_schema.schema.properties.keyDiscussionPoints as { items: { properties: { sourceSegmentIds: { items: { enum: string[] } } } } })
      .items.properties.sourceSegmentIds.items.enum;
    expect(citations).toEqual(input.transcript.segments.map((segment) => segment.id));

    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(analysis).toMatchObject({ callType: 'sales', tags: ['order'], qualityWarnings: [] });
    expect(analysis.keyDiscussionPoints).toHaveLength(input.transcript.segments.length);
    expect(producer).toEqual({ analyser: 'llm', analyserVersion: '1', model: 'qwen2.5-7b-instruct' });
  });

  test('a long call goes in chunks that fit LLM_CONTEXT_SIZE, and a chunk the server says is too long for its context is split', async () => {
    const input = longCallInput(8);
    plan = [() => ({ status: 400, body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } } })];
    const { analysis } = await analyser({ contextSize: 2048 }).analyse(input, createTestStageContext());
    const answered = seen.slice(1);
    expect(answered.length).toBeGreaterThan(2);
    // Every segment is asked about exactly once among the answered requests.
    expect(answered.flatMap((request) => segmentIdsOf(request.body))).toEqual(input.transcript.segments.map((segment) => segment.id));
    expect(analysis.keyDiscussionPoints?.length).toBeGreaterThan(0);
  });

  test('an answer cut at max_tokens is repaired and says so in qualityWarnings', async () => {
    plan = [() => answerWith('{"callType": "sales", "tags": ["order", "refu', 'length')];
    const { analysis } = await analyser().analyse(callInput(), createTestStageContext());
    expect(analysis.callType).toBe('sales');
    expect(analysis.qualityWarnings.join(' ')).toMatch(/reached the output limit/);
  });

  test('a 4xx is rejected (the call fails), a 5xx and a closed port are transient (retried once by the stage), naming the server, never the key', async () => {
    const host = new URL(url).host;
    plan = [() => ({ status: 401, body: { error: { message: 'invalid api key' } } })];
    const rejected = await analyser({ apiKey: 'secret-chat-key-987654' }).analyse(callInput(), createTestStageContext()).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(StageFailure);
    expect(rejected).toMatchObject({ kind: 'rejected', reason: `The language model server at ${host} refused the request (HTTP 401: invalid api key)` });
    expect((rejected as StageFailure).reason).not.toContain('secret-chat-key');

    // A server that echoes the wrong key: masked in the reason, which is stored and shown to users.
    plan = [() => ({ status: 401, body: { error: { message: 'Incorrect API key provided: secret-chat-key-987654' } } })];
    const echoed = await analyser({ apiKey: 'secret-chat-key-987654' }).analyse(callInput(), createTestStageContext()).catch((error: unknown) => error);
    expect((echoed as StageFailure).reason).toBe(`The language model server at ${host} refused the request (HTTP 401: Incorrect API key provided: ***)`);

    plan = [() => ({ status: 503, body: { error: { message: 'loading model' } } })];
    await expect(analyser().analyse(callInput(), createTestStageContext())).rejects.toMatchObject({ kind: 'transient', reason: expect.stringContaining('HTTP 503: loading model') });

    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1/chat/completions`;
    await new Promise((done) => closed.close(done));
    const unreachable = createServerLlmAnalyser({ server: { url: closedUrl, modelName: 'm', timeoutMs: 5000 } });
    await expect(unreachable.analyse(callInput(), createTestStageContext())).rejects.toMatchObject({ kind: 'transient', reason: expect.stringMatching(/cannot be reached \(ECONNREFUSED\)/) });
  });

  test('a server that does not answer in time is transient, naming LLM_TIMEOUT_SECONDS', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
    try {
      const slow = createServerLlmAnalyser({ server: { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/chat/completions`, modelName: 'm', timeoutMs: 300 } });
      await expect(slow.analyse(callInput(), createTestStageContext())).rejects.toMatchObject({ kind: 'transient', reason: expect.stringContaining('(LLM_TIMEOUT_SECONDS)') });
    } finally {
      silent.closeAllConnections();
      await new Promise((done) => silent.close(done));
    }
  });

  test('an answer that is not a chat completion is an internal error (not the recording\'s fault)', async () => {
    plan = [() => ({ status: 200, body: { result: 'not a chat completion' } })];
    const error = await analyser().analyse(callInput(), createTestStageContext()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StageFailure);
    expect((error as Error).message).toMatch(/answered without a message/);
  });
});
