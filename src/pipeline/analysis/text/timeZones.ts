/**
 * Wall-clock arithmetic in an IANA time zone with `Intl` only (no time-zone library), for the
 * built-in analyser and the grounding filter: dates said in a call ("next Tuesday at 3") are
 * local times of the box's zone, stored as `YYYY-MM-DD`, `HH:MM` and ISO date-times carrying the
 * zone's offset on that day.
 */

/** A local date, and a time of day when one was said: month 1-12, hour 0-23. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
}

const MS_PER_MINUTE = 60_000;
const HOURS_PER_DAY = 24;

/** Formatters are costly to build and a call asks for the same zone many times. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

type ClockPart = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/** The wall clock of `instant` in the zone, as numbers. */
function partsIn(timeZone: string, instant: Date | number): Record<ClockPart, number> {
  const parts = formatterFor(timeZone).formatToParts(typeof instant === 'number' ? new Date(instant) : instant);
  const part = (type: ClockPart) => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
  // Some engines write midnight as hour 24 even with `h23`.
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour') % HOURS_PER_DAY, minute: part('minute'), second: part('second') };
}

/** Whether `Intl` knows the zone (an unknown one throws a RangeError). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Minutes the zone is ahead of UTC at `instant` (a Date or ms since the epoch): 60 for Berlin in winter, -300 for New York. */
export function zoneOffsetMinutes(timeZone: string, instant: Date | number): number {
  const at = typeof instant === 'number' ? instant : instant.getTime();
  const parts = partsIn(timeZone, at);
  const localAsUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const wholeSeconds = Math.floor(at / 1000) * 1000;
  return Math.round((localAsUtc - wholeSeconds) / MS_PER_MINUTE);
}

/** `YYYY-MM-DD` of `instant` as a wall calendar in `timeZone` shows it. */
export function calendarDateIn(instant: Date | number, timeZone: string): string {
  return isoDate(partsIn(timeZone, instant));
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `YYYY-MM-DD`. */
export function isoDate(clock: WallClock): string {
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

/** `HH:MM`, or null when no time was said. */
export function isoTime(clock: WallClock): string | null {
  return clock.hour === undefined ? null : `${pad(clock.hour)}:${pad(clock.minute ?? 0)}`;
}

/**
 * `YYYY-MM-DDTHH:MM:00+HH:MM` for a local date and time in the zone, with the offset the zone
 * has at that moment (not at the call's): a date said before a daylight-saving change and meant
 * after it keeps its wall-clock time. Null without a time.
 */
export function isoDateTimeWithOffset(clock: WallClock, timeZone: string): string | null {
  const time = isoTime(clock);
  if (time === null) return null;
  const localAsUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour ?? 0, clock.minute ?? 0);
  // Two passes: the first guess may sit on the other side of a change of offset.
  const firstGuess = zoneOffsetMinutes(timeZone, localAsUtc);
  const offset = zoneOffsetMinutes(timeZone, localAsUtc - firstGuess * MS_PER_MINUTE);
  const sign = offset < 0 ? '-' : '+';
  const magnitude = Math.abs(offset);
  return `${isoDate(clock)}T${time}:00${sign}${pad(Math.floor(magnitude / 60))}:${pad(magnitude % 60)}`;
}
