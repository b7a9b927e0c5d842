import { access } from 'node:fs/promises';
import type { GbnfJsonSchema, Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
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
  maxOutputTokens: number;
}

export type LlmGeneration =
  /** `cutOff`: the answer reached `maxOutputTokens` and its JSON is incomplete. */
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

  private async generateNow(request: LlmGenerationRequest): Promise<LlmGeneration> {
    const { context, sequence } = await this.contextSlot(request.contextSize, request.threads);
    // A grammar that cannot be built is a bug in the generation schema, not a runtime hiccup: it propagates as is.
    const grammar = await this.llama.createGrammarForJsonSchema<GbnfJsonSchema>(request.schema as GbnfJsonSchema);
    const session = new this.runtime.LlamaChatSession({ contextSequence: sequence, systemPrompt: request.systemPrompt, autoDisposeSequence: false });
    try {
      const { contextText } = session.chatWrapper.generateContextState({
        chatHistory: [...session.getChatHistory(), { type: 'user', text: request.userPrompt }, { type: 'model', response: [] }],
      });
      const promptTokens = contextText.tokenize(this.model.tokenizer).length;
      if (promptTokens + request.maxOutputTokens > context.contextSize) return { kind: 'too_long', promptTokens, contextSize: context.contextSize };
      const answer = await session.promptWithMeta(request.userPrompt, { grammar, maxTokens: request.maxOutputTokens, temperature: 0 });
      return {
        kind: 'answered',
        text: answer.responseText,
        cutOff: answer.stopReason === 'maxTokens',
        promptTokens,
        answerTokens: this.model.tokenize(answer.responseText).length,
      };
    } catch (error) {
      throw new StageFailure('transient', 'The language model failed while analysing the call.', { cause: error });
    } finally {
      session.dispose({ disposeSequence: false });
    }
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
