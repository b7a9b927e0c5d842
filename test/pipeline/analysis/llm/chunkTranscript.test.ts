import { describe, expect, test } from 'vitest';
import { transcriptLine } from '../../../../src/pipeline/analysis/llm/analysisPrompt.js';
import { chunkTranscript } from '../../../../src/pipeline/analysis/llm/chunkTranscript.js';
import { longCallInput } from './llmTestCalls.js';

const tokens = (text: string) => Math.ceil(text.length / 3);
const costOf = (lines: readonly string[]) => lines.reduce((sum, line) => sum + tokens(line), 0);

describe('chunkTranscript', () => {
  const lines = longCallInput(12).transcript.segments.map(transcriptLine);
  const total = costOf(lines);

  test('splits a long transcript into in-order chunks within the budget, each line exactly once', () => {
    const budget = 400;
    const chunks = chunkTranscript(lines, tokens, budget);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.flat()).toEqual(lines);
    for (const chunk of chunks) expect(costOf(chunk)).toBeLessThanOrEqual(budget);
  });

  test('balances the chunks: as few as the budget allows, of about equal size', () => {
    const budget = 700;
    const chunks = chunkTranscript(lines, tokens, budget);
    expect(chunks).toHaveLength(Math.ceil(total / budget));
    const costs = chunks.map(costOf);
    const longestLine = Math.max(...lines.map(tokens));
    expect(Math.max(...costs) - Math.min(...costs)).toBeLessThanOrEqual(2 * longestLine);
  });

  test('keeps a short transcript whole and gives an over-long line a chunk of its own', () => {
    expect(chunkTranscript(lines, tokens, total)).toEqual([lines]);
    expect(chunkTranscript(['a', 'b'.repeat(30), 'c'], (line) => line.length, 10)).toEqual([['a'], ['b'.repeat(30)], ['c']]);
    expect(chunkTranscript([], tokens, 100)).toEqual([]);
  });
});
