import { getLlama, LlamaLogLevel, type GbnfJsonSchema } from 'node-llama-cpp';
import { describe, expect, test } from 'vitest';
import {
  analyserFilledProperties, analysisGenerationSchema, defaultGenerationLimits, type JsonSchema,
} from '../../../../src/pipeline/analysis/llm/generationSchema.js';
import { sampleAnswer } from './llmTestCalls.js';

const scope = { segmentIds: ['seg_0001', 'seg_0002', 'seg_0003', 'seg_0004', 'seg_0005'], speakerIds: ['spk_0', 'spk_1'] };

/** Every sub-schema with the property name it sits under. */
function* walk(schema: JsonSchema, name = ''): Generator<[string, JsonSchema]> {
  yield [name, schema];
  for (const [property, child] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) yield* walk(child, property);
  if (schema.items) yield* walk(schema.items as JsonSchema, name);
  for (const variant of (schema.oneOf ?? []) as JsonSchema[]) yield* walk(variant, name);
}

const property = (schema: JsonSchema, ...path: string[]): JsonSchema =>
  path.reduce((current, name) => {
    const list = current.type === 'array' ? (current.items as JsonSchema) : current;
    return (list.properties as Record<string, JsonSchema>)[name]!;
  }, schema);

describe('analysisGenerationSchema', () => {
  const schema = analysisGenerationSchema(scope);
  const nodes = [...walk(schema)];

  test('uses only what node-llama-cpp\'s JSON-schema grammar reads: no anyOf, patterns, $id, required or number bounds', () => {
    for (const [, node] of nodes) {
      for (const keyword of ['anyOf', 'pattern', '$id', 'required', 'minimum', 'maximum', 'title', 'description']) expect(node).not.toHaveProperty(keyword);
    }
  });

  test('keeps generation bounded: every free string has a maxLength (or a date format), every list a maxItems', () => {
    for (const [name, node] of nodes) {
      if (node.type === 'string') expect(typeof node.maxLength === 'number' || typeof node.format === 'string', name).toBe(true);
      if (node.type === 'array') expect(typeof node.maxItems, name).toBe('number');
    }
  });

  test('leaves out what the analyser fills itself (schema version, warnings, speaker names and roles)', () => {
    const names = new Set(nodes.map(([name]) => name));
    for (const filled of analyserFilledProperties) expect(names.has(filled), filled).toBe(false);
    expect(Object.keys(schema.properties as object)).toContain('keyDiscussionPoints');
  });

  test('lets the model cite only the chunk\'s segments and the call\'s speakers', () => {
    expect(property(schema, 'keyDiscussionPoints', 'sourceSegmentIds')).toEqual({ type: 'array', items: { enum: scope.segmentIds }, minItems: 1, maxItems: 4 });
    expect(property(schema, 'actionItems', 'ownerSpeakerId')).toEqual({ oneOf: [{ enum: scope.speakerIds }, { type: 'null' }] });
    expect(property(schema, 'importantDates', 'date')).toEqual({ oneOf: [{ type: 'string', format: 'date' }, { type: 'null' }] });
  });

  test('makes nullable lists plain lists and gives intent metadata one shape per intent, its optional fields nullable', () => {
    expect(property(schema, 'risks').type).toBe('array');
    const metadata = property(schema, 'actionItems', 'intentMetadata').oneOf as JsonSchema[];
    expect(metadata.map((variant) => Object.keys(variant.properties as object))).toContainEqual(['toEmail', 'toName', 'subject', 'bodyPreview']);
    expect(metadata.at(-1)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect((metadata[0]!.properties as Record<string, JsonSchema>).proposedAt).toEqual({ oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] });
  });

  test('tightens lengths and list sizes to the limits, never loosening the schema', () => {
    const tight = analysisGenerationSchema(scope, { maxTextLength: 20, maxProseLength: 50, maxListItems: 2, maxCitations: 1 });
    expect(property(tight, 'suggestedTitle')).toEqual({ oneOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }] });
    expect(property(tight, 'executiveSummary')).toEqual({ oneOf: [{ type: 'string', maxLength: 50 }, { type: 'null' }] });
    expect(property(tight, 'actionItems').maxItems).toBe(2);
    expect(property(tight, 'decisions', 'sourceSegmentIds').maxItems).toBe(1);
    // The schema's own bounds win when they are tighter than the limits.
    expect(property(schema, 'executiveSummaryBullets').maxItems).toBe(Math.min(7, defaultGenerationLimits.maxListItems));
    expect(property(schema, 'tags').items).toEqual({ type: 'string', maxLength: 40 });
  });

  test('writes null instead of an empty choice when the call has no speakers', () => {
    const noSpeakers = analysisGenerationSchema({ ...scope, speakerIds: [] });
    expect(property(noSpeakers, 'decisions', 'madeBySpeakerId')).toEqual({ oneOf: [{ type: 'null' }, { type: 'null' }] });
  });

  test('is accepted by node-llama-cpp as a JSON-schema grammar (real runtime), which parses a well-formed answer', async () => {
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
    try {
      const grammar = await llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema as GbnfJsonSchema);
      expect(grammar.grammar.length).toBeGreaterThan(1000);
      expect(grammar.parse(JSON.stringify(sampleAnswer))).toEqual(sampleAnswer);
    } finally {
      await llama.dispose();
    }
  });
});
