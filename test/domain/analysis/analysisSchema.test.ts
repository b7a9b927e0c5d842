import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value } from 'typebox/value';
import { expect, test } from 'vitest';
import { analysisJsonSchema } from '../../../src/domain/analysis/analysisJsonSchema.js';
import { AnalysisSchema } from '../../../src/domain/analysis/analysisSchema.js';
import { analysisV1Fixture, analysisV2Fixture } from '../../helpers/seedCalls.js';
import { emptyAnalysis } from '../../pipeline/analysis/analysisFixtures.js';

const committed = resolve(import.meta.dirname, '../../../docs/schemas/analysis-v2.schema.json');

test('the committed JSON Schema is generated from the TypeBox source (run `npm run schemas` after a change)', () => {
  expect(readFileSync(committed, 'utf8')).toBe(analysisJsonSchema());
});

test('the JSON Schema document is valid draft 2020-12 and agrees with TypeBox on valid and invalid analyses', () => {
  const ajv = new Ajv2020.default({ strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(committed, 'utf8')) as object);
  const valid = emptyAnalysis({ callType: 'sales', tags: ['contract'] });
  const invalid = { ...emptyAnalysis(), conversationOutcome: 'great' };
  expect([validate(valid), Value.Check(AnalysisSchema, valid)]).toEqual([true, true]);
  expect([validate(invalid), Value.Check(AnalysisSchema, invalid)]).toEqual([false, false]);
});

test('v2 additions are nullable, and a stored v1 analysis is not a v2 one (it is served as stored)', () => {
  const allNull = Object.fromEntries(Object.entries(emptyAnalysis()).map(([key, value]) => [key, Array.isArray(value) ? value : null]));
  expect(Value.Check(AnalysisSchema, { ...allNull, schemaVersion: 2 })).toBe(true);
  expect(Value.Check(AnalysisSchema, analysisV1Fixture())).toBe(false);
});

test('the test fixture used for stored v2 analyses is itself valid', () => {
  expect([...Value.Errors(AnalysisSchema, analysisV2Fixture())]).toEqual([]);
});
