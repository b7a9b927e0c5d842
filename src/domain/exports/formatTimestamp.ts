const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * `HH:MM:SS` of an offset in seconds, truncated to the whole second (TXT lines, DOCX transcript):
 * 62.9 → `00:01:02`. Hours keep counting past 99 rather than wrapping.
 */
export function formatClockTime(seconds: number): string {
  const whole = Math.floor(Math.max(0, seconds));
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
}

/**
 * A cue time `HH:MM:SS<separator>mmm` of an offset in seconds, rounded to the millisecond:
 * SubRip separates the milliseconds with `,`, WebVTT with `.`.
 */
export function formatCueTime(seconds: number, separator: ',' | '.'): string {
  const milliseconds = Math.round(Math.max(0, seconds) * 1000);
  return `${formatClockTime(Math.floor(milliseconds / 1000))}${separator}${pad(milliseconds % 1000, 3)}`;
}
