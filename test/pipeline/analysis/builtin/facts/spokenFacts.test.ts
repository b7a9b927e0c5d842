import { describe, expect, test } from 'vitest';
import { findEmails, findPhoneNumbers } from '../../../../../src/pipeline/analysis/builtin/facts/contactDetails.js';
import { englishLexicon } from '../../../../../src/pipeline/analysis/builtin/facts/english/englishLexicon.js';
import { findCallDateMentions, findDateMentions } from '../../../../../src/pipeline/analysis/builtin/facts/findDateMentions.js';
import { findAmounts } from '../../../../../src/pipeline/analysis/builtin/facts/findAmounts.js';
import { withSpokenDatesInDigits } from '../../../../../src/pipeline/analysis/builtin/facts/spokenDates.js';

const { numbers, amounts, emails, dates } = englishLexicon;

/** Friday 20 March 2026, 08:50 in London (GMT). */
const friday = { recordedAt: Date.parse('2026-03-20T08:50:00Z'), timeZone: 'Europe/London', offsetMinutes: 0 };
const mentions = (sentence: string, clock = friday) =>
  findDateMentions(sentence, clock, dates, numbers).map(({ text, date, time }) => [text, date, time]);

describe('days said as an offset', () => {
  test('from the call\'s day: "the day after tomorrow", "in two weeks", "in ten days", "in a fortnight"', () => {
    expect(mentions('Can you do the day after tomorrow?')).toEqual([['the day after tomorrow', '2026-03-22', null]]);
    expect(mentions('Send it over in two weeks.')).toEqual([['in two weeks', '2026-04-03', null]]);
    expect(mentions('I can do it in 10 days.')).toEqual([['in 10 days', '2026-03-30', null]]);
    expect(mentions('We will be back out in a fortnight.')).toEqual([['in a fortnight', '2026-04-03', null]]);
    // Hours and minutes are durations, not dates.
    expect(mentions('I will ring you back in ten minutes.')).toEqual([]);
  });

  test('from a weekday: "a week on Monday", "a fortnight on Tuesday", "Thursday week"', () => {
    expect(mentions('I can come out a week on Monday.')).toEqual([['a week on Monday', '2026-03-30', null]]);
    expect(mentions('Could you come in a fortnight on Tuesday?')).toEqual([['a fortnight on Tuesday', '2026-04-07', null]]);
    expect(mentions("Let's say Thursday week.")).toEqual([['Thursday week', '2026-04-02', null]]);
    expect(mentions('Is Thursday this week any good?')).toEqual([['Thursday this week', '2026-03-26', null]]);
  });
});

describe('days said as everyday English puts them (a battery written from the language, not from calls)', () => {
  test('"the Tuesday after next", "Monday after next": a week after the coming one', () => {
    expect(mentions('How about the Tuesday after next?')).toEqual([['Tuesday after next', '2026-03-31', null]]);
    expect(mentions('Come in Monday after next.')).toEqual([['Monday after next', '2026-03-30', null]]);
  });

  test('a count of weeks from a weekday, with or without "on": "two weeks from Monday", "a week Friday"', () => {
    expect(mentions('Let us meet two weeks from Monday.')).toEqual([['two weeks from Monday', '2026-04-06', null]]);
    expect(mentions('Can you come a week Friday?')).toEqual([['a week Friday', '2026-04-03', null]]);
  });

  test('"by end of day", "by EOD", "by close of play" are the call\'s date; "close of business Thursday" is Thursday', () => {
    expect(mentions('I will get it to you by end of day.')).toEqual([['by end of day', '2026-03-20', null]]);
    expect(mentions('I will send it by EOD.')).toEqual([['by EOD', '2026-03-20', null]]);
    expect(mentions('Can you do it by close of play?')).toEqual([['by close of play', '2026-03-20', null]]);
    expect(mentions('I will have it back by close of business Thursday.').map(([, date]) => date)).toEqual(['2026-03-26']);
    // Not a deadline: the idiom names no day.
    expect(mentions('At the end of the day it is your call.')).toEqual([]);
  });

  test('"the 1st of next month", "the first of the month", "the 15th of next month"', () => {
    expect(mentions('The payment goes out on the 1st of next month.')).toEqual([['the 1st of next month', '2026-04-01', null]]);
    expect(mentions('The payment goes out on the first of the month.')).toEqual([['the first of the month', '2026-04-01', null]]);
    expect(mentions('The rent is due on the fifteenth of next month.')).toEqual([['the fifteenth of next month', '2026-04-15', null]]);
  });

  test('"this avo" is this afternoon (Australian English, like "this arvo"); "within the week" names no day', () => {
    expect(mentions('I will drop it round this avo.')).toEqual([['this avo', '2026-03-20', null]]);
    expect(mentions('I will have it done within the week.')).toEqual([]);
  });
});

describe('times and days the reading used to get wrong', () => {
  test('"half two" after a time preposition is half past two', () => {
    expect(mentions('Shall we say Monday at half two?')).toEqual([['Monday at half two', '2026-03-23', '14:30']]);
    expect(mentions('Tuesday at half past eight suits me.')).toEqual([['Tuesday at half past eight', '2026-03-24', '08:30']]);
  });

  test('the "past" of "quarter past ten" does not make a day of the month one gone by', () => {
    expect(mentions('Can we book you in for Tuesday the fourteenth at quarter past ten?')).toEqual([['Tuesday the fourteenth at quarter past ten', '2026-04-14', '10:15']]);
  });
});

describe('times and days read since round 4', () => {
  test('"ten past four", "twenty-five to six": minutes counted before or after the hour', () => {
    expect(mentions("I'll book you in for Tuesday the twenty-fourth at ten past four, then.")).toEqual([['Tuesday the twenty-fourth at ten past four', '2026-03-24', '16:10']]);
    expect(mentions('Can you be there at twenty-five to six?')).toEqual([['at twenty-five to six', null, '17:35']]);
  });

  test('"ten past four" said without "at" points nowhere back; "the past two days" still does', () => {
    expect(mentions('Ten past four on Tuesday the 24th, yeah, that works.')).toEqual([['Tuesday the 24th', '2026-03-24', null]]);
    expect(mentions('It was on the 3rd, in the past two weeks.')).toEqual([['the 3rd', '2026-03-03', null]]);
  });

  test('"if it hasn\'t arrived by the tenth" is about a day ahead, not one gone by', () => {
    expect(mentions("And if it hasn't arrived by the 25th, I'll ring you back.")).toEqual([['by the 25th', '2026-03-25', null]]);
    expect(mentions('It arrived on the 25th.')).toEqual([['the 25th', '2026-02-25', null]]);
  });

  test('"this afternoon at four" is today at 16:00; "tomorrow morning at seven thirty" is 07:30, not 19:30', () => {
    expect(mentions('I need to move your appointment this afternoon at four.')).toEqual([['this afternoon at four', '2026-03-20', '16:00']]);
    expect(mentions("I'll call you tomorrow morning at seven thirty.")).toEqual([['tomorrow morning at seven thirty', '2026-03-21', '07:30']]);
    expect(mentions('Could you come at 3?')).toEqual([['at 3', null, '15:00']]);
  });

  test('a weekday said alone on that weekday is the coming one; "this Friday" may be today; an offset keeps its time', () => {
    expect(mentions("I'll call you Thursday or Friday.")).toEqual([['Thursday', '2026-03-26', null], ['Friday', '2026-03-27', null]]);
    expect(mentions("I'll send it this Friday.")).toEqual([['this Friday', '2026-03-20', null]]);
    expect(mentions("I'll pop round the day after tomorrow at ten.")).toEqual([['the day after tomorrow at ten', '2026-03-22', '10:00']]);
  });

  test('"by the end of the week" is its last working day, "the end of next week" the one after', () => {
    expect(mentions("I'll send it by the end of the week.")).toEqual([['by the end of the week', '2026-03-20', null]]);
    expect(mentions("I'll send it by the end of next week.")).toEqual([['by the end of next week', '2026-03-27', null]]);
  });

  test('"that day" and "by then" are the day said before; "the day before" counts from it', () => {
    const sentences = ['Shall we say Wednesday the 25th?', 'Lovely.', "And if he's not up to it that day, I'll call you the day before."];
    const found = findCallDateMentions(sentences, friday, dates, numbers).map((said) => said.map(({ text, date }) => [text, date]));
    expect(found[2]).toEqual([['that day', '2026-03-25'], ['the day before', '2026-03-24']]);
    const byThen = findCallDateMentions(['It should be here by Thursday.', "If it hasn't come in by then, I'll ring you."], friday, dates, numbers);
    expect(byThen[1]!.map(({ text, date, isDeadline }) => [text, date, isDeadline])).toEqual([['by then', '2026-03-26', true]]);
  });
});

describe('dates and times said in words', () => {
  test('times after a time preposition, cited as said', () => {
    expect(mentions('I have you for Thursday at ten thirty.')).toEqual([['Thursday at ten thirty', '2026-03-26', '10:30']]);
    expect(mentions('Tuesday at half past eight suits me.')).toEqual([['Tuesday at half past eight', '2026-03-24', '08:30']]);
    expect(mentions('Be there by quarter to six.')).toEqual([['by quarter to six', null, '17:45']]);
    expect(withSpokenDatesInDigits('at ten oh five', dates, numbers).text).toBe('at 10:05');
  });

  test('an ordinal day with a weekday, or before a word that ends it, is a day of the month', () => {
    expect(mentions("I'll book you in for Wednesday the twenty-fifth at ten fifteen.")).toEqual([['Wednesday the twenty-fifth at ten fifteen', '2026-03-25', '10:15']]);
    // A weekday fixes which month: the next 24th falling on a Friday.
    expect(mentions('Friday the twenty-fourth at eleven, then.')).toEqual([['Friday the twenty-fourth at eleven', '2026-04-24', '11:00']]);
    expect(mentions('We are on the second floor, for the third time.')).toEqual([]);
  });

  test('a day of the month said alone is the next one, the last one in a sentence about the past', () => {
    expect(mentions('Are you free on the 15th?')).toEqual([['the 15th', '2026-04-15', null]]);
    expect(mentions('Perfect, the 15th at noon at the Corner Café.')).toEqual([['the 15th at noon', '2026-04-15', '12:00']]);
    expect(mentions('Our accounts team sent it on the fifth.')).toEqual([['the fifth', '2026-03-05', null]]);
  });

  test('parts of the call\'s day are its date', () => {
    expect(mentions("I'll email it this afternoon.")).toEqual([['this afternoon', '2026-03-20', null]]);
    expect(mentions("I'll reinstall it this evening.")).toEqual([['this evening', '2026-03-20', null]]);
  });

  test('"the day before" is set from a date in its sentence, and dropped without one', () => {
    expect(mentions("I'll text you a reminder the day before.")).toEqual([]);
    expect(mentions("It's on Wednesday the 25th, and I'll text you the day before.")).toEqual([
      ['Wednesday the 25th', '2026-03-25', null], ['the day before', '2026-03-24', null],
    ]);
  });
});

describe('contact details said in words', () => {
  test('a phone number said digit by digit or in groups, as dialled', () => {
    expect(findPhoneNumbers('My mobile is oh seven seven hundred, nine hundred, three one five.', amounts, numbers).map(({ text, number }) => [text, number])).toEqual([
      ['oh seven seven hundred, nine hundred, three one five', '07700900315'],
    ]);
    expect(findPhoneNumbers('Call me on five five five oh one four two.', amounts, numbers).map(({ number }) => number)).toEqual(['5550142']);
    // Without a phone cue nearby, words are words.
    expect(findPhoneNumbers('We had five five five oh one four two visitors.', amounts, numbers)).toEqual([]);
    expect(findPhoneNumbers("It's 0161 496 0732.", amounts, numbers, true).map(({ number }) => number)).toEqual(['0161 496 0732']);
  });

  test('spelled initials and a domain said in words are written together', () => {
    expect(findEmails("It's r singh at landmark lettings dot co dot uk.", emails, true).map(({ address }) => address)).toEqual(['rsingh@landmarklettings.co.uk']);
    expect(findEmails("It's d dot okoye at wblaw dot co dot uk.", emails, true).map(({ address }) => address)).toEqual(['d.okoye@wblaw.co.uk']);
  });
});

describe('round 6: prices said as two numbers, early hours on a morning', () => {
  const prices = (sentence: string) => findAmounts(sentence, amounts, numbers).filter((amount) => amount.kind === 'money').map(({ text, value }) => [text, value]);

  test('a price said as two number groups, in a price\'s context: hundreds after a single word, pounds and pence after a tens word', () => {
    expect(prices('I could do it for seventeen eighty.')).toEqual([['seventeen eighty', 1780]]);
    expect(prices("I'll pay the first seventy-one ten online then.")).toEqual([['seventy-one ten', 71.1]]);
    expect(prices('A full alarm system for just twenty-nine ninety-nine a month.')).toEqual([['twenty-nine ninety-nine', 29.99]]);
    expect(prices('The total comes to one eighty.')).toEqual([['one eighty', 180]]);
  });

  test('two numbers with no price around them are a time, and the end of a longer number is no price', () => {
    expect(prices('Can you do Friday at two thirty?')).toEqual([]);
    expect(prices('The service is a hundred and forty-nine, so it costs a bit.')).toEqual([]);
  });

  test('"in the week", "during the week" name no day (chrono reads them as a week from now); "in a week" does', () => {
    expect(mentions('If anything opens up earlier in the week, I will call you.')).toEqual([]);
    expect(mentions('Sometime during the week is fine.')).toEqual([]);
    expect(mentions('I will do it in a week.')).toEqual([['in a week', '2026-03-27', null]]);
  });

  test('a bare hour from five to seven stays in the morning when the sentence says morning', () => {
    expect(mentions('Drop it off any time from quarter to eight that morning.').map(([, , time]) => time)).toContain('07:45');
    expect(mentions('Drop-off is at seven thirty in the morning on Tuesday.').some(([, , time]) => time === '07:30')).toBe(true);
    expect(mentions('Not Monday morning, but Tuesday at four works.').some(([, , time]) => time === '16:00')).toBe(true);
  });
});

describe('a day corrected in the next sentence', () => {
  const december = { recordedAt: Date.parse('2026-12-04T10:00:00Z'), timeZone: 'Europe/London', offsetMinutes: 0 };
  const daysOf = (sentences: string[], speakers?: string[]) =>
    findCallDateMentions(sentences, december, englishLexicon.dates, englishLexicon.numbers, speakers).map((said) => said.map(({ date, time }) => [date, time]));

  test('by its own speaker: the corrected day at the time first said', () => {
    expect(daysOf(['I can put you in for Thursday the eleventh at half four.', 'Sorry, the tenth, Thursday the tenth.'], ['a', 'a'])[0])
      .toEqual([['2026-12-10', '16:30']]);
  });

  test('not by the other speaker (a counter-proposal), nor by a question (a check)', () => {
    const proposal = ['I can put you in for Thursday the tenth at half four.', 'Sorry, Friday the eleventh would suit me better.'];
    expect(daysOf(proposal, ['a', 'b'])[0]).toEqual([['2026-12-10', '16:30']]);
    expect(daysOf(['I can put you in for Thursday the tenth at half four.', 'Sorry, the eleventh?'], ['a', 'a'])[0]).toEqual([['2026-12-10', '16:30']]);
  });
});

describe('round 9: a number said alone where a price is plainly meant', () => {
  const prices = (sentence: string) => findAmounts(sentence, amounts, numbers).filter((amount) => amount.kind === 'money').map(({ text, value, currency }) => [text, value, currency]);

  test('alongside a sum of money in the sentence, a lone number is a price in the same currency', () => {
    expect(prices('The check-up is sixty euro and the clean is seventy-five.')).toEqual([['sixty euro', 60, 'EUR'], ['seventy-five', 75, 'EUR']]);
    expect(prices("The consult's ninety-five dollars, and the booster's another sixty-two on top.")).toEqual([['ninety-five dollars', 95, 'USD'], ['sixty-two', 62, 'USD']]);
    expect(prices("Yes, it's twenty dollars a head, so a hundred and sixty all up.")).toEqual([['twenty dollars', 20, 'USD'], ['a hundred and sixty', 160, 'USD']]);
  });

  test('with a price\'s words around it, a lone number is a price (currency unsaid)', () => {
    expect(prices("No worries, I'll pay the hundred and sixty by Monday.")).toEqual([['hundred and sixty', 160, null]]);
  });

  test('a lone number that counts something, a single one, or none with money around it is no price', () => {
    expect(prices('It was forty pounds for the two kids.')).toEqual([['forty pounds', 40, 'GBP']]);
    expect(prices("It's forty pounds, and I'll take the first one.")).toEqual([['forty pounds', 40, 'GBP']]);
    expect(prices('The service is a hundred and forty-nine, so it takes a while.')).toEqual([]);
  });
});
