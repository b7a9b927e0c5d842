/** Calendar arithmetic in a named (IANA) time zone, with `Intl` only. */

/** `YYYY-MM-DD` of `instant` as a wall calendar in `timeZone` shows it. */
export function calendarDateIn(instant: Date, timeZone: string): string {
  const parts = partsIn(instant, timeZone);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Minutes `timeZone` is ahead of UTC at `instant` (e.g. 60 for Europe/Berlin in winter). */
export function zoneOffsetMinutes(timeZone: string, instant: Date): number {
  const parts = partsIn(instant, timeZone);
  const wallClockAsUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second));
  return Math.round((wallClockAsUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

function partsIn(instant: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const formatter = new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  });
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}
