import { describe, expect, test } from 'vitest';
import { findEmails, findPhoneNumbers } from '../../../../../src/pipeline/analysis/builtin/facts/contactDetails.js';
import { englishLexicon } from '../../../../../src/pipeline/analysis/builtin/facts/english/englishLexicon.js';
import { findAmounts } from '../../../../../src/pipeline/analysis/builtin/facts/findAmounts.js';
import { findDateMentions } from '../../../../../src/pipeline/analysis/builtin/facts/findDateMentions.js';
import { numberWordsSource, parseNumberWords } from '../../../../../src/pipeline/analysis/text/numberWords.js';
import { isoDateTimeWithOffset, zoneOffsetMinutes } from '../../../../../src/pipeline/analysis/text/timeZones.js';

const { numbers, amounts, emails, dates } = englishLexicon;

describe('numberWords', () => {
  test.each([
    ['fifty', 50], ['twenty-five', 25], ['twelve hundred', 1200], ['a hundred', 100],
    ['two thousand five hundred and ten', 2510], ['one million', 1_000_000], ['ninety nine', 99],
  ])('"%s" is %d', (said, value) => {
    expect(parseNumberWords(said, numbers)).toBe(value);
  });

  test('words that are not one number have no value, and a bare scale or article is no number', () => {
    expect(parseNumberWords('five six', numbers)).toBeNull();
    expect(parseNumberWords('twenty thirty', numbers)).toBeNull();
    const pattern = new RegExp(numberWordsSource(numbers), 'gi');
    expect('a hundred, hundred, a day'.match(pattern)).toEqual(['a hundred']);
  });

  test('a bare scale with "and" and a number after it opens the number: "a flat hundred and twenty-nine" is 129, not 29', () => {
    const pattern = new RegExp(numberWordsSource(numbers), 'gi');
    expect('a flat hundred and twenty-nine dollars'.match(pattern)).toEqual(['hundred and twenty-nine']);
    expect(parseNumberWords('hundred and twenty-nine', numbers)).toBe(129);
    expect(findAmounts('The tune-up is a flat hundred and twenty-nine dollars.', amounts, numbers).map(({ text, kind, value, unit, currency }) => ({ text, kind, value, unit, currency }))).toEqual([{ text: 'hundred and twenty-nine dollars', kind: 'money', value: 129, unit: null, currency: 'USD' }]);
  });
});

describe('findAmounts', () => {
  const read = (sentence: string) => findAmounts(sentence, amounts, numbers).map(({ text, kind, value, unit, currency }) => ({ text, kind, value, unit, currency }));

  test('money in symbols, codes and words, with multipliers', () => {
    expect(read('It was $1,200, then EUR 300, £2.5 million, fifty euros, 1200 dollars, 15k and ten grand.')).toEqual([
      { text: '$1,200', kind: 'money', value: 1200, unit: null, currency: 'USD' },
      { text: 'EUR 300', kind: 'money', value: 300, unit: null, currency: 'EUR' },
      { text: '£2.5 million', kind: 'money', value: 2_500_000, unit: null, currency: 'GBP' },
      { text: 'fifty euros', kind: 'money', value: 50, unit: null, currency: 'EUR' },
      { text: '1200 dollars', kind: 'money', value: 1200, unit: null, currency: 'USD' },
      { text: '15k', kind: 'money', value: 15_000, unit: null, currency: null },
      { text: 'ten grand', kind: 'money', value: 10_000, unit: null, currency: null },
    ]);
  });

  test('percentages, durations, quantities and references; "pounds of" is a weight, a bare number nothing', () => {
    expect(read('We agreed 15% or fifteen percent for 30 minutes, a 45-minute call, 20 licenses and 5 pounds of flour, ticket #A-4521, 3 times.')).toEqual([
      { text: '15%', kind: 'percentage', value: 15, unit: '%', currency: null },
      { text: 'fifteen percent', kind: 'percentage', value: 15, unit: '%', currency: null },
      { text: '30 minutes', kind: 'duration', value: 30, unit: 'minutes', currency: null },
      { text: '45-minute', kind: 'duration', value: 45, unit: 'minutes', currency: null },
      { text: '20 licenses', kind: 'quantity', value: 20, unit: 'licenses', currency: null },
      { text: 'ticket #A-4521', kind: 'reference_number', value: null, unit: null, currency: null },
    ]);
  });

  test('"order 45 units" orders a quantity; "order number 4521" is a reference', () => {
    expect(read("I'd like to order 45 units.").map((amount) => amount.kind)).toEqual(['quantity']);
    expect(read('Order number 4521 is late.')).toEqual([{ text: 'Order number 4521', kind: 'reference_number', value: 4521, unit: null, currency: null }]);
  });
});

describe('contact details', () => {
  test('written and spelled addresses, spelled ones only near an email cue and with a known top-level domain', () => {
    expect(findEmails("It's john dot smith at acme dot com or sales_team@acme.co.uk.", emails, true).map((email) => [email.address, email.text, email.spelled])).toEqual([
      ['john.smith@acme.com', 'john dot smith at acme dot com', true],
      ['sales_team@acme.co.uk', 'sales_team@acme.co.uk', false],
    ]);
    expect(findEmails('john dot smith at acme dot com', emails, false)).toEqual([]);
    expect(findEmails('look at the report dot something', emails, true)).toEqual([]);
    expect(findEmails('mary underscore lee at mail dot example dot de', emails, true).map((email) => email.address)).toEqual(['mary_lee@mail.example.de']);
  });

  test('phone numbers need 7 to 15 digits and a phone cue, or a leading "+" or bracketed area code', () => {
    expect(findPhoneNumbers('Call me back on 555 0142 or 555-0199.', amounts).map((phone) => phone.text)).toEqual(['555 0142', '555-0199']);
    expect(findPhoneNumbers('The total was 1200 and 3 450 000 units shipped.', amounts)).toEqual([]);
    expect(findPhoneNumbers('Reach the office at (020) 7946 0958 or +44 20 7946 0958.', amounts).map((phone) => phone.text)).toEqual(['(020) 7946 0958', '+44 20 7946 0958']);
  });
});

describe('findDateMentions', () => {
  /** Wednesday 4 March 2026, 10:00 UTC. */
  const london = { recordedAt: Date.parse('2026-03-04T10:00:00Z'), timeZone: 'Europe/London', offsetMinutes: 0 };
  const mentions = (sentence: string, clock = london) => findDateMentions(sentence, clock, dates).map(({ text, date, time }) => [text, date, time]);

  test('days and times said casually, a bare hour from 1 to 7 in the afternoon', () => {
    expect(mentions('Next Tuesday at 3 works, or tomorrow at 9, or by Friday.')).toEqual([
      ['Next Tuesday at 3', '2026-03-10', '15:00'], ['tomorrow at 9', '2026-03-05', '09:00'], ['by Friday', '2026-03-06', null],
    ]);
    expect(mentions('By the end of the month, or on March 12th at 2pm.')).toEqual([['By the end of the month', '2026-03-31', null], ['March 12th at 2pm', '2026-03-12', '14:00']]);
    expect(mentions('Can we do it at 3?')).toEqual([['at 3', null, '15:00']]);
  });

  test('past mentions are resolved backwards', () => {
    expect(mentions('We spoke last Friday.')).toEqual([['last Friday', '2026-02-27', null]]);
  });

  test('what chrono reads but is no date is dropped', () => {
    for (const sentence of ['I sat down.', 'The sun is out.', 'We will march on.', 'Give me a second.', 'In 30 minutes.', 'Right now.', 'Next month.', 'We could do 10 to 5.']) {
      expect(mentions(sentence), sentence).toEqual([]);
    }
  });

  test('"tomorrow" is the next day in the call\'s zone, not in UTC', () => {
    // 23:30 UTC on 4 March is already 00:30 on 5 March in Berlin: "tomorrow" is 6 March there.
    const lateInBerlin = { recordedAt: Date.parse('2026-03-04T23:30:00Z'), timeZone: 'Europe/Berlin', offsetMinutes: 60 };
    expect(mentions('Tomorrow then.', lateInBerlin)).toEqual([['Tomorrow', '2026-03-06', null]]);
  });
});

describe('zonedTime', () => {
  test('offsets come from Intl, with daylight saving time', () => {
    expect(zoneOffsetMinutes('Europe/Berlin', Date.parse('2026-01-15T12:00:00Z'))).toBe(60);
    expect(zoneOffsetMinutes('Europe/Berlin', Date.parse('2026-07-15T12:00:00Z'))).toBe(120);
    expect(zoneOffsetMinutes('America/New_York', Date.parse('2026-01-15T12:00:00Z'))).toBe(-300);
  });

  test('a local time is written with the offset of its own day', () => {
    expect(isoDateTimeWithOffset({ year: 2026, month: 3, day: 28, hour: 10, minute: 0 }, 'Europe/Berlin')).toBe('2026-03-28T10:00:00+01:00');
    expect(isoDateTimeWithOffset({ year: 2026, month: 3, day: 30, hour: 10, minute: 0 }, 'Europe/Berlin')).toBe('2026-03-30T10:00:00+02:00');
    expect(isoDateTimeWithOffset({ year: 2026, month: 3, day: 30, hour: 9, minute: 30 }, 'America/St_Johns')).toBe('2026-03-30T09:30:00-02:30');
    expect(isoDateTimeWithOffset({ year: 2026, month: 3, day: 30 }, 'Europe/Berlin')).toBeNull();
  });
});
