import {
  AnalysisSchema, SectionSchema, SentimentSchema, importanceLevels, type Analysis,
} from '../../../domain/analysis/analysisSchema.js';
import { emptyAnalysis } from './readChunkAnswer.js';

type Sentiment = NonNullable<Analysis['sentiment']>;
type PartySentiment = NonNullable<Sentiment['userSentiment']>;
type SentimentLabel = Sentiment['overall'];
/** Longest `notes` of userSentiment and contactSentiment. */
const partyNotesLength = maxLengthOf(
  (SentimentSchema.properties.userSentiment as unknown as { anyOf: Array<{ properties?: { notes?: unknown } }> }).anyOf[0]?.properties?.notes,
);
type ListField = {
  [Field in keyof Analysis]: NonNullable<Analysis[Field]> extends ReadonlyArray<{ sourceSegmentIds: string[] }> ? Field : never;
}[keyof Analysis];
interface Cited { sourceSegmentIds: string[] }

/**
 * One analysis of the whole call from the analyses of its chunks (given in transcript order).
 * Deterministic, no further generation:
 * - lists: concatenated, duplicates (same text, ignoring case and punctuation) merged with their
 *   citations united, ordered by first cited segment (chronological), and cut to AnalysisSchema's
 *   maxItems by keeping an evenly spread selection, so the whole call stays covered; summary
 *   bullets keep the most important ones instead; sections with the same title are joined;
 * - `callType`: the most frequent; `suggestedTitle`: the first; `oneLineSummary` and `tone`: from
 *   the chunk citing the most segments (the most substantive); `conversationOutcome`: the last
 *   (a call's outcome is settled at its end); `executiveSummary`: the chunks' summaries in order,
 *   cut at a sentence end to the schema's length;
 * - sentiment: labels combined (positive with negative is `mixed`; any other disagreement is
 *   `neutral`, the smaller magnitude), scores averaged, progression spread over at most 4 items;
 * - tags and emotional signals: united, most frequent first, cut to the schema's maxItems.
 * A list is null only when every chunk's is null. A single chunk comes back with only its
 * duplicates merged.
 */
export function mergeChunkAnalyses(chunks: readonly Analysis[]): Analysis {
  if (chunks.length === 0) return emptyAnalysis();
  const substantive = mostCiting(chunks);
  return {
    schemaVersion: 2,
    callType: mostFrequent(chunks.map((chunk) => chunk.callType)),
    suggestedTitle: chunks.map((chunk) => chunk.suggestedTitle).find((title) => title !== null) ?? null,
    oneLineSummary: substantive.oneLineSummary ?? chunks.map((chunk) => chunk.oneLineSummary).find((line) => line !== null) ?? null,
    conversationOutcome: chunks.map((chunk) => chunk.conversationOutcome).findLast((outcome) => outcome !== null) ?? null,
    executiveSummary: joinTexts(chunks.map((chunk) => chunk.executiveSummary), maxLengthOf(AnalysisSchema.properties.executiveSummary)),
    executiveSummaryBullets: mapList(chunks, 'executiveSummaryBullets', (bullets) => {
      const ranked = dedupe(bullets, (bullet) => bullet.text)
        .sort((first, second) => importanceLevels.indexOf(first.importance) - importanceLevels.indexOf(second.importance));
      return ranked.slice(0, maxItemsOf('executiveSummaryBullets')).sort(byFirstCitation);
    }),
    sections: mapList(chunks, 'sections', (sections) => mergeSections(sections).slice(0, maxItemsOf('sections'))),
    keyDiscussionPoints: mergedList(chunks, 'keyDiscussionPoints', (point) => point.text),
    actionItems: mergedList(chunks, 'actionItems', (item) => item.title),
    followUps: mergedList(chunks, 'followUps', (followUp) => followUp.text),
    importantDates: mergedList(chunks, 'importantDates', (date) => `${date.date ?? ''} ${date.text}`),
    decisions: mergedList(chunks, 'decisions', (decision) => decision.text),
    commitments: mergedList(chunks, 'commitments', (commitment) => commitment.text),
    openQuestions: mergedList(chunks, 'openQuestions', (question) => question.text),
    risks: mergedList(chunks, 'risks', (risk) => risk.text),
    opportunities: mergedList(chunks, 'opportunities', (opportunity) => opportunity.text),
    peopleMentioned: mergedList(chunks, 'peopleMentioned', (person) => person.name),
    numbersAndAmounts: mergedList(chunks, 'numbersAndAmounts', (amount) => amount.text),
    sentiment: mergeSentiments(chunks.flatMap((chunk) => (chunk.sentiment ? [chunk.sentiment] : []))),
    tone: substantive.tone ?? chunks.map((chunk) => chunk.tone).find((tone) => tone !== null) ?? null,
    tags: unite(chunks.map((chunk) => chunk.tags), maxItemsOf('tags')),
    qualityWarnings: [...new Set(chunks.flatMap((chunk) => chunk.qualityWarnings))],
  };
}

type ListItem<Field extends ListField> = NonNullable<Analysis[Field]>[number];

/** The chunks' lists under `field` combined by `combine`, or null when no chunk has the list. */
function mapList<Field extends ListField>(
  chunks: readonly Analysis[], field: Field, combine: (items: ListItem<Field>[]) => ListItem<Field>[],
): ListItem<Field>[] | null {
  const lists = chunks.map((chunk) => chunk[field] as ListItem<Field>[] | null).filter((list) => list !== null);
  return lists.length === 0 ? null : combine(lists.flat());
}

/** A fact list: duplicates merged, chronological, spread to the schema's maxItems. */
function mergedList<Field extends ListField>(chunks: readonly Analysis[], field: Field, text: (item: ListItem<Field>) => string): ListItem<Field>[] | null {
  return mapList(chunks, field, (items) => spread(dedupe(items, text).sort(byFirstCitation), maxItemsOf(field)));
}

/** The first of each group of items with the same normalised text, citing the segments of the whole group. */
function dedupe<Item extends Cited>(items: readonly Item[], text: (item: Item) => string): Item[] {
  const byKey = new Map<string, Item>();
  for (const item of items) {
    const key = normalise(text(item));
    const first = byKey.get(key);
    if (first) byKey.set(key, { ...first, sourceSegmentIds: uniteCitations(first.sourceSegmentIds, item.sourceSegmentIds) });
    else byKey.set(key, item);
  }
  return [...byKey.values()];
}

function mergeSections(sections: ReadonlyArray<ListItem<'sections'>>): ListItem<'sections'>[] {
  const byTitle = new Map<string, ListItem<'sections'>>();
  for (const section of sections) {
    const key = normalise(section.title);
    const first = byTitle.get(key);
    byTitle.set(key, first ? {
      title: first.title,
      content: joinTexts([first.content, section.content], maxLengthOf(SectionSchema.properties.content)) ?? '',
      sourceSegmentIds: uniteCitations(first.sourceSegmentIds, section.sourceSegmentIds),
    } : section);
  }
  return [...byTitle.values()];
}

function mergeSentiments(sentiments: readonly Sentiment[]): Sentiment | null {
  if (sentiments.length === 0) return null;
  const parties = (party: 'userSentiment' | 'contactSentiment'): PartySentiment | null => {
    const known = sentiments.flatMap((sentiment) => (sentiment[party] ? [sentiment[party]] : []));
    if (known.length === 0) return null;
    return {
      overall: combineLabels(known.map((item) => item.overall)),
      score: meanScore(known.map((item) => item.score)),
      notes: joinTexts(known.map((item) => item.notes), partyNotesLength) ?? '',
    };
  };
  const progression = sentiments.flatMap((sentiment) => sentiment.progression);
  return {
    overall: combineLabels(sentiments.map((sentiment) => sentiment.overall)),
    score: meanScore(sentiments.map((sentiment) => sentiment.score)),
    reason: joinTexts(sentiments.map((sentiment) => sentiment.reason), maxLengthOf(SentimentSchema.properties.reason)) ?? '',
    userSentiment: parties('userSentiment'),
    contactSentiment: parties('contactSentiment'),
    progression: spread(progression, maxItemsIn(SentimentSchema.properties.progression)),
    emotionalSignals: unite(sentiments.map((sentiment) => sentiment.emotionalSignals), maxItemsIn(SentimentSchema.properties.emotionalSignals)),
  };
}

function combineLabels(labels: readonly SentimentLabel[]): SentimentLabel {
  const known = new Set(labels.filter((label) => label !== 'unclear'));
  if (known.size === 0) return 'unclear';
  if (known.size === 1) return [...known][0]!;
  return known.has('mixed') || (known.has('positive') && known.has('negative')) ? 'mixed' : 'neutral';
}

function meanScore(scores: ReadonlyArray<number | null>): number | null {
  const known = scores.filter((score) => score !== null);
  if (known.length === 0) return null;
  return Math.round((known.reduce((sum, score) => sum + score, 0) / known.length) * 100) / 100;
}

/** The most frequent non-null value; ties go to the one seen first. */
function mostFrequent<Value>(values: ReadonlyArray<Value | null>): Value | null {
  const counts = new Map<Value, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: Value | null = null;
  for (const [value, count] of counts) if (best === null || count > counts.get(best)!) best = value;
  return best;
}

/** Strings of several lists united (ignoring case), most frequent first, at most `maxItems`. */
function unite(lists: ReadonlyArray<readonly string[]>, maxItems: number): string[] {
  const counts = new Map<string, { value: string; count: number }>();
  for (const value of lists.flat()) {
    const key = value.trim().toLowerCase();
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { value, count: 1 });
  }
  return [...counts.values()].sort((first, second) => second.count - first.count).slice(0, maxItems).map((entry) => entry.value);
}

/** At most `maxItems` items, evenly spread over the list (order kept). */
function spread<Item>(items: readonly Item[], maxItems: number): Item[] {
  if (items.length <= maxItems) return [...items];
  return Array.from({ length: maxItems }, (_, index) => items[Math.floor((index * items.length) / maxItems)]!);
}

/** The non-null texts joined; when too long, cut at the last sentence end that fits (else at `maxLength`). */
function joinTexts(texts: ReadonlyArray<string | null>, maxLength: number): string | null {
  const joined = texts.filter((text): text is string => text !== null && text.trim() !== '').map((text) => text.trim()).join(' ');
  if (joined === '') return texts.some((text) => text !== null) ? '' : null;
  if (joined.length <= maxLength) return joined;
  const head = joined.slice(0, maxLength);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  return sentenceEnd > 0 ? head.slice(0, sentenceEnd + 1) : head;
}

function mostCiting(chunks: readonly Analysis[]): Analysis {
  const citations = (chunk: Analysis) => Object.values(chunk).reduce<number>((sum, field) =>
    sum + (Array.isArray(field) ? field.reduce<number>((count, item: unknown) => count + citationsOf(item), 0) : 0), 0);
  return chunks.reduce((best, chunk) => (citations(chunk) > citations(best) ? chunk : best));
}

function citationsOf(item: unknown): number {
  const ids = typeof item === 'object' && item !== null ? (item as Partial<Cited>).sourceSegmentIds : undefined;
  return Array.isArray(ids) ? ids.length : 0;
}

function byFirstCitation(first: Cited, second: Cited): number {
  return firstCitation(first) - firstCitation(second);
}

/** The number of the earliest segment an item cites (`seg_0042` → 42); uncited items go last. */
function firstCitation(item: Cited): number {
  return Math.min(...item.sourceSegmentIds.map(segmentNumber), Number.POSITIVE_INFINITY);
}

function segmentNumber(segmentId: string): number {
  return Number(segmentId.slice('seg_'.length));
}

function uniteCitations(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second])].sort((a, b) => segmentNumber(a) - segmentNumber(b));
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function maxItemsOf(field: ListField | 'tags'): number {
  return maxItemsIn(AnalysisSchema.properties[field]);
}

/** maxItems of a list schema, or of the list variant of a nullable list. */
function maxItemsIn(schema: unknown): number {
  const list = schema as { maxItems?: number; anyOf?: Array<{ maxItems?: number }> };
  return list.maxItems ?? list.anyOf?.[0]?.maxItems ?? Number.POSITIVE_INFINITY;
}

function maxLengthOf(schema: unknown): number {
  const text = schema as { maxLength?: number; anyOf?: Array<{ maxLength?: number }> };
  return text.maxLength ?? text.anyOf?.[0]?.maxLength ?? Number.POSITIVE_INFINITY;
}
