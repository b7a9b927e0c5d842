import { anyOfWords, oncePer } from '../../text/regexWords.js';
import { numberWordsSource, parseNumberWords, type NumberWords } from '../../text/numberWords.js';
import type { WallClock } from '../../text/timeZones.js';
import { daysAfter, type FoundDate } from './calendarDays.js';
import type { DateWords } from './FactLexicon.js';

const DAYS_PER_WEEK = 7;

/** The patterns of a lexicon pair, built once. */
const patternsOf = oncePer((words: DateWords, numbers: NumberWords) => {
  const { dayOffsets } = words;
  const weekday = anyOfWords(words.weekdays);
  const units = anyOfWords(Object.keys(dayOffsets.unitDays));
  const count = `(?:${anyOfWords(dayOffsets.one)}|\\d{1,2}|${numberWordsSource(numbers)})`;
  return {
    fixed: new RegExp(`\\b(?:${anyOfWords(Object.keys(dayOffsets.fromToday))})\\b`, 'gi'),
    // "in two weeks", "in a fortnight", "in 10 days"
    counted: new RegExp(`\\b(?:${anyOfWords(dayOffsets.inWords)})\\s+(?<count>${count})\\s+(?<unit>${units})\\b`, 'gi'),
    // "a week on Friday", "a fortnight from Tuesday", "two weeks from Monday", "a week Friday", "Thursday week", "Monday after next"
    weekdayLater: new RegExp(`\\b(?<count>${count})\\s+(?<unit>${units})\\s+(?:(?:${anyOfWords(dayOffsets.weekdayJoiners)})\\s+)?(?<weekday>${weekday})\\b`
      + `|\\b(?<weekdayFirst>${weekday})\\s+(?:(?<unitAfter>${anyOfWords(dayOffsets.weekdayThenUnit)})|(?<afterNext>${anyOfWords(dayOffsets.weekdayAfterNext)}))\\b`, 'gi'),
    // "by end of day", "by COB": not followed by the day it ends ("close of business Thursday", "EOD tomorrow")
    endOfToday: new RegExp(`\\b(?:${anyOfWords(dayOffsets.endOfToday)})\\b(?!,?\\s+(?:\\w+\\s+)?(?:${weekday}|${anyOfWords(words.daysBeforeTime)})\\b)`, 'gi'),
    endOfWeek: new RegExp(`\\b(?:(?<next>${anyOfWords(dayOffsets.endOfWeek.nextWeek)})|${anyOfWords(dayOffsets.endOfWeek.thisWeek)})\\b`, 'gi'),
  };
});

/**
 * Days said as an offset from the call's day or from a weekday, which chrono leaves out or reads
 * wrongly: "the day after tomorrow", "in two weeks", "in a fortnight", "a week on Friday",
 * "Thursday week" (British English: a week after the coming Thursday), "Monday after next", "the
 * end of the week" (its last working day), "by end of day" (the call's date). Offsets of hours and
 * minutes are durations, not dates, and are not read here (nor by chrono's reading, see
 * findDateMentions).
 * @param today the call's date
 */
export function dayOffsetDates(text: string, words: DateWords, numbers: NumberWords, today: WallClock): FoundDate[] {
  const patterns = patternsOf(words, numbers);
  const { dayOffsets } = words;
  const found: FoundDate[] = [];
  const push = (index: number, length: number, days: number, from: WallClock = today) =>
    found.push({ start: index, end: index + length, clock: daysAfter(from, days), hasDay: true, certainDate: true });
  for (const match of text.matchAll(patterns.fixed)) push(match.index, match[0].length, dayOffsets.fromToday[match[0].toLowerCase()] ?? 0);
  for (const match of text.matchAll(patterns.counted)) {
    const count = countOf(match.groups?.count ?? '', words, numbers);
    const unit = dayOffsets.unitDays[(match.groups?.unit ?? '').toLowerCase()];
    if (count !== null && unit !== undefined && count > 0) push(match.index, match[0].length, count * unit);
  }
  for (const match of text.matchAll(patterns.weekdayLater)) {
    const weekdayName = (match.groups?.weekday ?? match.groups?.weekdayFirst ?? '').toLowerCase();
    const unitName = (match.groups?.unit ?? match.groups?.unitAfter ?? '').toLowerCase();
    const unit = match.groups?.afterNext !== undefined ? DAYS_PER_WEEK : dayOffsets.unitDays[unitName];
    const count = match.groups?.count === undefined ? 1 : countOf(match.groups.count, words, numbers);
    const weekdayIndex = words.weekdays.indexOf(weekdayName);
    if (unit === undefined || count === null || count <= 0 || weekdayIndex < 0) continue;
    push(match.index, match[0].length, count * unit, nextWeekday(today, (weekdayIndex + 1) % DAYS_PER_WEEK));
  }
  for (const match of text.matchAll(patterns.endOfToday)) {
    if (words.deadlinePrefix.test(text.slice(0, match.index))) push(match.index, match[0].length, 0);
  }
  // "By the end of the week": this working week's last day (today when it is that day; next week's when it has gone by).
  for (const match of text.matchAll(patterns.endOfWeek)) {
    const lastDay = dayOffsets.endOfWeek.lastWorkingDay;
    const todayIndex = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
    push(match.index, match[0].length, ((lastDay - todayIndex + DAYS_PER_WEEK) % DAYS_PER_WEEK) + (match.groups?.next ? DAYS_PER_WEEK : 0));
  }
  return found;
}

function countOf(said: string, words: DateWords, numbers: NumberWords): number | null {
  if (words.dayOffsets.one.includes(said.toLowerCase())) return 1;
  if (/^\d+$/.test(said)) return Number(said);
  return parseNumberWords(said, numbers);
}

/** The next day falling on `weekday` (0 = Sunday) after `today` (a weekday said alone never means today). */
function nextWeekday(today: WallClock, weekday: number): WallClock {
  const todayIndex = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
  return daysAfter(today, ((weekday - todayIndex + DAYS_PER_WEEK - 1) % DAYS_PER_WEEK) + 1);
}
