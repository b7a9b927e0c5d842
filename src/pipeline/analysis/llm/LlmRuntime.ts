import { access } from 'node:fs/promises';
import type { GbnfJsonSchema, Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { modelDisplayName } from '../../../infrastructure/models/resolveModelPath.js';
import { threadResources, type Disposable } from '../../../infrastructure/workers/WorkerResources.js';
import { StageFailure } from '../../StageFailure.js';
import type { JsonSchema } from './generationSchema.js';

type NodeLlamaCpp = typeof import('node-llama-cpp');

/**
 * node-llama-cpp, imported when a thread first loads a model: importing it as a thread starts
 * stalls Piscina's worker start-up (measured: every task of the pool timed out), and threads
 * that never analyse with the LLM should not carry it.
 */
async function importNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  try {
    return await import('node-llama-cpp');
  } catch (error) {
    throw new StageFailure('unavailable', 'The language-model runtime is not available on this machine.', { cause: error });
  }
}

/**
 * The analysis's failure when llama.cpp cannot load the model file (truncated, overwritten, not
 * GGUF, or more than the memory can hold). Thrown on a worker thread: only its kind and reason
 * cross to the analyser (`cause` stays behind). `modelName`: see `modelDisplayName`.
 */
export function llmModelUnusable(modelName: string, cause?: unknown): StageFailure {
  return new StageFailure(
    'unavailable',
    `The language model for call analysis at LLM_MODEL (now ${modelName}) could not be loaded: it is damaged, not a GGUF model, or too large for this machine's memory; `
      + 'replace it, or set ANALYSER=builtin',
    { cause },
  );
}

/** Which model a worker thread loads, and how. */
export interface LlmModelSettings {
  /** The GGUF file. */
  modelPath: string;
  /** `auto`: a GPU when node-llama-cpp finds one; false: CPU only. Read when the thread first loads the model. */
  gpu: 'auto' | false;
}

/** One constrained generation: the prompt, the schema its answer must follow, and the context it runs in. */
export interface LlmGenerationRequest {
  /** Context window, tokens (at most the model's training context). */
  contextSize: number;
  /** CPU threads for evaluation. */
  threads: number;
  systemPrompt: string;
  userPrompt: string;
  /** The JSON Schema the answer is generated under (node-llama-cpp's JSON-schema grammar). */
  schema: JsonSchema;
  /**
   * A GBNF grammar the local model generates under instead of the schema's, for constraints a
   * JSON-schema grammar cannot state (the hybrid headline's words: `headlineGrammar.ts`). The
   * answer must still follow `schema`, which is what chat servers get. Defaults to none.
   */
  gbnf?: string;
  maxOutputTokens: number;
  /** Longest the generation may run, ms: it stops there and what it wrote is read as cut off. Defaults to no limit. */
  timeoutMs?: number;
}

export type LlmGeneration =
  /** `cutOff`: the answer reached `maxOutputTokens` (or the time limit) and its JSON is incomplete. */
  | { kind: 'answered'; text: string; cutOff: boolean; promptTokens: number; answerTokens: number }
  /** The prompt and the answer's token budget do not fit the context: nothing was generated. */
  | { kind: 'too_long'; promptTokens: number; contextSize: number };

interface ContextSlot {
  context: LlamaContext;
  sequence: LlamaContextSequence;
}

/**
 * A GGUF model loaded in one worker thread (node-llama-cpp), with its contexts, kept for the
 * thread's life ({@link loadLlmRuntime}). Generations run one at a time, greedily
 * (temperature 0: the same transcript gives the same analysis), each in a fresh chat session on
 * the context's single sequence; node-llama-cpp reuses the evaluated prefix the prompts share
 * (the system prompt).
 *
 * A model whose GGUF carries no chat template (a base model, such as the Gemma 3 270M file of
 * the evaluation) is not asked through a chat format it was never trained on: it continues a
 * plain document instead ({@link basePrompt}), the instructions, the request and an answer cue,
 * under the same grammar.
 */
export class LlmRuntime implements Disposable {
  private readonly contexts = new Map<string, Promise<ContextSlot>>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly llama: Llama, private readonly model: LlamaModel, private readonly runtime: NodeLlamaCpp) {}

  static async load({ modelPath, gpu }: LlmModelSettings): Promise<LlmRuntime> {
    try {
      await access(modelPath);
    } catch (error) {
      throw new StageFailure('model_missing', 'The language model for call analysis is not installed.', { cause: error });
    }
    const runtime = await importNodeLlamaCpp();
    let llama: Llama;
    try {
      // build 'never': use the prebuilt binaries only; the box never compiles or downloads llama.cpp.
      llama = await runtime.getLlama({ gpu, build: 'never', logLevel: runtime.LlamaLogLevel.error });
    } catch (error) {
      throw new StageFailure('unavailable', 'The language-model runtime is not available on this machine.', { cause: error });
    }
    try {
      return new LlmRuntime(llama, await llama.loadModel({ modelPath }), runtime);
    } catch (error) {
      await llama.dispose();
      throw llmModelUnusable(modelDisplayName(modelPath), error);
    }
  }

  get disposed(): boolean {
    return this.model.disposed;
  }

  generate(request: LlmGenerationRequest): Promise<LlmGeneration> {
    const generation = this.queue.then(() => this.generateNow(request));
    this.queue = generation.catch(() => undefined);
    return generation;
  }

  async dispose(): Promise<void> {
    const slots = [...this.contexts.values()];
    this.contexts.clear();
    for (const slot of slots) {
      try {
        await (await slot).context.dispose();
      } catch {
        // A context that failed to be created holds nothing.
      }
    }
    await this.model.dispose();
    await this.llama.dispose();
  }

  /** Whether the model's GGUF carries a chat template (an instruction-tuned model): else it is prompted as a base model. */
  private get chatTuned(): boolean {
    return typeof this.model.fileInfo.metadata?.tokenizer?.chat_template === 'string';
  }

  private async generateNow(request: LlmGenerationRequest): Promise<LlmGeneration> {
    const { context, sequence } = await this.contextSlot(request.contextSize, request.threads);
    // A grammar that cannot be built is a bug in the generation schema, not a runtime hiccup: it propagates as is.
    const grammar = request.gbnf === undefined
      ? await this.llama.createGrammarForJsonSchema<GbnfJsonSchema>(request.schema as GbnfJsonSchema)
      : await this.llama.createGrammar({ grammar: request.gbnf });
    if (!this.chatTuned) return this.complete(request, context, sequence, grammar);
    const session = new this.runtime.LlamaChatSession({ contextSequence: sequence, systemPrompt: request.systemPrompt, autoDisposeSequence: false });
    try {
      const { contextText } = session.chatWrapper.generateContextState({
        chatHistory: [...session.getChatHistory(), { type: 'user', text: request.userPrompt }, { type: 'model', response: [] }],
      });
      const promptTokens = contextText.tokenize(this.model.tokenizer).length;
      if (promptTokens + request.maxOutputTokens > context.contextSize) return { kind: 'too_long', promptTokens, contextSize: context.contextSize };
      const answer = await session.promptWithMeta(request.userPrompt, { grammar, maxTokens: request.maxOutputTokens, temperature: 0, ...timeLimit(request) });
      return this.answered(answer.responseText, answer.stopReason, promptTokens);
    } catch (error) {
      throw new StageFailure('transient', 'The language model failed while analysing the call.', { cause: error });
    } finally {
      session.dispose({ disposeSequence: false });
    }
  }

  /** A base model's generation: the plain document {@link basePrompt} continued under the grammar. */
  private async complete(request: LlmGenerationRequest, context: LlamaContext, sequence: LlamaContextSequence, grammar: LlamaGrammar): Promise<LlmGeneration> {
    const prompt = basePrompt(request);
    // + 1: the beginning-of-sequence token the completion puts first.
    const promptTokens = this.model.tokenize(prompt).length + 1;
    if (promptTokens + request.maxOutputTokens > context.contextSize) return { kind: 'too_long', promptTokens, contextSize: context.contextSize };
    const completion = new this.runtime.LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
    try {
      const answer = await completion.generateCompletionWithMeta(prompt, { grammar, maxTokens: request.maxOutputTokens, temperature: 0, ...timeLimit(request) });
      return this.answered(answer.response, answer.metadata.stopReason, promptTokens);
    } catch (error) {
      throw new StageFailure('transient', 'The language model failed while analysing the call.', { cause: error });
    } finally {
      completion.dispose({ disposeSequence: false });
    }
  }

  /** A generation's result; stopped by the token budget or the time limit (`abort`), its JSON is incomplete. */
  private answered(text: string, stopReason: string, promptTokens: number): LlmGeneration {
    const cutOff = stopReason === 'maxTokens' || stopReason === 'abort';
    return { kind: 'answered', text, cutOff, promptTokens, answerTokens: this.model.tokenize(text).length };
  }

  /** The context (and its one sequence) of that size and thread count, created on first use; a failed creation is retried next time. */
  private contextSlot(contextSize: number, threads: number): Promise<ContextSlot> {
    const size = Math.min(contextSize, this.model.trainContextSize || contextSize);
    const key = `${size}:${threads}`;
    let slot = this.contexts.get(key);
    if (!slot) {
      slot = this.model.createContext({ contextSize: size, threads, sequences: 1 })
        .then((context) => ({ context, sequence: context.getSequence() }))
        .catch((error: unknown) => {
          this.contexts.delete(key);
          throw new StageFailure('transient', 'There was not enough memory to run the language model.', { cause: error });
        });
      this.contexts.set(key, slot);
    }
    return slot;
  }
}

/** The current worker thread's runtime for the model at `settings.modelPath`, loaded on first use. */
export function loadLlmRuntime(settings: LlmModelSettings): Promise<LlmRuntime> {
  return threadResources.get(`llm:${settings.modelPath}`, () => LlmRuntime.load(settings));
}

/** node-llama-cpp's options that stop a generation at the request's time limit, keeping what it wrote. */
function timeLimit(request: Pick<LlmGenerationRequest, 'timeoutMs'>): { signal?: AbortSignal; stopOnAbortSignal?: boolean } {
  return request.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(request.timeoutMs), stopOnAbortSignal: true };
}

/**
 * How a base model is asked: a document it can only continue with the answer. The instructions
 * and the request, then a cue naming what follows; the grammar makes the continuation the JSON
 * answer, and the cue's "JSON" tells the model early that it is one.
 */
export function basePrompt(request: Pick<LlmGenerationRequest, 'systemPrompt' | 'userPrompt'>): string {
  return `${request.systemPrompt}\n\n${request.userPrompt}\n\nAnswer (JSON):\n`;
}
