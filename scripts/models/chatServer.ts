import { basename } from 'node:path';
import { chatServerEnvironment, requirePythonReference } from './pythonReference.js';
import { startPythonServer } from './startPythonServer.js';

/**
 * llama-cpp-python's OpenAI-compatible server (PyPI `llama-cpp-python[server]`, built from its
 * sources into EVAL_MODELS_DIR/venv-chat-server by `npm run models:eval -- --only chat-server`)
 * serving one GGUF model: a real site chat server for `LLM_PROVIDER=openai`, for tests and
 * `npm run eval:analysis -- --provider openai`. Never part of the service.
 */
export interface ChatServerStartOptions {
  /** The GGUF file it serves. */
  modelPath: string;
  /** Its context window, tokens (`n_ctx`). Defaults to `4096`, the service's `LLM_CONTEXT_SIZE` default. */
  contextSize?: number;
  /** CPU threads it evaluates with. Defaults to `1`, as the service's own model on 2 cores. */
  threads?: number;
  /** Receives each line the server prints (its access log and errors; never prompt text). Defaults to none. */
  log?: (line: string) => void;
}

export interface ChatServer {
  /** `http://127.0.0.1:<port>/v1/chat/completions`: the `LLM_URL` to give the `openai` provider. */
  url: string;
  /** The name the model is served under (its file name): the `LLM_MODEL_NAME`. */
  modelName: string;
  stop(): Promise<void>;
}

/** Longest wait for `/v1/models` after the start: Python's imports and the model's load (about 3 s for 135M on 2 idle cores), ms. */
const startTimeoutMs = 90_000;

/**
 * Starts the server on a free loopback port and resolves once it lists its model. It applies
 * the model's own chat template (from the GGUF; a model without one gets llama-cpp-python's
 * fallback format) and reads `response_format` as `{type: "json_object", schema}`, which the
 * `openai` provider falls back to when the server refuses OpenAI's `json_schema` form.
 */
export async function startChatServer(options: ChatServerStartOptions): Promise<ChatServer> {
  const python = await requirePythonReference(undefined, chatServerEnvironment);
  const modelName = basename(options.modelPath);
  const threads = String(options.threads ?? 1);
  const server = await startPythonServer({
    name: 'llama-cpp-python\'s server',
    python,
    args: (port) => [
      '-m', 'llama_cpp.server', '--model', options.modelPath, '--model_alias', modelName, '--host', '127.0.0.1', '--port', String(port),
      '--n_ctx', String(options.contextSize ?? 4096), '--n_threads', threads, '--n_threads_batch', threads, '--n_gpu_layers', '0',
    ],
    readyPath: '/v1/models',
    startTimeoutMs,
    ...(options.log ? { log: options.log } : {}),
  });
  return { url: `${server.baseUrl}/v1/chat/completions`, modelName, stop: server.stop };
}
