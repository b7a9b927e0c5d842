import { actionIntents, type Analysis, type AnalysisActionItem, type AnalysisProducer } from '../../../domain/analysis/analysisSchema.js';
import type { Segment } from '../../../domain/transcripts/transcriptSchema.js';
import type { StageContext } from '../../StageContext.js';
import type { Analyser, AnalyserResult, AnalysisInput } from '../Analyser.js';
import { createBuiltinAnalyser } from '../builtin/builtinAnalyser.js';
import type { ChatRequest } from '../llm/chatCompletion.js';
import { parseJson } from '../llm/readChunkAnswer.js';
import { charsPerToken, shorten } from '../llm/textBudget.js';
import { localChunkGenerator, serverChunkGenerator, type ChunkGenerator, type LlmAnalyserOptions, type ServerLlmAnalyserOptions } from '../llm/createLlmAnalyser.js';
import { headlineGbnf, headlineJsonSchema, headlineVocabulary, headlineWords } from './headlineGrammar.js';
import {
  headlineOutputTokens, headlinePrompt, headlineSystemPrompt, itemCheckOutputTokens, itemCheckPrompt, itemCheckSchema, itemCheckSystemPrompt, plainLine,
  type ItemCheck,
} from './hybridPrompts.js';

/** Bumped when the hybrid analyser's output changes for the same input and model. */
export const hybridAnalyserVersion = '1';

/**
 * What the model decides: `actions`, which of the rules' action items are real; `intents`, the
 * intent of each it keeps; `headline`, the title and one-line summary. What it does not decide
 * stays the rules'.
 */
export type HybridDecision = 'actions' | 'intents' | 'headline';
export const hybridDecisions: readonly HybridDecision[] = ['actions', 'intents', 'headline'];

/**
 * What the model decides unless told otherwise: everything the hybrid offers it, what a model
 * worth running is for. With the two small models every decision measured worse than the rules
 * on the unseen sets (BENCHMARKS.md, eval:analysis), so `ANALYSER=auto` runs the rules; a site
 * that asks for the hybrid brings a larger model.
 */
export const defaultHybridDecisions: readonly HybridDecision[] = hybridDecisions;

interface HybridSettings {
  /** See {@link HybridDecision}. Defaults to {@link defaultHybridDecisions}. */
  decides?: readonly HybridDecision[];
}

/** Options of the hybrid analyser: the local model's (`LLM_PROVIDER=local`). */
export type HybridAnalyserOptions = Pick<LlmAnalyserOptions, 'modelPath' | 'contextSize' | 'gpu' | 'threads' | 'timeoutMs'> & HybridSettings;

/** The rules' action items the model checks, at most: a long call's tail keeps the rules' verdict (and a warning). */
const maxCheckedItems = 20;
/** Transcript lines either side of an item's own lines that the model reads with it. */
const excerptContext = 1;
/** Longest line the model reads, characters: a monologue is cut (its start carries the subject). */
const maxLineCharacters = 400;
/** Tokens kept for the chat template and the prompts' own words. */
const promptReserveTokens = 320;

/**
 * The hybrid analyser (`ANALYSER=hybrid`): the rules do what they measure well and the model
 * what they do badly. The built-in analyser reads the call first: its dates, times, amounts,
 * owners and action-item candidates (with their facts) stand. The model then answers two kinds
 * of short question under a grammar (hybridPrompts.ts), each shown the rules' proposal to keep
 * or correct (blind questions measured worse for both small models, BENCHMARKS.md):
 * - each candidate action item: is it a real action, and its intent (rejected ones are dropped;
 *   a changed intent drops the rules' intent details, which belonged to the other intent);
 * - the call's title and one-line summary as a person writes them, the rules' as a draft, in
 *   words restricted to plain English and the call's own names and numbers ({@link headlineGbnf}).
 * Every other field is the rules'. An answer that does not parse, or a question too long for
 * the context, keeps the rules' version of that part (with a warning); a long call's headline
 * is written from the rules' digest of it instead of its lines, so the analysis's cost and
 * memory stay bounded by the number of items, not the call's length.
 */
export function createHybridAnalyser(options: HybridAnalyserOptions): Analyser {
  const contextSize = options.contextSize ?? 4096;
  return hybridAnalyser(localChunkGenerator(options, contextSize), contextSize, options.decides ?? defaultHybridDecisions);
}

/** The same analyser with the site's chat server answering (`LLM_PROVIDER=openai`). */
export function createServerHybridAnalyser(options: Pick<ServerLlmAnalyserOptions, 'contextSize' | 'server'> & HybridSettings): Analyser {
  return hybridAnalyser(serverChunkGenerator(options.server), options.contextSize ?? 4096, options.decides ?? defaultHybridDecisions);
}

function hybridAnalyser(generator: ChunkGenerator, contextSize: number, decides: readonly HybridDecision[]): Analyser {
  const rules = createBuiltinAnalyser();
  const checksItems = decides.includes('actions') || decides.includes('intents');
  return {
    async analyse(input, context): Promise<AnalyserResult> {
      await generator.prepare?.();
      const producer: AnalysisProducer = { analyser: 'hybrid', analyserVersion: hybridAnalyserVersion, model: generator.modelName };
      const { analysis: proposed } = await rules.analyse(input, context);
      if (input.transcript.segments.length === 0) return { analysis: proposed, producer };
      const ask = (request: ChatRequest) => {
        context.signal.throwIfAborted();
        return generator.generate(request, context);
      };
      const warnings: string[] = [];
      const candidates = checksItems ? proposed.actionItems ?? [] : [];
      const steps = Math.min(candidates.length, maxCheckedItems) + 1;
      const actionItems: AnalysisActionItem[] = checksItems ? [] : [...proposed.actionItems ?? []];
      for (const [index, item] of candidates.entries()) {
        if (index >= maxCheckedItems) {
          actionItems.push(item);
          continue;
        }
        const checked = await checkItem(item, input, ask);
        if (checked === undefined) warnings.push('The language model gave no usable verdict on an action item: the rules\' item was kept.');
        const kept = checked?.isAction !== false || !decides.includes('actions');
        if (kept) actionItems.push(checked && decides.includes('intents') ? withIntent(item, checked.intent) : item);
        context.reportProgress((index + 1) / steps);
      }
      if (candidates.length > maxCheckedItems) warnings.push(`The language model checked the first ${maxCheckedItems} action items; the rules' others were kept.`);

      const headline = decides.includes('headline') ? await writeHeadline(input, proposed, contextSize, ask) : undefined;
      if (decides.includes('headline') && headline === undefined) warnings.push('The language model wrote no usable headline: the rules\' title and summary were kept.');
      context.reportProgress(1);
      const analysis: Analysis = {
        ...proposed,
        ...(headline ? { suggestedTitle: headline.title, oneLineSummary: headline.summary } : {}),
        actionItems: proposed.actionItems === null && actionItems.length === 0 ? null : actionItems,
        qualityWarnings: [...new Set([...proposed.qualityWarnings, ...warnings])],
      };
      return { analysis, producer };
    },
  };
}

type Ask = (request: ChatRequest) => ReturnType<ChunkGenerator['generate']>;

/** The model's verdict on one rules' item, or undefined when it gave none that parses. */
async function checkItem(item: AnalysisActionItem, input: AnalysisInput, ask: Ask): Promise<ItemCheck | undefined> {
  const owner = input.transcript.speakers.find((speaker) => speaker.speakerId === item.ownerSpeakerId);
  const generation = await ask({
    systemPrompt: itemCheckSystemPrompt,
    userPrompt: itemCheckPrompt(item, excerptOf(item, input.transcript.segments), owner ? owner.displayName || owner.label : null),
    schema: itemCheckSchema,
    maxOutputTokens: itemCheckOutputTokens,
  });
  if (generation.kind !== 'answered' || generation.cutOff) return undefined;
  const answer = parseObject(generation.text);
  if (typeof answer?.isAction !== 'boolean' || !actionIntents.includes(answer.intent as AnalysisActionItem['intent'])) return undefined;
  return { isAction: answer.isAction, intent: answer.intent as AnalysisActionItem['intent'] };
}

/** The item with the model's intent; the rules' intent details only when the intent is theirs. */
function withIntent(item: AnalysisActionItem, intent: AnalysisActionItem['intent']): AnalysisActionItem {
  return intent === item.intent ? item : { ...item, intent, intentMetadata: {} };
}

/** The item's cited lines and {@link excerptContext} lines either side, in call order, shortened. */
function excerptOf(item: AnalysisActionItem, segments: readonly Segment[]): Segment[] {
  const cited = new Set(item.sourceSegmentIds);
  const wanted = new Set<number>();
  segments.forEach((segment, index) => {
    if (!cited.has(segment.id)) return;
    for (let near = index - excerptContext; near <= index + excerptContext; near += 1) if (near >= 0 && near < segments.length) wanted.add(near);
  });
  return [...wanted].sort((first, second) => first - second).map((index) => shortened(segments[index]!));
}

/**
 * The model's title and one-line summary, or undefined when it wrote none usable (a title of
 * fewer than two words, a summary of fewer than four). The call's lines when they fit the
 * context, else the rules' digest.
 */
async function writeHeadline(input: AnalysisInput, proposed: Analysis, contextSize: number, ask: Ask): Promise<{ title: string; summary: string } | undefined> {
  const participants = input.transcript.speakers.map((speaker) => speaker.displayName || speaker.label);
  const lines = input.transcript.segments.map(shortened);
  const budget = (contextSize - headlineOutputTokens - promptReserveTokens) * charsPerToken - headlineSystemPrompt.length;
  const fits = lines.reduce((total, line) => total + plainLine(line).length + 1, 0) <= budget;
  const digest = [
    ...(proposed.keyDiscussionPoints ?? []).map((point) => point.text),
    ...(proposed.actionItems ?? []).map((item) => `To do: ${item.title}`),
  ];
  const vocabulary = headlineVocabulary(ownWordsOf(input, proposed));
  const generation = await ask({
    systemPrompt: headlineSystemPrompt,
    userPrompt: headlinePrompt(participants, fits ? { lines } : { digest: fitted(digest, budget) }, { title: proposed.suggestedTitle, summary: proposed.oneLineSummary }),
    schema: headlineJsonSchema(vocabulary),
    gbnf: headlineGbnf(vocabulary),
    maxOutputTokens: headlineOutputTokens,
  });
  if (generation.kind !== 'answered' || generation.cutOff) return undefined;
  const answer = parseObject(generation.text);
  const title = typeof answer?.title === 'string' ? answer.title.trim() : '';
  const summary = typeof answer?.summary === 'string' ? answer.summary.trim() : '';
  if (wordCount(title) < 2 || wordCount(summary) < 4 || wordCount(title) > headlineWords.title || wordCount(summary) > headlineWords.summary) return undefined;
  return { title, summary };
}

/**
 * The call's own names and numbers (see headlineGrammar.ts): capitalised words and numbers of
 * the transcript, the speakers' names, the upload's contact and organisation, and from the rules'
 * facts the weekday, day and month of each date they resolved, its time, and each amount as said.
 */
function* ownWordsOf(input: AnalysisInput, proposed: Analysis): Iterable<string> {
  const { metadata, transcript } = input;
  for (const text of [metadata.contactName, metadata.organization, ...transcript.speakers.map((speaker) => speaker.displayName)]) {
    if (text) yield* text.split(/\s+/u);
  }
  for (const segment of transcript.segments) {
    for (const word of segment.text.split(/\s+/u)) if (/[\p{Lu}\p{N}]/u.test(word)) yield word.replace(/^[^\p{L}\p{N}£$€]+|[^\p{L}\p{N}%]+$/gu, '');
  }
  for (const found of proposed.importantDates ?? []) {
    if (found.date) {
      const at = new Date(`${found.date}T12:00:00Z`);
      yield at.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
      yield String(at.getUTCDate());
      yield at.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' });
    }
    if (found.time) yield found.time;
  }
  for (const amount of proposed.numbersAndAmounts ?? []) yield* amount.text.split(/\s+/u).filter((word) => /\p{N}/u.test(word));
}

/** The digest's first lines that fit `budget` characters. */
function fitted(digest: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of digest) {
    used += line.length + 3;
    if (used > budget) break;
    kept.push(line);
  }
  return kept;
}

function shortened(segment: Segment): Segment {
  return { ...segment, text: shorten(segment.text, maxLineCharacters) };
}

function wordCount(text: string): number {
  return text.split(/\s+/u).filter(Boolean).length;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const value = parseJson(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}
