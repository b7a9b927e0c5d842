import { describe, expect, test } from 'vitest';
import { findGreetings, greetingPatterns, normalizeForMatching } from '../../../src/pipeline/speakers/greetingPatterns.js';

describe('normalizeForMatching', () => {
  test('lower-cases, removes accents and punctuation, keeps apostrophes inside words', () => {
    expect(normalizeForMatching("¡Hola, JOSÉ! I'm   here…")).toBe("hola jose i'm here");
  });
});

describe('findGreetings', () => {
  test.each([
    ['Hi, this is Diane.', 'SELF', 'diane'],
    ['Diane speaking.', 'SELF', 'diane'],
    ['My name is Diane', 'SELF', 'diane'],
    ['Diane here, hi!', 'SELF', 'diane'],
    ['Am I speaking with Sheila?', 'ADDRESS', 'sheila'],
    ['Hello Sheila.', 'ADDRESS', 'sheila'],
    ['Hola, soy Diane.', 'SELF', 'diane'],
    ['Le habla Diane.', 'SELF', 'diane'],
    ['Me llamo Diane.', 'SELF', 'diane'],
    ['¿Hablo con Sheila?', 'ADDRESS', 'sheila'],
    ['Buenos días, señora Jones.', 'ADDRESS', 'jones'],
    ['Hallo, hier ist Diane.', 'SELF', 'diane'],
    ['Diane am Apparat.', 'SELF', 'diane'],
    ['Mein Name ist Diane.', 'SELF', 'diane'],
    ['Spreche ich mit Sheila?', 'ADDRESS', 'sheila'],
    ['Guten Tag, Frau Jones.', 'ADDRESS', 'jones'],
  ] as const)('%s → %s %s', (text, kind, name) => {
    expect(findGreetings(text)).toContainEqual({ kind, name });
  });

  test('has tables for English, Spanish and German', () => {
    expect(Object.keys(greetingPatterns)).toEqual(expect.arrayContaining(['en', 'es', 'de']));
  });
});
