import type { ParsedResult } from 'chrono-node';
import type { DateWords } from './FactLexicon.js';
import { isoDate, isoDateTimeWithOffset, isoTime, type WallClock } from './zonedTime.js';

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

/**
 * Hours said without am/pm that are read as afternoon: "at 3" in a business call means 15:00,
 * not 03:00. From 8 on, a bare hour stays morning ("at 9" is 09:00); 12 is noon.
 */
export const BARE_AFTERNOON_HOURS = { first: 1, last: 7 } as const;
const HOURS_TO_AFTERNOON = 12;

/**
 * The dates and times said in one sentence, by chrono with `forwardDate` ("Friday" is the next
 * Friday; "last Friday" and "two days ago" are parsed backwards). chrono's casual parser also
 * reads things that are no date, so a mention is kept only when
 * - it fixes a day (a date or weekday) or a time of day: "next month" (no day) and "this week" are not;
 * - it is no offset of seconds, minutes or hours ("in a sec", "in 30 minutes": durations, not dates) and not "now";
 * - its words contain a day anchor (weekday, month, "tomorrow", a digit: drops "sat", "sun");
 * - a time said without a day looks like a time ("at 3", "3pm", "10:30": drops "10 to 5").
 * A bare hour from {@link BARE_AFTERNOON_HOURS} is afternoon.
 */
export function findDateMentions(sentence: string, clock: CallClock, words: DateWords): DateMention[] {
  const reference = { instant: new Date(clock.recordedAt), timezone: clock.offsetMinutes };
  const forward = words.parser.parse(sentence, reference, { forwardDate: true });
  let backward: ParsedResult[] | undefined;
  return forward.flatMap((result) => {
    let chosen = result;
    if (words.pastCue.test(result.text)) {
      backward ??= words.parser.parse(sentence, reference);
      chosen = backward.find((candidate) => candidate.index === result.index) ?? result;
    }
    const wallClock = wallClockOf(chosen, words);
    if (!wallClock) return [];
    const prefix = words.deadlinePrefix.exec(sentence.slice(0, chosen.index))?.[0] ?? '';
    const hasDay = chosen.start.isCertain('day') || chosen.start.isCertain('weekday');
    // chrono may take the comma after a date ("Monday, it's urgent").
    const said = chosen.text.replace(/[\s,;:.]+$/, '');
    return [{
      text: sentence.slice(chosen.index - prefix.length, chosen.index + said.length),
      index: chosen.index - prefix.length,
      date: hasDay ? isoDate(wallClock) : null,
      time: isoTime(wallClock),
      dateTime: hasDay ? isoDateTimeWithOffset(wallClock, clock.timeZone) : null,
      isDeadline: prefix !== '',
      isVague: words.vague.test(chosen.text.trim()),
    }];
  });
}

/** The local date (and time, when said) of a result, or null when it is not a date worth keeping. */
function wallClockOf(result: ParsedResult, words: DateWords): WallClock | null {
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
    if (!start.isCertain('meridiem') && hour >= BARE_AFTERNOON_HOURS.first && hour <= BARE_AFTERNOON_HOURS.last) hour += HOURS_TO_AFTERNOON;
    clock.hour = hour;
    clock.minute = start.get('minute') ?? 0;
  }
  return clock;
}
