import type { ExportSegment } from './CallExport.js';
import { formatCueTime } from './formatTimestamp.js';

/**
 * SubRip subtitles: one numbered cue per segment, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, then
 * `Name: text`, cues separated by a blank line. SubRip has no escape syntax, so an arrow `-->`
 * said in the text (which parsers take for a timing line) is written `→`; segment text is
 * already on one line, so no blank line can end a cue early.
 */
export function renderSrt(segments: readonly ExportSegment[]): string {
  return segments.map((segment, index) => [
    String(index + 1),
    `${formatCueTime(segment.startSeconds, ',')} --> ${formatCueTime(segment.endSeconds, ',')}`,
    withoutArrows(`${segment.speaker}: ${segment.text}`),
    '',
  ].join('\n')).join('\n');
}

function withoutArrows(text: string): string {
  return text.replaceAll('-->', '→');
}
