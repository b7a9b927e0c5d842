import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { Value } from 'typebox/value';
import { assertModelUsable } from '../../../infrastructure/models/assertModelUsable.js';
import { whileLoadingModels } from '../../../infrastructure/models/modelLoadFailures.js';
import { modelDisplayName } from '../../../infrastructure/models/resolveModelPath.js';
import { AnalysisSchema, type Analysis, type AnalysisProducer } from '../../../domain/analysis/analysisSchema.js';
import type { Segment } from '../../../domain/transcripts/transcriptSchema.js';
import type { StageContext } from '../../StageContext.js';
import { StageFailure } from '../../StageFailure.js';
import type { Analyser, AnalyserResult, AnalysisInput } from '../Analyser.js';
import { analysisSystemPrompt, chunkPrompt, transcriptLine, type PromptPart } from './analysisPrompt.js';
import { chunkTranscript } from './chunkTranscript.js';
import { charsPerToken, estimateTokens, shorten } from './textBudget.js';
import { fitToSchema } from './fitToSchema.js';
import { analysisGenerationSchema, defaultGenerationLimits, type GenerationLimits, type JsonSchema } from './generationSchema.js';
import { requestChatCompletion, type ChatRequest, type ChatServerOptions } from './chatCompletion.js';
import { llmModelUnusable, type LlmGeneration } from './LlmRuntime.js';
import { mergeChunkAnalyses } from './mergeChunkAnalyses.js';
import { emptyAnalysis, readChunkAnswer, type ChunkAnswer } from './readChunkAnswer.js';

export interface LlmAnalyserOptions {
  /** The GGUF model file; its name (without the path) is recorded as the analysis's producer model. */
  modelPath: string;
  /** Context window the model runs with, tokens; longer transcripts are analysed in chunks. Defaults to `4096`. */
  contextSize?: number;
  /** `auto`: run on a GPU when node-llama-cpp finds one; false: CPU only. Defaults to `"auto"`. */
  gpu?: 'auto' | false;
  /** Most tokens one chunk's answer may have; it is reserved in the context. Defaults to 40% of `contextSize`, at most `2048`. */
  maxOutputTokens?: number;
  /** CPU threads llama.cpp evaluates with. Defaults to half the CPU cores, at least 1 (the rest serve the event loop and other workers). */
  threads?: number;
  /** Bounds on each chunk's answer (texts, list sizes, citations). Defaults to {@link defaultGenerationLimits}. */
  limits?: Partial<GenerationLimits>;
  /** Longest one generation (one chunk's answer, one hybrid question) may run, ms; it stops there and is read as cut off. Defaults to no limit. */
  timeoutMs?: number;
}

/** The site's own chat server instead of a local model (`LLM_PROVIDER=openai`). */
export interface ServerLlmAnalyserOptions extends Pick<LlmAnalyserOptions, 'contextSize' | 'maxOutputTokens' | 'limits'> {
  server: ChatServerOptions;
}

/** Bumped when the analyser's output changes for the same input and model. */
export const llmAnalyserVersion = '1';

/** Tokens kept free for the chat template around the prompts. */
const templateReserveTokens = 64;
/** Fewer tokens than this left for transcript lines means the context is too small to be useful. */
const minimumLineBudget = 64;

/**
 * The LLM analyser: the transcript is cut into chunks that fit the model's context
 * ({@link chunkTranscript}), each chunk is answered on the worker pool under a JSON-schema
 * grammar derived from AnalysisSchema (so the answer always parses, and cites only the chunk's
 * segments and the call's speakers), each answer is repaired into a valid Analysis
 * ({@link readChunkAnswer}), and the chunks' analyses are merged ({@link mergeChunkAnalyses}).
 * What the model gets wrong becomes `qualityWarnings`, never an exception; grounding happens
 * after, in the caller.
 *
 * Failures: no model file, or one llama.cpp cannot load → `unavailable` (readiness then reports
 * it until the file changes); the runtime failing (no memory for the context, a generation
 * error) → `transient`.
 */
export function createLlmAnalyser(options: LlmAnalyserOptions): Analyser {
  const settings = chunkSettingsOf(options);
  const generator = localChunkGenerator(options, settings.contextSize);
  return { analyse: (input, context) => analyse(input, context, settings, generator) };
}

/**
 * The same analyser with the site's chat server answering each chunk ({@link requestChatCompletion}):
 * the same prompts, schema, chunking (by `contextSize`, the server's context window), repair
 * and merging. The server's model name is recorded as the producer's model.
 */
export function createServerLlmAnalyser(options: ServerLlmAnalyserOptions): Analyser {
  const settings = chunkSettingsOf(options);
  const generator = serverChunkGenerator(options.server);
  return { analyse: (input, context) => analyse(input, context, settings, generator) };
}

/**
 * The local model as a {@link ChunkGenerator}: each request answered on the worker pool by the
 * GGUF file's model (loaded once per worker thread), in a context of `contextSize` tokens.
 */
export function localChunkGenerator(options: Pick<LlmAnalyserOptions, 'modelPath' | 'gpu' | 'threads' | 'timeoutMs'>, contextSize: number): ChunkGenerator {
  const threads = options.threads ?? Math.max(1, Math.floor(availableParallelism() / 2));
  const gpu = options.gpu ?? 'auto';
  const model = { path: options.modelPath, unusable: [llmModelUnusable(modelDisplayName(options.modelPath))] };
  return {
    modelName: basename(options.modelPath),
    prepare: async () => {
      try {
        await access(options.modelPath);
      } catch (error) {
        throw new StageFailure('model_missing', 'The language model for call analysis is not installed.', { cause: error });
      }
      await assertModelUsable(options.modelPath);
    },
    // Readiness reports a model no call can load (an own model is verified by nothing else), until it changes or loads.
    generate: (request, context) => whileLoadingModels([model], () => context.runInWorker('llmAnalyseChunk', {
      model: { modelPath: options.modelPath, gpu }, contextSize, threads, ...request,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    })),
  };
}

/** The site's chat server as a {@link ChunkGenerator}; its model name is the producer's model. */
export function serverChunkGenerator(server: ChatServerOptions): ChunkGenerator {
  return { modelName: server.modelName, generate: (request, context) => requestChatCompletion(server, request, context.signal) };
}

/** How a transcript is cut and answered, whoever answers. */
interface ChunkSettings {
  contextSize: number;
  maxOutputTokens: number;
  limits: GenerationLimits;
}

function chunkSettingsOf(options: Pick<LlmAnalyserOptions, 'contextSize' | 'maxOutputTokens' | 'limits'>): ChunkSettings {
  const contextSize = options.contextSize ?? 4096;
  const maxOutputTokens = options.maxOutputTokens ?? Math.min(2048, Math.floor(contextSize * 0.4));
  if (maxOutputTokens >= contextSize) throw new RangeError(`maxOutputTokens (${maxOutputTokens}) must be below contextSize (${contextSize})`);
  return { contextSize, maxOutputTokens, limits: { ...defaultGenerationLimits, ...options.limits } };
}

/** Answers one chunk's prompts under its schema: the local model on the worker pool, or the site's chat server. */
export interface ChunkGenerator {
  /** Recorded as the analysis producer's `model` (a file or model name, never a path). */
  modelName: string;
  /** Checks before the first chunk that the model can be used (the local file is there and intact). */
  prepare?: () => Promise<void>;
  generate(request: ChatRequest, context: StageContext): Promise<LlmGeneration>;
}

interface Line {
  segment: Segment;
  text: string;
}

async function analyse(input: AnalysisInput, context: StageContext, settings: ChunkSettings, generator: ChunkGenerator): Promise<AnalyserResult> {
  await generator.prepare?.();
  const producer: AnalysisProducer = { analyser: 'llm', analyserVersion: llmAnalyserVersion, model: generator.modelName };
  const { segments, speakers } = input.transcript;
  if (segments.length === 0) return { analysis: withWarnings(emptyAnalysis(), ['The transcript has no speech to analyse.']), producer };

  const systemPrompt = analysisSystemPrompt(settings.limits);
  const lineBudget = settings.contextSize - settings.maxOutputTokens - templateReserveTokens
    - estimateTokens(systemPrompt) - estimateTokens(chunkPrompt(input, [], { index: 99, count: 99 }));
  if (lineBudget < minimumLineBudget) throw contextTooSmall();
  const lines = segments.map((segment) => ({ segment, text: shorten(transcriptLine(segment), lineBudget * charsPerToken) }));
  const pending = chunkTranscript(lines, (line) => estimateTokens(line.text), lineBudget);
  const speakerIds = speakers.map((speaker) => speaker.speakerId);

  const answers: ChunkAnswer[] = [];
  while (pending.length > 0) {
    context.signal.throwIfAborted();
    const chunk = pending.shift()!;
    const part: PromptPart = { index: answers.length + 1, count: answers.length + 1 + pending.length };
    const generation = await generator.generate({
      systemPrompt,
      userPrompt: chunkPrompt(input, chunk.map((line) => line.text), part),
      schema: analysisGenerationSchema({ segmentIds: chunk.map((line) => line.segment.id), speakerIds }, settings.limits),
      maxOutputTokens: settings.maxOutputTokens,
    }, context);
    if (generation.kind === 'too_long') {
      pending.unshift(...splitChunk(chunk));
      continue;
    }
    answers.push(readChunkAnswer(generation.text, generation.cutOff, speakers, part.count > 1 ? `part ${part.index} of ${part.count}` : 'the call'));
    context.reportProgress(answers.length / (answers.length + pending.length));
  }

  const merged = mergeChunkAnalyses(answers.map((answer) => answer.analysis));
  return { analysis: checked(withWarnings(merged, answers.flatMap((answer) => answer.warnings))), producer };
}

/** A chunk the worker found too long for the context: its halves, or its one line cut to half. */
function splitChunk(chunk: readonly Line[]): Line[][] {
  if (chunk.length > 1) {
    const middle = Math.ceil(chunk.length / 2);
    return [chunk.slice(0, middle), chunk.slice(middle)];
  }
  const [line] = chunk;
  // Even a near-empty line does not fit: the instructions alone fill the context.
  if (!line || line.text.length < 2 * minimumLineBudget) throw contextTooSmall();
  return [[{ segment: line.segment, text: shorten(line.text, Math.floor(line.text.length / 2)) }]];
}

/** The final gate: the merged analysis validated against AnalysisSchema (repaired once more, or left empty, should it fail). */
function checked(analysis: Analysis): Analysis {
  if (Value.Check(AnalysisSchema, analysis)) return analysis;
  const repaired = fitToSchema(AnalysisSchema as unknown as JsonSchema, analysis) as Analysis | undefined;
  const note = 'The merged analysis did not validate and was repaired.';
  return repaired ? withWarnings(repaired, [note]) : withWarnings(emptyAnalysis(), [note]);
}

function withWarnings(analysis: Analysis, warnings: readonly string[]): Analysis {
  return { ...analysis, qualityWarnings: [...new Set([...analysis.qualityWarnings, ...warnings])] };
}


function contextTooSmall(): StageFailure {
  return new StageFailure('unavailable', 'The language model\'s context window is too small to analyse this call.');
}
