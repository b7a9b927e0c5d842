import { postJson, serverMessageOf, transportFailure, type HttpAnswer } from '../../../infrastructure/inference/inferenceRequests.js';
import { StageFailure } from '../../StageFailure.js';
import type { JsonSchema } from './generationSchema.js';
import type { LlmGeneration } from './LlmRuntime.js';

/** The site's own chat server (`LLM_PROVIDER=openai`): llama.cpp's `llama-server`, vLLM, Ollama's OpenAI API… */
export interface ChatServerOptions {
  /** The full chat-completions URL, e.g. `http://gpu-box:8080/v1/chat/completions`. */
  url: string;
  /** Sent as `model`. */
  modelName: string;
  /** Sent as `Authorization: Bearer`. Defaults to none. */
  apiKey?: string;
  /** Longest wait for one answer, ms. */
  timeoutMs: number;
}

export interface ChatRequest {
  systemPrompt: string;
  userPrompt: string;
  /** The JSON Schema the answer must follow (the same generation schema the local model's grammar is built from). */
  schema: JsonSchema;
  /** A GBNF grammar for the local model instead of the schema's (see `LlmGenerationRequest.gbnf`); chat servers get the schema. */
  gbnf?: string;
  maxOutputTokens: number;
}

/** What the body of a chat completion holds that is read here (OpenAI's shape). */
interface ChatCompletion {
  choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/**
 * One chunk's answer from an OpenAI-compatible chat-completions endpoint, constrained with
 * `response_format: {type: "json_schema", json_schema: {name, strict: true, schema}}` (the
 * nested form llama.cpp's server reads, as OpenAI and vLLM do; a server that refuses it (4xx or
 * 5xx) naming `response_format` is asked again, and from then on, with `{type: "json_object", schema}`,
 * llama-cpp-python's form), greedy (`temperature: 0`), at most `max_tokens`. The answer is the same `LlmGeneration` the local model gives, so the same
 * reading, repair, merging and grounding follow.
 *
 * Failures, in the spec's terms: a 4xx is `rejected` (the call fails), except a request too
 * long for the server's context, which comes back as `too_long` (the analyser splits the
 * chunk); a 5xx, a network error or a timeout is `transient` (the stage is retried once); an
 * answer that is not a chat completion is an internal error.
 */
export async function requestChatCompletion(server: ChatServerOptions, request: ChatRequest, signal: AbortSignal): Promise<LlmGeneration> {
  const host = new URL(server.url).host;
  let form: ResponseFormatForm = jsonObjectServers.has(server.url) ? 'json_object' : 'json_schema';
  let answer = await postChat(server, request, form, signal);
  if (form === 'json_schema' && answer.status >= 400 && /response_format/.test(answer.body)) {
    // The server does not know OpenAI's form: llama-cpp-python's reads only `json_object` with a
    // schema, and refuses the other with a 500 naming `response_format`. Ask it its way from now on.
    form = 'json_object';
    answer = await postChat(server, request, form, signal);
    if (answer.status >= 200 && answer.status < 300) jsonObjectServers.add(server.url);
  }

  const message = answer.status >= 200 && answer.status < 300 ? '' : serverMessageOf(answer, [server.apiKey]);
  if (answer.status >= 400 && answer.status < 500) {
    if (contextOverflow.test(message)) return { kind: 'too_long', promptTokens: 0, contextSize: 0 };
    throw new StageFailure('rejected', `The language model server at ${host} refused the request (HTTP ${answer.status}${message ? `: ${message}` : ''})`);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw new StageFailure('transient', `The language model server at ${host} failed (HTTP ${answer.status}${message ? `: ${message}` : ''}); the call can be reprocessed`);
  }
  let completion: ChatCompletion;
  try {
    completion = JSON.parse(answer.body) as ChatCompletion;
  } catch {
    throw new Error(`The language model server at ${host} answered with something else than JSON`);
  }
  const choice = completion.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string') throw new Error(`The language model server at ${host} answered without a message (is ${new URL(server.url).pathname} a chat-completions endpoint?)`);
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return {
    kind: 'answered',
    text: content,
    cutOff: choice?.finish_reason === 'length',
    promptTokens: count(completion.usage?.prompt_tokens),
    answerTokens: count(completion.usage?.completion_tokens),
  };
}

/**
 * How the answer's schema is asked for: `json_schema`, OpenAI's nested
 * `{type: "json_schema", json_schema: {name, strict, schema}}` (OpenAI, llama.cpp's server, vLLM,
 * Ollama), or `json_object`, `{type: "json_object", schema}` (llama-cpp-python's server, and
 * llama.cpp's server too).
 */
type ResponseFormatForm = 'json_schema' | 'json_object';

/** Chat-completion URLs that refused the `json_schema` form and took `json_object`: asked that way for the rest of the process's life. */
const jsonObjectServers = new Set<string>();

/** One chat-completion request; transport failures become stage failures (see {@link requestChatCompletion}). */
async function postChat(server: ChatServerOptions, request: ChatRequest, form: ResponseFormatForm, signal: AbortSignal): Promise<HttpAnswer> {
  const body = {
    model: server.modelName,
    messages: [{ role: 'system', content: request.systemPrompt }, { role: 'user', content: request.userPrompt }],
    response_format: form === 'json_schema'
      ? { type: 'json_schema', json_schema: { name: 'call_analysis', strict: true, schema: request.schema } }
      : { type: 'json_object', schema: withoutLengthBounds(request.schema) },
    max_tokens: request.maxOutputTokens,
    temperature: 0,
    stream: false,
  };
  try {
    return await postJson(server.url, body, {
      timeoutMs: server.timeoutMs,
      signal,
      ...(server.apiKey ? { headers: { authorization: `Bearer ${server.apiKey}` } } : {}),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw transportFailure('language model server', new URL(server.url).host, error, 'LLM_TIMEOUT_SECONDS');
  }
}

/**
 * The schema without `maxLength`: llama-cpp-python's converter writes a bound of N characters
 * as N nested copies of a character rule, and a grammar with the analysis's 2000-character
 * texts fails to parse there (its server then drops the connection). The answer's length is
 * bounded by `max_tokens` anyway, and reading it cuts texts to the schema's lengths.
 */
function withoutLengthBounds(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(withoutLengthBounds) as unknown as JsonSchema;
  if (schema === null || typeof schema !== 'object') return schema as JsonSchema;
  return Object.fromEntries(Object.entries(schema).filter(([keyword]) => keyword !== 'maxLength').map(([keyword, value]) => [keyword, withoutLengthBounds(value)]));
}

/** How servers say a request does not fit their context (llama.cpp, vLLM, OpenAI, Ollama). */
const contextOverflow = /context (length|size|window)|too (long|many tokens)|maximum context|exceeds the available context/i;
