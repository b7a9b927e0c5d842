import { describe, expect, test } from 'vitest';
import {
  callerPatterns, findGreetings, greetingPatterns, normalizeForMatching, saysTheyPlacedTheCall, withoutSelfIntroductions,
} from '../../../src/pipeline/speakers/greetingPatterns.js';

describe('normalizeForMatching', () => {
  test('lower-cases, removes accents and punctuation, keeps apostrophes inside words', () => {
    expect(normalizeForMatching("¡Hola, JOSÉ! I'm   here…")).toBe("hola jose i'm here");
  });

  test('makes apostrophe look-alikes an apostrophe, drops one at a word\'s edge, and is idempotent', () => {
    const normalized = normalizeForMatching("Sheila’s, Robert‘s, Anaʼs and James' 'quote'");
    expect(normalized).toBe("sheila's robert's ana's and james quote");
    expect(normalizeForMatching(normalized)).toBe(normalized);
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
    ["You've reached Diane Smith, please leave a message.", 'SELF', 'diane'],
    // A possessive after the name is taken with it, so that "Robert" alone names nobody.
    ["This is Robert Miller's office.", 'SELF', "robert miller's"],
    ["Good morning, Robert Miller's office.", 'SELF', "robert miller's"],
    ["Good morning, Robert Miller's office.", 'ADDRESS', "robert miller's"],
    ["Robert's voicemail.", 'SELF', "robert's"],
  ] as const)('%s → %s %s', (text, kind, name) => {
    expect(findGreetings(text)).toContainEqual({ kind, name });
  });

  test.each([
    ['This is Diane Smith.', 'SELF', 'diane'],
    ["Hi, this is Diane, it's about the invoice.", 'SELF', 'diane'],
    ["Hi Sheila, how's it going?", 'ADDRESS', 'sheila'],
    ["Hello Sheila, that's me again.", 'ADDRESS', 'sheila'],
  ] as const)('a contraction or a surname after the name is not taken with it: %s → %s %s', (text, kind, name) => {
    expect(findGreetings(text)).toContainEqual({ kind, name });
  });

  test('has tables for English, Spanish and German', () => {
    expect(Object.keys(greetingPatterns)).toEqual(expect.arrayContaining(['en', 'es', 'de']));
  });
});

describe('withoutSelfIntroductions', () => {
  test.each([
    ['Hi Sheila, this is Diane again.', 'hi sheila this is again'],
    ['Diane here, is Sheila in?', 'here is sheila in'],
    ["It's Sheila Jones, I'm calling about Robert's invoice.", "it's jones i'm about robert's invoice"],
    ["Hello, Robert Miller's office.", 'hello office'],
    ['Hola, soy José. ¿Hablo con María?', 'hola soy hablo con maria'],
    ['Thanks, Sheila, see you.', 'thanks sheila see you'],
  ])('%s → %s', (text, expected) => {
    expect(withoutSelfIntroductions(text)).toBe(expected);
  });
});

describe('saysTheyPlacedTheCall', () => {
  test.each([
    ["Good afternoon, I'm calling from Brightwave Energy about your electricity tariff."],
    ['Hi, I’m ringing from Oakridge Vets about Biscuit’s jabs.'],
    ['This is Priya from Kestrel Home Insurance calling.'],
    ['My name is Tom Hale, calling on behalf of the Lakeside Residents Association.'],
    ['We are phoning from the school office.'],
    ['Buenos días, le llamo desde la clínica Sanitas.'],
    ['Hallo, ich rufe von der Firma Keller an.'],
  ])('"%s" says so', (text) => {
    expect(saysTheyPlacedTheCall(text)).toBe(true);
  });

  test.each([
    ['Are you calling from the bank?'],
    ['Who is calling from where, sorry?'],
    ['Is this you calling from the garage?'],
    ["I'll call you from the office later."],
    ['Llámame desde el móvil.'],
    ['Te llamo de nuevo mañana.'],
    ['Ich rufe dich von unterwegs zurück.'],
    ["I'm calling about the invoice."],
  ])('"%s" does not', (text) => {
    expect(saysTheyPlacedTheCall(text)).toBe(false);
  });

  test('has a table for each language the greetings have', () => {
    expect(Object.keys(callerPatterns)).toEqual(Object.keys(greetingPatterns));
  });
});
