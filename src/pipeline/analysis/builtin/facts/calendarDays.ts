import { anyOfWords, oncePer } from '../../text/regexWords.js';
import type { WallClock } from '../../text/timeZones.js';
import type { DateWords } from './FactLexicon.js';

/**
 * The calendar reasoning chrono leaves out, over mentions found in a sentence whose spoken
 * numbers are written in digits (see `withSpokenDatesInDigits`).
 */

/** A date or time found in the sentence, in the coordinates of the text searched. */
export interface FoundDate {
  start: number;
  end: number;
  clock: WallClock;
  hasDay: boolean;
  /** Said with its month or as a day of the month (not only a weekday): a later reading does not replace it. */
  certainDate: boolean;
}

/** A day of the month said alone is looked for this many months ahead (or back): every day up to the 31st occurs in a year. */
const MONTHS_SEARCHED = 12;
const DAYS_PER_WEEK = 7;

/**
 * What may stand between a date and a time that belong together ("Friday the 24th *at* 11", "noon
 * *on* the 15th", "the day after tomorrow, *drop-off at* seven thirty", "Tuesday the eighth, *in
 * for* eight o'clock": the time one arrives).
 */
const JOINER = /^\s*,?\s*(?:(?:drop[- ]?off|arrive|arrival|check[- ]?in|starting|start|in|there|here)\s+)?(?:at|on|for|by)?\s*$/i;

const dayOfMonthPattern = oncePer((words: DateWords) =>
  new RegExp(`(?:\\b(?<weekday>${anyOfWords(words.weekdays)}),?\\s+)?\\bthe\\s+(?<day>\\d{1,2})(?:st|nd|rd|th)\\b`, 'gi'));
const relativeAnchorPattern = oncePer((words: DateWords) => new RegExp(`\\b(?:${anyOfWords(Object.keys(words.relativeAnchors))})\\b`, 'gi'));

/**
 * The days of the month said without a month: "the 15th", "Friday the 24th", "the 1st of the
 * month" (a month named after it is chrono's: "the 24th of March"). Resolved to the next such
 * day from `today` on (the last one up to `today` when `past`), or the one in next month ("the
 * 15th of next month"); with a weekday, the next (or last) one falling on it.
 */
export function daysOfMonth(text: string, words: DateWords, today: WallClock, past: boolean): FoundDate[] {
  const found: FoundDate[] = [];
  for (const match of text.matchAll(dayOfMonthPattern(words))) {
    const end = match.index + match[0].length;
    const ofMonth = words.ofWhichMonth.exec(text.slice(end));
    if (!ofMonth && /^\s+of\b/i.test(text.slice(end))) continue;
    const day = Number(match.groups?.day);
    const weekdayIndex = words.weekdays.indexOf((match.groups?.weekday ?? '').toLowerCase());
    const from = ofMonth?.groups?.next === undefined ? today : { year: today.year + (today.month === 12 ? 1 : 0), month: (today.month % 12) + 1, day: 1 };
    const clock = dayOfMonthFrom(from, day, past && !ofMonth, weekdayIndex === -1 ? null : (weekdayIndex + 1) % DAYS_PER_WEEK);
    if (clock) found.push({ start: match.index, end: end + (ofMonth?.[0].length ?? 0), clock, hasDay: true, certainDate: true });
  }
  return found;
}

/** The first date with that day of the month from `today` on (or back), on `weekday` (0 = Sunday) when given. */
function dayOfMonthFrom(today: WallClock, day: number, past: boolean, weekday: number | null): WallClock | null {
  const candidates: WallClock[] = [];
  for (let step = 0; step <= MONTHS_SEARCHED; step++) {
    const monthStart = new Date(Date.UTC(today.year, today.month - 1 + (past ? -step : step), 1));
    const date = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth(), day));
    if (date.getUTCMonth() !== monthStart.getUTCMonth()) continue; // no 31st in this month
    const clock = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day };
    const order = compare(clock, today);
    if (past ? order > 0 : order < 0) continue;
    candidates.push(clock);
    if (weekday === null || date.getUTCDay() === weekday) return clock;
  }
  return candidates[0] ?? null;
}

/** The calendar day `days` away from `from` (year, month, day only; negative goes back). */
export function daysAfter(from: Pick<WallClock, 'year' | 'month' | 'day'>, days: number): WallClock {
  const date = new Date(Date.UTC(from.year, from.month - 1, from.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

const compare = (first: WallClock, second: WallClock) =>
  Date.UTC(first.year, first.month - 1, first.day) - Date.UTC(second.year, second.month - 1, second.day);

const dayOnly = (date: FoundDate) => date.hasDay && date.clock.hour === undefined;
const timeOnly = (date: FoundDate) => !date.hasDay && date.clock.hour !== undefined;

/** Mentions in order with a day said beside a time joined into one ("Wednesday the 25th at 10:15", "noon on the 15th"). */
export function joinedDateAndTime(found: readonly FoundDate[], text: string): FoundDate[] {
  const joined: FoundDate[] = [];
  for (const mention of found) {
    const previous = joined.at(-1);
    const onePerKind = previous && ((dayOnly(previous) && timeOnly(mention)) || (timeOnly(previous) && dayOnly(mention)));
    if (previous && onePerKind && JOINER.test(text.slice(previous.end, mention.start))) {
      const [day, time] = previous.hasDay ? [previous, mention] : [mention, previous];
      joined[joined.length - 1] = {
        start: previous.start, end: mention.end, hasDay: true, certainDate: day.certainDate,
        clock: { ...day.clock, hour: time.clock.hour, minute: time.clock.minute },
      };
    } else joined.push(mention);
  }
  return joined;
}

/**
 * Mentions with each date relative to another ("the day before") set from another date said in
 * the sentence, else from `earlierDay` (the last day said before the sentence), and dropped when
 * there is neither: chrono reads it against the call's date, which is not what was meant.
 */
export function withRelativeAnchorsResolved(found: readonly FoundDate[], text: string, words: DateWords, earlierDay?: WallClock): FoundDate[] {
  // "The day after tomorrow" is a fixed offset from the call's day (dayOffsets.ts), not "the day after" a date.
  const fixedOffsets = Object.keys(words.dayOffsets.fromToday);
  const anchors = [...text.matchAll(relativeAnchorPattern(words))]
    .filter((anchor) => !fixedOffsets.some((phrase) => text.slice(anchor.index, anchor.index + phrase.length).toLowerCase() === phrase));
  if (anchors.length === 0) return [...found];
  const inAnchor = (mention: FoundDate) => anchors.some((anchor) => mention.start < anchor.index + anchor[0].length && anchor.index < mention.end);
  const kept = found.filter((mention) => !inAnchor(mention));
  const baseClock = kept.find((mention) => mention.hasDay)?.clock ?? earlierDay;
  if (!baseClock) return kept;
  const base = { clock: baseClock };
  const resolved = anchors.map((anchor): FoundDate => {
    const offset = words.relativeAnchors[anchor[0].toLowerCase()] ?? 0;
    return { start: anchor.index, end: anchor.index + anchor[0].length, hasDay: true, certainDate: true, clock: daysAfter(base.clock, offset) };
  });
  return [...kept, ...resolved].sort((first, second) => first.start - second.start);
}
