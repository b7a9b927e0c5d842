import type { ExportSegment } from './CallExport.js';
import { formatCueTime } from './formatTimestamp.js';

/**
 * WebVTT captions: the `WEBVTT` header, then one cue per segment, identified by its segment id
 * (`seg_0001`, the id the analysis cites), timed `HH:MM:SS.mmm --> HH:MM:SS.mmm`, its text in a
 * voice span `<v Name>text`. `&`, `<` and `>` are written as character references in names and
 * text alike, which also keeps an arrow `-->` out of the cue text.
 */
export function renderVtt(segments: readonly ExportSegment[]): string {
  const cues = segments.map((segment) => [
    segment.id,
    `${formatCueTime(segment.startSeconds, '.')} --> ${formatCueTime(segment.endSeconds, '.')}`,
    `<v ${escapeCueText(segment.speaker)}>${escapeCueText(segment.text)}`,
    '',
  ].join('\n'));
  return ['WEBVTT', '', ...cues].join('\n');
}

function escapeCueText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
