import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { AnalysisSchema, type Analysis } from '../../../../src/domain/analysis/analysisSchema.js';
import { mergeChunkAnalyses } from '../../../../src/pipeline/analysis/llm/mergeChunkAnalyses.js';
import { readChunkAnswer } from '../../../../src/pipeline/analysis/llm/readChunkAnswer.js';
import { callInput, sampleAnswer } from './llmTestCalls.js';

const { speakers } = callInput().transcript;
const segmentId = (number: number) => `seg_${String(number).padStart(4, '0')}`;

/** A chunk's analysis as the analyser reads it: the sample answer, its citations moved `offset` segments on, with `changes`. */
function chunk(offset: number, changes: Record<string, unknown> = {}): Analysis {
  const shifted = JSON.stringify(sampleAnswer).replace(/seg_(\d{4})/g, (_, number: string) => segmentId(Number(number) + offset));
  const { analysis } = readChunkAnswer(JSON.stringify({ ...JSON.parse(shifted), ...changes }), false, speakers, 'test');
  return analysis;
}

const points = (first: number, count: number) => Array.from({ length: count }, (_, index) => ({
  text: `Point ${first + index}`, topic: 'topic', phase: 'middle', speakerId: 'spk_0', sourceSegmentIds: [segmentId(first + index)],
}));
const firstCitations = (items: ReadonlyArray<{ sourceSegmentIds: string[] }>) => items.map((item) => item.sourceSegmentIds[0]!);

describe('mergeChunkAnalyses', () => {
  test('gives a single chunk\'s analysis back unchanged', () => {
    const only = chunk(0);
    expect(mergeChunkAnalyses([only])).toEqual(only);
  });

  test('keeps key points chronological and within maxItems, spread over the whole call', () => {
    // Given out of order within a chunk; 45 in all, the schema allows 30.
    const chunks = [0, 15, 30].map((first) => chunk(first, { keyDiscussionPoints: points(first + 1, 15).reverse() }));
    const merged = mergeChunkAnalyses(chunks);
    expect(Value.Check(AnalysisSchema, merged)).toBe(true);
    const cited = firstCitations(merged.keyDiscussionPoints!);
    expect(cited).toHaveLength(30);
    expect(cited).toEqual([...cited].sort());
    expect(cited[0]).toBe('seg_0001');
    expect(cited.at(-1)! > 'seg_0040').toBe(true);
  });

  test('caps every list at the schema\'s maxItems', () => {
    const items = (first: number) => Array.from({ length: 12 }, (_, index) => ({ ...sampleAnswer.actionItems[0], title: `Task ${first + index}`, sourceSegmentIds: [segmentId(first + index)] }));
    const merged = mergeChunkAnalyses([0, 12, 24].map((first) => chunk(first, { actionItems: items(first + 1) })));
    expect(merged.actionItems).toHaveLength(30);
    expect(Value.Check(AnalysisSchema, merged)).toBe(true);
  });

  test('merges duplicates across chunks, uniting their citations', () => {
    const merged = mergeChunkAnalyses([chunk(0), chunk(5), chunk(10)]);
    expect(merged.actionItems!.map((item) => item.title)).toEqual(sampleAnswer.actionItems.map((item) => item.title));
    expect(merged.actionItems![0]!.sourceSegmentIds).toEqual(['seg_0003', 'seg_0008', 'seg_0013']);
    expect(merged.sections).toHaveLength(1);
    expect(merged.tags).toEqual(sampleAnswer.tags);
  });

  test('keeps the most important summary bullets, at most 7, in call order', () => {
    const merged = mergeChunkAnalyses([0, 5, 10].map((offset) => chunk(offset, {
      executiveSummaryBullets: sampleAnswer.executiveSummaryBullets.map((bullet) => ({ ...bullet, text: `${bullet.text} (${offset})` })),
    })));
    const bullets = merged.executiveSummaryBullets!;
    expect(bullets).toHaveLength(7);
    expect(bullets.filter((bullet) => bullet.importance === 'high')).toHaveLength(6);
    expect(firstCitations(bullets)).toEqual([...firstCitations(bullets)].sort());
  });

  test('picks the headline fields by rule: most frequent call type, first title, last outcome, summaries joined within length', () => {
    const long = `${'A sentence about the call. '.repeat(44).trim()}`;
    const merged = mergeChunkAnalyses([
      chunk(0, { callType: 'sales', conversationOutcome: 'follow_up_needed', executiveSummary: long }),
      chunk(5, { callType: 'scheduling', suggestedTitle: 'Second title', conversationOutcome: 'agreement', executiveSummary: long }),
      chunk(10, { callType: 'scheduling', suggestedTitle: null, conversationOutcome: null, executiveSummary: long }),
    ]);
    expect(merged).toMatchObject({ callType: 'scheduling', suggestedTitle: sampleAnswer.suggestedTitle, conversationOutcome: 'agreement' });
    expect(merged.executiveSummary!.length).toBeLessThanOrEqual(3000);
    expect(merged.executiveSummary!.length).toBeGreaterThan(2 * long.length);
    expect(merged.executiveSummary!.endsWith('.')).toBe(true);
  });

  test('combines sentiment: positive with negative is mixed, scores averaged, lists within their bounds', () => {
    const negative = { ...sampleAnswer.sentiment, overall: 'negative', score: -0.3, emotionalSignals: ['tense', 'annoyed', 'rushed', 'curt', 'tired'] };
    const merged = mergeChunkAnalyses([chunk(0), chunk(5, { sentiment: negative }), chunk(10)]);
    expect(merged.sentiment).toMatchObject({ overall: 'mixed', score: 0.23 });
    expect(merged.sentiment!.progression).toHaveLength(4);
    expect(merged.sentiment!.emotionalSignals).toHaveLength(6);
    expect(merged.sentiment!.emotionalSignals[0]).toBe('cooperative');
    expect(Value.Check(AnalysisSchema, merged)).toBe(true);
  });

  test('leaves a list null only when no chunk produced it', () => {
    const merged = mergeChunkAnalyses([chunk(0, { risks: null, opportunities: null }), chunk(5, { opportunities: null })]);
    expect(merged.opportunities).toBeNull();
    expect(merged.risks).toHaveLength(1);
  });
});
