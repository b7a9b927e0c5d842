import { Value } from 'typebox/value';
import { describe, expect, test } from 'vitest';
import { AnalysisSchema } from '../../../../src/domain/analysis/analysisSchema.js';
import { closeTruncatedJson } from '../../../../src/pipeline/analysis/llm/closeTruncatedJson.js';
import { readChunkAnswer } from '../../../../src/pipeline/analysis/llm/readChunkAnswer.js';
import { callInput, sampleAnswer } from './llmTestCalls.js';

const { speakers } = callInput().transcript;
const read = (answer: unknown, cutOff = false) => readChunkAnswer(typeof answer === 'string' ? answer : JSON.stringify(answer), cutOff, speakers, 'the call');

describe('readChunkAnswer', () => {
  test('turns a well-formed answer into a valid analysis, filling schema version and speaker names and roles from speakerId', () => {
    const { analysis, warnings } = read(sampleAnswer);
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(warnings).toEqual([]);
    expect(analysis).toMatchObject({ schemaVersion: 2, callType: 'scheduling', qualityWarnings: [], openQuestions: [] });
    expect(analysis.keyDiscussionPoints![1]).toMatchObject({ speakerId: 'spk_1', speakerLabel: 'Speaker 2', speakerDisplayName: 'Marco Ruiz', speakerRole: 'CONTACT' });
    expect(analysis.keyDiscussionPoints![2]).toMatchObject({ speakerId: null, speakerLabel: null, speakerDisplayName: null, speakerRole: null });
    expect(analysis.actionItems![0]).toMatchObject({ ownerSpeakerId: 'spk_0', ownerDisplayName: 'Dana Whitfield', ownerRole: 'USER' });
    // Null is how the generation schema says an optional field is absent.
    expect(analysis.actionItems![0]!.intentMetadata).toEqual({ toName: 'Marco Ruiz', subject: 'Signed purchase order' });
    expect(analysis.actionItems![1]!.intentMetadata.attendees).toEqual([{ name: 'Dana Whitfield' }, { name: 'Marco Ruiz' }]);
  });

  test('keeps what came before the cut of an answer that reached the output limit, and says so', () => {
    const json = JSON.stringify(sampleAnswer);
    const { analysis, warnings } = read(json.slice(0, json.indexOf('"followUps"') + 30), true);
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(analysis.actionItems).toHaveLength(2);
    expect(analysis.followUps).toEqual([]);
    expect(analysis.sentiment).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('reached the output limit')]);
  });

  test('repairs what is mechanical and drops the rest, with a warning', () => {
    const answer = {
      ...sampleAnswer,
      suggestedTitle: 'x'.repeat(500),
      callType: 'Scheduling',
      keyDiscussionPoints: [...sampleAnswer.keyDiscussionPoints, { ...sampleAnswer.keyDiscussionPoints[0], sourceSegmentIds: [] }],
      actionItems: [{ ...sampleAnswer.actionItems[0], ownerSpeakerId: 'spk_9', dueDate: 'next week' }, { title: 42 }],
      importantDates: [{ ...sampleAnswer.importantDates[1], time: '3pm' }],
      sentiment: { ...sampleAnswer.sentiment, score: 3 },
      invented: true,
    };
    const { analysis, warnings } = read(answer);
    expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
    expect(analysis.suggestedTitle).toHaveLength(120);
    expect(analysis.callType).toBe('scheduling');
    expect(analysis.keyDiscussionPoints).toHaveLength(3);
    expect(analysis.actionItems).toEqual([expect.objectContaining({ ownerSpeakerId: null, ownerDisplayName: null, dueDate: null })]);
    expect(analysis.importantDates![0]!.time).toBeNull();
    expect(analysis.sentiment!.score).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/^\d+ value\(s\) .* dropped or shortened\.$/)]);
  });

  test('never throws for nonsense: an answer that is not JSON leaves an empty analysis and a warning', () => {
    for (const nonsense of ['', 'I cannot help with that.', '[1, 2]', '{"callType": "sales", "tags": "oops"}']) {
      const { analysis, warnings } = read(nonsense);
      expect(Value.Check(AnalysisSchema, analysis)).toBe(true);
      if (nonsense.startsWith('{')) expect(analysis.tags).toEqual([]);
      else expect(warnings).toEqual([expect.stringContaining('not usable JSON')]);
    }
  });
});

describe('closeTruncatedJson', () => {
  test('cuts back to the last complete value and closes what is open, keeping no half-written object', () => {
    expect(closeTruncatedJson('{"a":1,"b":["x","y')).toBe('{"a":1,"b":["x"]}');
    expect(closeTruncatedJson('{"a":1,"b":[{"x":1},{"y":2,"z":')).toBe('{"a":1,"b":[{"x":1}]}');
    expect(closeTruncatedJson('{"a":1,"b":{"c":[1,2],"d":"un')).toBe('{"a":1}');
    expect(closeTruncatedJson('{"a":[],"b":[')).toBe('{"a":[],"b":[]}');
    expect(closeTruncatedJson('{"a":"text with , and ] inside')).toBe('{}');
    expect(closeTruncatedJson('{"a":"\\"q\\"","b":')).toBe('{"a":"\\"q\\""}');
  });

  test('returns complete JSON from its first brace, and undefined without an object', () => {
    expect(closeTruncatedJson('  {"a":[1]}\n\n\n\n')).toBe('{"a":[1]}');
    expect(closeTruncatedJson('no json here')).toBeUndefined();
  });
});
