import { Type, type TSchema } from 'typebox';
import { describe, expect, test } from 'vitest';
import { AnalysisActionItemSchema, AnalysisSchema, type Analysis } from '../../../../src/domain/analysis/analysisSchema.js';
import { findViolations, groundAnalysis } from '../../../../src/pipeline/analysis/grounding/groundAnalysis.js';
import { buildGroundingCorpus } from '../../../../src/pipeline/analysis/grounding/groundingCorpus.js';
import { groundingRulesOf } from '../../../../src/pipeline/analysis/grounding/groundingRules.js';
import { contractCall, emptyAnalysis, recordedAt, timeZone } from '../analysisFixtures.js';

const corpus = buildGroundingCorpus(contractCall(), { contactName: 'Sheila Ross' }, recordedAt, timeZone);
/** Nobody in the call is Zelda, nothing cost $4,870, and 2031 is never spoken of. */
const invention = 'by Zelda, $4,870, 2031-05-09';

type SchemaNode = { readonly [keyword: string]: unknown };

/** Values the call supports for the patterned strings (ids, the recording's date, a time, a currency). */
const groundedByPattern: Record<string, string> = {
  '^seg_\\d{4,}$': 'seg_0001', '^spk_\\d+$': 'spk_0', '^\\d{4}-\\d{2}-\\d{2}$': '2026-03-04', '^\\d{2}:\\d{2}$': '10:00', '^[A-Z]{3}$': 'USD',
};

/** A value of `schema` with every property present and one item in every list: each unpatterned string is `text`, numbers are null. */
function everyField(schema: SchemaNode, text: string): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return everyField((schema.anyOf as SchemaNode[]).find((variant) => variant.type !== 'null')!, text);
  switch (schema.type) {
    case 'object': return Object.fromEntries(Object.entries(schema.properties as Record<string, SchemaNode>).map(([name, property]) => [name, everyField(property, text)]));
    case 'array': return [everyField(schema.items as SchemaNode, text)];
    case 'string': return typeof schema.pattern === 'string' ? groundedByPattern[schema.pattern] : text;
    default: return null;
  }
}

/** Every string of the schema that is neither patterned nor from a vocabulary, as a pointer with `*` for list indexes. */
function freeTextPaths(schema: SchemaNode, pointer = ''): string[] {
  if ('const' in schema || Array.isArray(schema.enum)) return [];
  if (Array.isArray(schema.anyOf)) return [...new Set((schema.anyOf as SchemaNode[]).flatMap((variant) => freeTextPaths(variant, pointer)))];
  if (schema.type === 'object') return Object.entries(schema.properties as Record<string, SchemaNode>).flatMap(([name, property]) => freeTextPaths(property, `${pointer}/${name}`));
  if (schema.type === 'array') return freeTextPaths(schema.items as SchemaNode, `${pointer}/*`);
  return schema.type === 'string' && typeof schema.pattern !== 'string' ? [pointer] : [];
}

const patternOf = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

describe('grounding checks every free text the schema has', () => {
  test('each free-text field of the analysis and its action items (emotional signals, tags, descriptors, topics, units, channels…) has its invention found', () => {
    const analysis = everyField(AnalysisSchema as unknown as SchemaNode, invention) as Analysis;
    const violated = new Set(findViolations(analysis, corpus).map((violation) => patternOf(violation.path)));
    // qualityWarnings are the service's own notes (how the analysis was made, what grounding removed), never a model's statement.
    const expected = freeTextPaths(AnalysisSchema as unknown as SchemaNode).filter((path) => path !== '/qualityWarnings/*');
    expect(expected).toEqual(expect.arrayContaining(['/sentiment/emotionalSignals/*', '/tags/*', '/tone/descriptors/*', '/actionItems/*/intentMetadata/channel']));
    expect([...violated].sort()).toEqual(expected.sort());
  });

  test('a free-text field added to the schema is checked without any other change: in the analysis and in the action items', () => {
    const extended = Type.Object({
      ...AnalysisSchema.properties,
      moodSummary: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
      actionItems: Type.Union([Type.Array(Type.Object({ ...AnalysisActionItemSchema.properties, venueNotes: Type.String(), assigneeName: Type.String() })), Type.Null()]),
    });
    const rules = groundingRulesOf(extended);
    expect(rules.fields.get('/moodSummary')).toBe('text');
    expect(rules.fields.get('/actionItems/*/venueNotes')).toBe('text');
    expect(rules.fields.get('/actionItems/*/assigneeName')).toBe('name');

    const item = everyField(AnalysisActionItemSchema as unknown as SchemaNode, 'Send the signed copy to Sheila') as Record<string, unknown>;
    const analysis = {
      ...emptyAnalysis(),
      moodSummary: 'Both were relaxed. Sheila mentioned Zelda.',
      actionItems: [{ ...item, venueNotes: 'the usual room', assigneeName: 'Diane' }, { ...item, venueNotes: `booked ${invention}`, assigneeName: 'Diane' }],
    } as unknown as Analysis;
    const grounded = groundAnalysis(analysis, corpus, rules).analysis as unknown as { moodSummary: string; actionItems: { venueNotes: string }[] };
    expect(grounded.moodSummary).toBe('Both were relaxed.');
    expect(grounded.actionItems.map((kept) => kept.venueNotes)).toEqual(['the usual room']);
  });

  test('a pattern the rules do not know is refused when the schema is read (is it an id, a date or a code?)', () => {
    const withOrderNumber: TSchema = Type.Object({ orderNumber: Type.String({ pattern: '^ORD-\\d+$' }) });
    expect(() => groundingRulesOf(withOrderNumber)).toThrow('no rule for the pattern ^ORD-\\d+$ of /orderNumber');
  });

  test('a field whose keys are not named in the schema (a record) is refused when the schema is read, not left unchecked', () => {
    const withNotes: TSchema = Type.Object({ notesByTopic: Type.Record(Type.String(), Type.String()) });
    expect(() => groundingRulesOf(withNotes)).toThrow('no rule for the open object at /notesByTopic');
  });
});
