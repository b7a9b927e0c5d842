import { describe, expect, test } from 'vitest';
import { headlineGbnf, headlineJsonSchema, headlineVocabulary } from '../../../../src/pipeline/analysis/hybrid/headlineGrammar.js';

describe('the hybrid headline\'s words', () => {
  test('the call\'s own words are its names and numbers: capitalised or with digits, one word each, nothing that could break a grammar', () => {
    const vocabulary = headlineVocabulary(['Bev', 'Bev', 'nurse', '24', '09:30', '£45.50', 'Okafor.', 'Dr.', 'say "hi"', 'back\\slash', 'x'.repeat(41), 'Tuesday,']);
    expect(vocabulary.words).toEqual(['09:30', '24', 'Bev', 'Dr', 'Okafor', 'Tuesday', '£45.50']);
  });

  test('the JSON Schema and the GBNF grammar say the same: plain words, a capital only first, the call\'s own names and numbers', () => {
    const vocabulary = headlineVocabulary(['Bev', 'Tuesday', '24']);
    const schema = headlineJsonSchema(vocabulary) as { properties: Record<string, { pattern: string }> };
    const title = new RegExp(schema.properties.title!.pattern);
    const summary = new RegExp(schema.properties.summary!.pattern);
    expect(title.test('Blood test booked with Bev for Tuesday 24')).toBe(true);
    expect(title.test('Blood test booked with Sandra')).toBe(false);
    expect(title.test('Blood test on the 25')).toBe(false);
    expect(title.test('blood test')).toBe(true);
    expect(title.test('Test')).toBe(true);
    expect(title.test(`Test${' word'.repeat(10)}`)).toBe(false);
    expect(summary.test('Bev booked the blood test, for Tuesday 24.')).toBe(true);
    const grammar = headlineGbnf(vocabulary);
    expect(grammar).toContain('own ::= "24" | "Bev" | "Tuesday"');
    expect(grammar).toMatch(/^root ::= "\{\\"title\\": \\"" title/);
  });
});
