import type { CallExport } from './CallExport.js';
import { formatClockTime } from './formatTimestamp.js';

/**
 * The plain-text transcript: a header (title, recording time, direction, duration,
 * participants), a blank line, then one `[HH:MM:SS] Name: text` line per segment.
 */
export function renderTxt(call: CallExport): string {
  const header = [
    call.title,
    `Date: ${recordedLine(call)}`,
    `Direction: ${call.direction.toLowerCase()}`,
    ...(call.durationSeconds !== null ? [`Duration: ${formatClockTime(call.durationSeconds)}`] : []),
    `Participants: ${call.participants.length > 0 ? call.participants.join(', ') : 'unknown'}`,
  ];
  const lines = call.segments.map((segment) => `[${formatClockTime(segment.startSeconds)}] ${segment.speaker}: ${segment.text}`);
  return `${[...header, '', ...lines].join('\n')}\n`;
}

/** `2026-11-20 14:05 (Europe/Berlin)`. */
export function recordedLine(call: CallExport): string {
  return `${call.recorded.date} ${call.recorded.time} (${call.recorded.timeZone})`;
}
