import type { ParsedResult } from 'chrono-node';
import { oncePer } from '../../text/regexWords.js';
import { englishNumberWords, type NumberWords } from '../../text/numberWords.js';
import { calendarDateIn, isoDate, isoDateTimeWithOffset, isoTime, type WallClock } from '../../text/timeZones.js';
import { daysAfter, daysOfMonth, joinedDateAndTime, withRelativeAnchorsResolved, type FoundDate } from './calendarDays.js';
import { dayOffsetDates } from './dayOffsets.js';
import type { DateWords } from './FactLexicon.js';
import { withSpokenDatesInDigits, type DigitWritten } from './spokenDates.js';

/** When and where the call happened: relative dates ("tomorrow") resolve against it. */
export interface CallClock {
  /** ms since the epoch. */
  recordedAt: number;
  /** IANA zone the dates said are meant in. */
  timeZone: string;
  /** The zone's offset from UTC at `recordedAt`, in minutes (chrono's reference). */
  offsetMinutes: number;
}

/** A date or time said in a sentence. */
export interface DateMention {
  /** As said, with a deadline word before it ("by Friday"): a substring of the sentence. */
  text: string;
  /** Where `text` starts in the sentence. */
  index: number;
  /** `YYYY-MM-DD` in the call's zone; null for a time said without a day ("at 3"). */
  date: string | null;
  /** `HH:MM` when a time was said. */
  time: string | null;
  /** ISO date-time with the zone's offset, when both a day and a time were said. */
  dateTime: string | null;
  /** Whether it was a deadline ("by Friday", "before the end of the month"). */
  isDeadline: boolean;
  /** Too vague to be worth listing by itself ("today", "weekend"; see `DateWords.vague`). */
  isVague: boolean;
}

/** A day said from the call's date (`callDate`, `YYYY-MM-DD`) on, not as a deadline: when something is to happen. */
export function isDayToCome(mention: DateMention, callDate: string): boolean {
  return mention.date !== null && mention.date >= callDate && !mention.isDeadline;
}

/**
 * Hours said without am/pm that are read as afternoon: "at 3" in a business call means 15:00,
 * not 03:00. From 8 on, a bare hour stays morning ("at 9" is 09:00); 12 is noon.
 */
export const BARE_AFTERNOON_HOURS = { first: 1, last: 7 } as const;
const HOURS_TO_AFTERNOON = 12;
const DAYS_PER_WEEK = 7;

/**
 * The dates and times said in one sentence, by chrono with `forwardDate` ("Friday" is the next
 * Friday; "last Friday" and "two days ago" are parsed backwards) over the sentence with its
 * spoken times and ordinal days in digits (see `withSpokenDatesInDigits`). chrono's casual
 * parser also reads things that are no date, so a mention is kept only when
 * - it fixes a day (a date or weekday) or a time of day: "next month" (no day) and "this week" are not;
 * - it is no offset of seconds, minutes or hours ("in a sec", "in 30 minutes": durations, not dates) and not "now";
 * - its words contain a day anchor (weekday, month, "tomorrow", a digit: drops "sat", "sun");
 * - a time said without a day looks like a time ("at 3", "3pm", "10:30": drops "10 to 5").
 * Added to chrono's reading: a part of the call's day ("this afternoon") is the call's date; a
 * day of the month said alone ("on the 15th", "Friday the 24th") is the next such day (the
 * last one in a sentence about the past; with a weekday, the next one falling on it); a date
 * and a time said side by side ("Wednesday the 25th at 10:15") are one mention; a date relative
 * to another ("the day before") is resolved against a date said in the same sentence, and
 * dropped without one. A bare hour from {@link BARE_AFTERNOON_HOURS} is afternoon, unless the morning is said.
 */
export function findDateMentions(sentence: string, clock: CallClock, words: DateWords, numbers: NumberWords = englishNumberWords, earlierDay?: string): DateMention[] {
  const written = withSpokenDatesInDigits(sentence, words, numbers);
  const today = wallClockOfDay(calendarDateIn(clock.recordedAt, clock.timeZone));
  const found = chronoMentions(written.text, clock, words, today);
  // Over the text with spoken times in digits: the "past" of "quarter past ten" points nowhere back.
  const isPast = words.pastCue.test(written.text) || saysThePast(written.text, words);
  for (const day of daysOfMonth(written.text, words, today, isPast)) {
    const overlapping = found.filter((mention) => mention.start < day.end && day.start < mention.end);
    if (overlapping.some((mention) => mention.certainDate)) continue;
    for (const mention of overlapping) found.splice(found.indexOf(mention), 1);
    // "9:30 on Saturday the 19th": chrono's reading carried the time; the day of the month keeps it.
    const timed = overlapping.find((mention) => mention.clock.hour !== undefined);
    found.push(timed ? {
      ...day, start: Math.min(day.start, timed.start), end: Math.max(day.end, timed.end),
      clock: { ...day.clock, hour: timed.clock.hour, minute: timed.clock.minute },
    } : day);
  }
  // Offsets from today or a weekday ("in two weeks", "Thursday week") replace what chrono read in their words.
  for (const offset of dayOffsetDates(written.text, words, numbers, today)) {
    const overlapping = found.filter((candidate) => candidate.start < offset.end && offset.start < candidate.end);
    for (const mention of overlapping) found.splice(found.indexOf(mention), 1);
    // "the day after tomorrow at ten", "half two on Thursday week": chrono's reading carried the
    // time, said after the offset or before it; the offset keeps it.
    const timed = overlapping.find((mention) => mention.clock.hour !== undefined && (mention.end > offset.end || mention.start < offset.start));
    found.push(timed ? {
      ...offset, start: Math.min(offset.start, timed.start), end: Math.max(offset.end, timed.end),
      clock: { ...offset.clock, hour: timed.clock.hour, minute: timed.clock.minute },
    } : offset);
  }
  // "I'll ring you back in the morning": with no day said, the next morning ("at seven thirty in
  // the morning" only says which seven thirty).
  const nextMorning = words.nextMorning.exec(written.text);
  // "between 7 in the morning and 3 in the afternoon": a clock time said just before is qualified, whether or not it was read as one.
  const lastWordBefore = nextMorning ? /(\S+)\s*$/.exec(written.text.slice(0, nextMorning.index))?.[1]?.toLowerCase() ?? '' : '';
  const qualifiesAClockTime = /\d$/.test(lastWordBefore) || lastWordBefore in numbers.ones;
  if (nextMorning && !isPast && !qualifiesAClockTime && !found.some((mention) => mention.hasDay || mention.clock.hour !== undefined)) {
    found.push({ start: nextMorning.index, end: nextMorning.index + nextMorning[0].length, clock: { ...today, ...daysAfter(today, 1) }, hasDay: true, certainDate: true });
  }
  const ordered = withWeekdaysJoined(found.sort((first, second) => first.start - second.start), written.text);
  const anchor = earlierDay ? wallClockOfDay(earlierDay) : undefined;
  const dated = withRelativeAnchorsResolved(joinedDateAndTime(withWeekOfTheDaySaid(ordered, written.text, words, anchor), written.text), written.text, words, anchor);
  return dated.map((mention) => asDateMention(mention, sentence, written, clock, words));
}

/**
 * Whether a past-tense word is said as the past: not after a negated present perfect ("if it
 * hasn't arrived by the tenth, …" is about a day still ahead).
 */
function saysThePast(text: string, words: DateWords): boolean {
  const pastTense = new RegExp(words.pastTense.source, words.pastTense.flags.includes('g') ? words.pastTense.flags : `${words.pastTense.flags}g`);
  return [...text.matchAll(pastTense)].some((match) => !words.stillOpenBefore.test(text.slice(0, match.index)));
}

/**
 * "Tuesday the 1st of December": a weekday just before a full date ("the 1st of December" is read
 * apart, the weekday alone would be the next Tuesday) is part of it: one mention, the date's.
 */
function withWeekdaysJoined(found: readonly FoundDate[], text: string): FoundDate[] {
  const joined: FoundDate[] = [];
  for (const mention of found) {
    const previous = joined.at(-1);
    if (previous && previous.hasDay && !previous.certainDate && mention.certainDate && /^,?\s+(?:the\s+)?$/i.test(text.slice(previous.end, mention.start))) {
      joined[joined.length - 1] = { ...mention, start: previous.start };
    } else {
      joined.push(mention);
    }
  }
  return joined;
}

/** A weekday "of the week talked about" is at most this many days either side of the day said before. */
const HALF_A_WEEK_DAYS = 3;

/**
 * "I'll send you a text reminder on the Monday" after "Tuesday the nineteenth": a weekday said
 * after the lexicon's `weekdayOfTheWeekSaid` words is that weekday in the week of the day said
 * before (the nearest one to it, earlier on a tie), not the next one from the call's date.
 */
function withWeekOfTheDaySaid(found: readonly FoundDate[], text: string, words: DateWords, earlierDay: WallClock | undefined): FoundDate[] {
  if (!earlierDay) return [...found];
  return found.map((mention) => {
    const weekday = words.weekdays.indexOf(text.slice(mention.start, mention.end).trim().toLowerCase());
    if (mention.certainDate || weekday < 0 || !words.weekdayOfTheWeekSaid.test(text.slice(0, mention.start))) return mention;
    const anchorIndex = new Date(Date.UTC(earlierDay.year, earlierDay.month - 1, earlierDay.day)).getUTCDay();
    // weekdays[] starts on Monday; getUTCDay() on Sunday.
    let offset = ((weekday + 1) % DAYS_PER_WEEK) - anchorIndex;
    if (offset > HALF_A_WEEK_DAYS) offset -= DAYS_PER_WEEK;
    if (offset < -HALF_A_WEEK_DAYS) offset += DAYS_PER_WEEK;
    return { ...mention, clock: { ...mention.clock, ...daysAfter(earlierDay, offset) } };
  });
}

/** Sentences back a day said may anchor "the day before" in a later sentence ("Friday at 8:20?" … "I'll text you a reminder the day before"). */
const RELATIVE_ANCHOR_LOOK_BACK = 10;

/**
 * The mentions of each sentence of a call, in order: as {@link findDateMentions}, and a date said
 * relative to another ("the day before") with none in its own sentence is set from the last day
 * said in the {@link RELATIVE_ANCHOR_LOOK_BACK} sentences before it; and a day corrected by the
 * next sentence of the same speaker ("Thursday the fourth at half four. Sorry, the third, Thursday
 * the third.") is the corrected day, at the time first said (see {@link withDayRepaired}).
 * `speakers`, when given, holds each sentence's speaker: only a speaker corrects their own day
 * ("I can do Thursday the fourth." – "Sorry, Friday the fifth would suit me better" is a counter-proposal).
 */
export function findCallDateMentions(
  sentences: readonly string[], clock: CallClock, words: DateWords, numbers: NumberWords = englishNumberWords, speakers?: readonly string[],
): DateMention[][] {
  let last: { date: string; at: number } | undefined;
  const found = sentences.map((sentence, at) => {
    const earlierDay = last && at - last.at <= RELATIVE_ANCHOR_LOOK_BACK ? last.date : undefined;
    const mentions = findDateMentions(sentence, clock, words, numbers, earlierDay);
    // "Today", "this morning" and "the weekend" fix no day a later "the day before" or "that
    // afternoon" is counted from: those point back to a day talked about; so does a day itself
    // counted from another ("fast the night before" … "a call that afternoon": the appointment's).
    const relative = Object.keys(words.relativeAnchors);
    // "The day after tomorrow" is counted from today, not from a day talked about.
    const fixedOffsets = Object.keys(words.dayOffsets.fromToday);
    const isRelative = (mention: DateMention) => {
      const said = fixedOffsets.reduce((text, phrase) => text.replace(phrase, ' '), mention.text.toLowerCase());
      return relative.some((phrase) => said.includes(phrase));
    };
    const anchors = mentions.filter((mention) => mention.date !== null && !mention.isVague && !words.partsOfToday.test(mention.text.trim()));
    const day = anchors.filter((mention) => !isRelative(mention)).at(-1)?.date;
    if (day) last = { date: day, at };
    // "Save time on the day", "fast the night before": the day talked about, said again or
    // counted from, stays the one to count from.
    else if (last && anchors.some((mention) => mention.date === last!.date || isRelative(mention))) last = { ...last, at };
    return mentions;
  });
  const sameSpeaker = (at: number) => speakers === undefined || speakers[at] === speakers[at + 1];
  return found.map((mentions, at) => (sameSpeaker(at) ? withDayRepaired(mentions, sentences[at + 1], found[at + 1], clock, words) : mentions));
}

/**
 * A sentence's mentions with the last dated one moved to the day the next sentence corrects it to,
 * when that sentence opens as a correction (`DateWords.selfRepair`), says a day and asks nothing
 * ("Sorry, the third?" checks, it does not correct): the time first said stays ("Thursday the
 * fourth at half four. Sorry, the third" → the third at 16:30).
 */
function withDayRepaired(mentions: DateMention[], next: string | undefined, nextMentions: readonly DateMention[] | undefined, clock: CallClock, words: DateWords): DateMention[] {
  const corrects = next !== undefined && words.selfRepair.test(next) && !/\?["'”’)]*\s*$/.test(next);
  const repaired = corrects ? nextMentions?.find((mention) => mention.date !== null) : undefined;
  const wrong = mentions.findLast((mention) => mention.date !== null);
  if (!repaired?.date || !wrong || wrong.date === repaired.date) return mentions;
  const [hour, minute] = (repaired.time ?? wrong.time)?.split(':').map(Number) ?? [];
  const day = { ...wallClockOfDay(repaired.date), ...(hour !== undefined ? { hour, minute: minute ?? 0 } : {}) };
  const fixed: DateMention = { ...wrong, date: repaired.date, time: repaired.time ?? wrong.time, dateTime: hour !== undefined ? isoDateTimeWithOffset(day, clock.timeZone) : null };
  return mentions.map((mention) => (mention === wrong ? fixed : mention));
}

/** `DateWords.partsOfToday` found anywhere in a mention ("this afternoon at four"), not only as all of it. */
const partOfTodayWithin = oncePer((words: DateWords) => new RegExp(`\\b${words.partsOfToday.source.replace(/^\^/, '').replace(/\$$/, '')}\\b`, words.partsOfToday.flags));

function chronoMentions(text: string, clock: CallClock, words: DateWords, today: WallClock): FoundDate[] {
  const reference = { instant: new Date(clock.recordedAt), timezone: clock.offsetMinutes };
  let backward: ParsedResult[] | undefined;
  return words.parser.parse(text, reference, { forwardDate: true }).flatMap((result) => {
    let chosen = result;
    if (words.pastCue.test(result.text)) {
      backward ??= words.parser.parse(text, reference);
      chosen = backward.find((candidate) => candidate.index === result.index) ?? result;
    }
    const said = chosen.text.replace(/[\s,;:.]+$/, '');
    // "If anything opens up earlier in the week": chrono's "a week from now" is no day said.
    if (words.noDaySaid.test(said)) return [];
    if (words.partsOfToday.test(said)) return [{ start: chosen.index, end: chosen.index + said.length, clock: today, hasDay: true, certainDate: true }];
    const wallClock = wallClockOf(chosen, words, text);
    if (!wallClock) return [];
    const saysDay = chosen.start.isCertain('day') || chosen.start.isCertain('weekday');
    // "this afternoon at four": a time on a part of the call's day is on the call's date.
    if (!saysDay && partOfTodayWithin(words).test(said)) {
      return [{ start: chosen.index, end: chosen.index + said.length, clock: { ...today, hour: wallClock.hour, minute: wallClock.minute }, hasDay: true, certainDate: true }];
    }
    const hasDay = saysDay;
    // "You'll have it Wednesday", said on a Wednesday: a weekday said alone is the coming one, not
    // today (in a sentence about what is still to happen).
    const weekdayAlone = chosen.start.isCertain('weekday') && !chosen.start.isCertain('day') && !words.thisWeekday.test(said) && !saysThePast(text, words);
    if (weekdayAlone && wallClock.year === today.year && wallClock.month === today.month && wallClock.day === today.day) {
      return [{ start: chosen.index, end: chosen.index + said.length, clock: { ...wallClock, ...daysAfter(wallClock, DAYS_PER_WEEK) }, hasDay, certainDate: false }];
    }
    // chrono may take the comma after a date ("Monday, it's urgent"). A day of the month without
    // its month ("Tuesday the 8th") is not certain: chrono may put it in a month gone by, and the
    // days-of-month reading finds the next one (falling on the weekday said).
    const certainDate = chosen.start.isCertain('day') && chosen.start.isCertain('month');
    return [{ start: chosen.index, end: chosen.index + said.length, clock: wallClock, hasDay, certainDate }];
  });
}

function asDateMention(mention: FoundDate, sentence: string, written: DigitWritten, clock: CallClock, words: DateWords): DateMention {
  const start = written.startIn(mention.start);
  const end = written.endIn(mention.end);
  const prefix = words.deadlinePrefix.exec(sentence.slice(0, start))?.[0] ?? '';
  const said = sentence.slice(start, end);
  // "Before the weekend" is done by the Friday: the day before the weekend's Saturday.
  const dayBefore = /^before\b/i.test(prefix) && words.weekend.test(said);
  const day = mention.hasDay && dayBefore ? { ...mention.clock, ...daysAfter(mention.clock, -1) } : mention.clock;
  return {
    text: sentence.slice(start - prefix.length, end),
    index: start - prefix.length,
    date: mention.hasDay ? isoDate(day) : null,
    time: isoTime(mention.clock),
    dateTime: mention.hasDay ? isoDateTimeWithOffset(day, clock.timeZone) : null,
    // A deadline word may open the mention itself ("by then", a date relative to another).
    isDeadline: prefix !== '' || words.deadlinePrefix.test(`${said.split(/\s+/)[0] ?? ''} `),
    isVague: words.vague.test(said.trim()),
  };
}

/** `YYYY-MM-DD` as a wall clock. */
function wallClockOfDay(date: string): WallClock {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return { year, month, day };
}

/**
 * Bare hours that the sentence's morning can keep in the morning when the time itself does not say
 * it ("Drop it off any time from quarter to eight that morning", "first thing, drop-off's at seven
 * thirty"): an early start. Earlier afternoon hours ("Monday morning, or Tuesday at four") stay
 * afternoon.
 */
const EARLY_MORNING_HOURS = { first: 5, last: 7 } as const;

/** The local date (and time, when said) of a result, or null when it is not a date worth keeping. */
function wallClockOf(result: ParsedResult, words: DateWords, sentence: string): WallClock | null {
  const { start } = result;
  const tags = result.tags();
  if (tags.has('result/relativeDateAndTime') || tags.has('casualReference/now')) return null;
  const hasDay = start.isCertain('day') || start.isCertain('weekday');
  const hasTime = start.isCertain('hour');
  if (!hasDay && !hasTime) return null;
  if (!words.anchor.test(result.text)) return null;
  if (!hasDay && !words.timeAnchor.test(result.text)) return null;
  const clock: WallClock = { year: start.get('year') ?? 0, month: start.get('month') ?? 1, day: start.get('day') ?? 1 };
  if (hasTime) {
    let hour = start.get('hour') ?? 0;
    const earlyInAMorningSentence = hour >= EARLY_MORNING_HOURS.first && hour <= EARLY_MORNING_HOURS.last
      && words.morningCue.test(sentence) && !words.laterPartOfDayCue.test(sentence);
    const afternoon = !start.isCertain('meridiem') && !words.morningCue.test(result.text) && !earlyInAMorningSentence;
    if (afternoon && hour >= BARE_AFTERNOON_HOURS.first && hour <= BARE_AFTERNOON_HOURS.last) hour += HOURS_TO_AFTERNOON;
    clock.hour = hour;
    clock.minute = start.get('minute') ?? 0;
  }
  return clock;
}
