import { describe, expect, test } from 'vitest';
import { englishLexicon } from '../../../../../src/pipeline/analysis/builtin/facts/english/englishLexicon.js';
import { findDateMentions } from '../../../../../src/pipeline/analysis/builtin/facts/findDateMentions.js';

/**
 * A battery of the ways English speakers say a day and a time on the phone, written from the
 * language (British, American, Australian and Indian English) rather than from the evaluation
 * calls: each sentence must yield a mention with the day (and time) given, or none at all when
 * both are null (a time given, the day null: a time said with no day). Said on Wednesday 13 January 2027, 10:00 in London.
 */
const wednesday = { recordedAt: Date.parse('2027-01-13T10:00:00Z'), timeZone: 'Europe/London', offsetMinutes: 0 };
const { dates, numbers } = englishLexicon;

const phrases: Array<[sentence: string, date: string | null, time: string | null]> = [
  ['I will do it tomorrow.', '2027-01-14', null],
  ['I can do it first thing tomorrow.', '2027-01-14', null],
  ['Call me tomorrow at 9.', '2027-01-14', '09:00'],
  ['I will have it done the day after tomorrow.', '2027-01-15', null],
  ['I will send it on Friday.', '2027-01-15', null],
  ['I will send it this Friday.', '2027-01-15', null],
  ['I will finish it by the end of the week.', '2027-01-15', null],
  ['I will pay it by the end of the month.', '2027-01-31', null],
  ['I will sort it by the end of next week.', '2027-01-22', null],
  ['Shall we say Monday week?', '2027-01-25', null],
  ['Come back a week today.', '2027-01-20', null],
  ['Come back a week tomorrow.', '2027-01-21', null],
  ['Can you come a week on Thursday?', '2027-01-21', null],
  ['How about the Tuesday after next?', '2027-01-26', null],
  ['We will be back in a fortnight.', '2027-01-27', null],
  ['I will chase it in three weeks.', '2027-02-03', null],
  ['The hearing is on the 3rd.', '2027-02-03', null],
  ['Can you come in on the third of February?', '2027-02-03', null],
  ['Can you come in on February the third?', '2027-02-03', null],
  ['It is booked for 3rd Feb.', '2027-02-03', null],
  ['I will have it by the 20th.', '2027-01-20', null],
  ['I can do Tuesday the 19th.', '2027-01-19', null],
  ['Shall we say Thursday at half two?', '2027-01-14', '14:30'],
  ['Come in at quarter to ten on Friday.', '2027-01-15', '09:45'],
  ['I will be there at midday tomorrow.', '2027-01-14', '12:00'],
  ['I will be there at noon on Friday.', '2027-01-15', '12:00'],
  ['I will have it back to you by close of business Thursday.', '2027-01-14', null],
  ['I will get it to you by end of day.', '2027-01-13', null],
  ['I will send it by EOD.', '2027-01-13', null],
  ['I will send it by EOD tomorrow.', '2027-01-14', null],
  ['I will drop it round this arvo.', '2027-01-13', null],
  ['I will drop it round this avo.', '2027-01-13', null],
  ['I will ring you tonight.', '2027-01-13', null],
  ['I will ring you later today.', '2027-01-13', null],
  ['Friday at 2 o\'clock suits me.', '2027-01-15', '14:00'],
  ['Friday at two pm suits me.', '2027-01-15', '14:00'],
  ['Friday at ten thirty suits me.', '2027-01-15', '10:30'],
  ['Friday at half ten suits me.', '2027-01-15', '10:30'],
  ['I will be in Monday morning.', '2027-01-18', null],
  ['I will be in Monday first thing.', '2027-01-18', null],
  ['Can we do the 15th at 3?', '2027-01-15', '15:00'],
  ['I will pay it in two days\' time.', '2027-01-15', null],
  ['I will ring back in a week\'s time.', '2027-01-20', null],
  ['I will ring back a week from today.', '2027-01-20', null],
  ['Let us meet a week from Friday.', '2027-01-22', null],
  ['Let us meet two weeks from Monday.', '2027-02-01', null],
  ['Can you do Tuesday the 2nd at 2?', '2027-02-02', '14:00'],
  ['I will have it done by the end of February.', '2027-02-28', null],
  ['Pay it by the 31st.', '2027-01-31', null],
  ['Can you come on Thursday next week?', '2027-01-21', null],
  ['Can you come on Thursday of next week?', '2027-01-21', null],
  ['Can you come a week Friday?', '2027-01-22', null],
  ['I will pop by sometime tomorrow afternoon.', '2027-01-14', null],
  ['See you Friday at ten o\'clock.', '2027-01-15', '10:00'],
  ['See you Friday at 4.30.', '2027-01-15', '16:30'],
  ['See you Friday at 9.15.', '2027-01-15', '09:15'],
  ['See you Friday at twenty past three.', '2027-01-15', '15:20'],
  ['See you Friday at five to four.', '2027-01-15', '15:55'],
  ['See you Friday at 8 in the morning.', '2027-01-15', '08:00'],
  ['See you Friday at 7 in the evening.', '2027-01-15', '19:00'],
  ['I will come round at 6 tonight.', '2027-01-13', '18:00'],
  ['I will come on the fourteenth.', '2027-01-14', null],
  ['I will come on the twenty-first.', '2027-01-21', null],
  ['I will come Friday the twenty-second.', '2027-01-22', null],
  ['Same time next week?', '2027-01-20', null],
  ['This time next week then.', '2027-01-20', null],
  ['Get it to me no later than Friday.', '2027-01-15', null],
  ['Get it to me before Friday.', '2027-01-15', null],
  ['Can we prepone it to Thursday?', '2027-01-14', null],
  ['Send it by end of business Friday.', '2027-01-15', null],
  ['Send it by COB Friday.', '2027-01-15', null],
  ['I will come Saturday morning.', '2027-01-16', null],
  ['The payment goes out on the 1st of next month.', '2027-02-01', null],
  ['The payment goes out on the first of the month.', '2027-02-01', null],
  ['Can you do the 28th of January at 11am?', '2027-01-28', '11:00'],
  ['Can you do January 28th at 11?', '2027-01-28', '11:00'],
  ['Can you do Jan 28 at 11?', '2027-01-28', '11:00'],
  ['The delivery is Monday between eight and one.', '2027-01-18', null],
  ['I will be there at eleven.', null, '11:00'],
  ['Come in at 10 tomorrow morning.', '2027-01-14', '10:00'],
  ['Come in tomorrow at ten a.m.', '2027-01-14', '10:00'],
  ['Come in at 2:45 on Monday.', '2027-01-18', '14:45'],
  ['Come in Monday at quarter past nine.', '2027-01-18', '09:15'],
  ['Come in on Monday the 25th at 9:30.', '2027-01-25', '09:30'],
  ['Come in a week on Monday at 9.', '2027-01-25', '09:00'],
  ['Come in Monday after next.', '2027-01-25', null],
  ['I will ring you back this evening.', '2027-01-13', null],
  ['I will ring you back first thing Monday.', '2027-01-18', null],
  ['I will have it done within the week.', null, null],
  ['I will have it done in the next couple of days.', null, null],
];

describe('days and times as people say them', () => {
  test.each(phrases)('%s → %s %s', (sentence, date, time) => {
    const found = findDateMentions(sentence, wednesday, dates, numbers).map((mention) => [mention.date, mention.time]);
    if (date === null && time === null) expect(found).toEqual([]);
    // A time the sentence states must be read; where none is given, any reading of the day will do.
    else expect(found.map(([foundDate, foundTime]) => [foundDate, time === null ? null : foundTime])).toContainEqual([date, time]);
  });
});
