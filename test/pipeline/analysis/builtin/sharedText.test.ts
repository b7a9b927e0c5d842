import { describe, expect, test } from 'vitest';
import { capitalise, clip } from '../../../../src/pipeline/analysis/text/clip.js';
import {
  isSpokenDigitRun, numberWordsAsDigits, parseNumberWords, parseOrdinalWords, spokenDigits, withNumberWordsAsDigits,
} from '../../../../src/pipeline/analysis/text/numberWords.js';
import { oncePer } from '../../../../src/pipeline/analysis/text/regexWords.js';
import { sentencesOf, splitSentences } from '../../../../src/pipeline/analysis/text/sentences.js';
import { calendarDateIn, zoneOffsetMinutes } from '../../../../src/pipeline/analysis/text/timeZones.js';
import { callOf } from './facts/factTestCalls.js';

describe('number words (shared by the analyser and grounding)', () => {
  test('digits said one by one, in groups, with "oh" and "double"', () => {
    expect(spokenDigits('five five five oh one four two')).toBe('5550142');
    expect(spokenDigits('oh seven seven hundred, nine hundred, three one five')).toBe('07700900315');
    expect(spokenDigits('double five oh')).toBe('550');
    expect(spokenDigits('twenty twenty six')).toBe('2026');
    expect(spokenDigits('five apples')).toBeNull();
  });

  test('a run that is one cardinal keeps its value; else its digits, leading zeros kept', () => {
    expect(numberWordsAsDigits('two thousand five hundred and ten')).toBe('2510');
    expect(numberWordsAsDigits('oh one six one')).toBe('0161');
    expect(parseNumberWords('seven hundred nine hundred')).toBeNull();
    expect(isSpokenDigitRun('five five five oh one four two')).toBe(true);
    expect(isSpokenDigitRun('twenty five')).toBe(false);
    expect(isSpokenDigitRun('five six')).toBe(false);
  });

  test('grounding reads number words in a line as digits', () => {
    expect(withNumberWordsAsDigits('call five five five oh one four two')).toBe('call 5550142');
    expect(withNumberWordsAsDigits('It costs a hundred and fifty pounds.')).toBe('It costs 150 pounds.');
  });

  test('ordinals said in words', () => {
    expect(parseOrdinalWords('twenty-fifth')).toBe(25);
    expect(parseOrdinalWords('fifteenth')).toBe(15);
    expect(parseOrdinalWords('thirty first')).toBe(31);
    expect(parseOrdinalWords('fifteen')).toBeNull();
  });
});

describe('sentences (shared by the description and the facts)', () => {
  test('abbreviations, a lower-case continuation in a capitalised text, and an all-lower-case text', () => {
    expect(splitSentences('I spoke to Dr. Patel at 3 p.m. today. It costs $4.50! Really? yes')).toEqual([
      'I spoke to Dr. Patel at 3 p.m. today.', 'It costs $4.50!', 'Really?', 'yes',
    ]);
    expect(splitSentences('We said about 3. or so, I think. Fine.')).toEqual(['We said about 3. or so, I think.', 'Fine.']);
    expect(splitSentences("i'll send it. i'll call you.")).toEqual(["i'll send it.", "i'll call you."]);
    expect(splitSentences('Email j.smith@acme.com… Then call.')).toEqual(['Email j.smith@acme.com…', 'Then call.']);
    expect(splitSentences('... ')).toEqual([]);
  });

  test('sentences of segments cite their segment and know a question with a closing quote', () => {
    const { transcript } = callOf([['D', 'Did she say "Friday?" I think so.']]);
    const sentences = sentencesOf(transcript.segments);
    expect(sentences.at(-2)).toMatchObject({ text: 'Did she say "Friday?"', isQuestion: true, segmentIndex: 2 });
    expect(sentences.at(-1)).toMatchObject({ text: 'I think so.', isQuestion: false });
  });
});

describe('time zones, clipping and compiled patterns', () => {
  test('calendar date and offset take a Date or ms', () => {
    const lateInBerlin = Date.parse('2026-03-04T23:30:00Z');
    expect(calendarDateIn(lateInBerlin, 'Europe/Berlin')).toBe('2026-03-05');
    expect(calendarDateIn(new Date(lateInBerlin), 'Europe/London')).toBe('2026-03-04');
    expect(zoneOffsetMinutes('Europe/Berlin', new Date(lateInBerlin))).toBe(60);
  });

  test('clip cuts at a word with an ellipsis, without trailing punctuation', () => {
    expect(clip('  short  ', 10)).toBe('short');
    expect(clip('Send the contract, then call me back please', 20)).toBe('Send the contract…');
    expect(capitalise('send it')).toBe('Send it');
  });

  test('oncePer builds once per key object', () => {
    let builds = 0;
    const lengthOf = oncePer((key: { text: string }) => {
      builds++;
      return key.text.length;
    });
    const key = { text: 'abc' };
    expect([lengthOf(key), lengthOf(key), lengthOf({ text: 'de' })]).toEqual([3, 3, 2]);
    expect(builds).toBe(2);
  });
});
