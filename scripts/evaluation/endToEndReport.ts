/**
 * What `npm run eval:end-to-end` prints of a transcript and an analysis: figures of the
 * transcript, who its speakers were taken for, and the analysis fields a reader compares.
 */
import type { Analysis } from '../../src/domain/analysis/analysisSchema.js';
import type { Transcript } from '../../src/domain/transcripts/transcriptSchema.js';

export interface TranscriptFacts {
  language: string;
  /** Words as the transcript writes them (whitespace-separated, before any normalisation). */
  words: number;
  /** Speakers with at least one segment. */
  speakers: number;
  segments: number;
  /** Segments by their alignment confidence (HIGH, MEDIUM, LOW, NONE). */
  confidences: Record<string, number>;
  /** Every segment carries a speaker that the transcript's speaker list names. */
  attributed: boolean;
}

export function transcriptFacts(transcript: Transcript): TranscriptFacts {
  const listed = new Set(transcript.speakers.map((speaker) => speaker.speakerId));
  const confidences: Record<string, number> = {};
  for (const segment of transcript.segments) confidences[segment.alignmentConfidence] = (confidences[segment.alignmentConfidence] ?? 0) + 1;
  return {
    language: transcript.language,
    words: transcript.segments.reduce((sum, segment) => sum + segment.text.split(/\s+/).filter(Boolean).length, 0),
    speakers: new Set(transcript.segments.map((segment) => segment.speakerId)).size,
    segments: transcript.segments.length,
    confidences,
    attributed: transcript.segments.every((segment) => listed.has(segment.speakerId)),
  };
}

/** A transcript speaker as a reader sees them: `Diane (USER, USER_PROFILE)`; `nobody` for none. */
export function speakerAsShown(transcript: Transcript, speakerId: string | null | undefined): string {
  const speaker = transcript.speakers.find((candidate) => candidate.speakerId === speakerId);
  return speaker ? `${speaker.displayName} (${speaker.role}, ${speaker.labelSource})` : 'nobody';
}

/** The transcript's text, one line per segment: `[start–end] Speaker: text`. */
export function transcriptLines(transcript: Transcript): string[] {
  return transcript.segments.map((segment) => `[${segment.startSeconds.toFixed(2)}–${segment.endSeconds.toFixed(2)}] ${segment.speakerDisplayName}: ${segment.text}`);
}

/**
 * The analysis fields a reader compares, each as one line of text, in reading order: the
 * headline fields, the action items with their owners, the people mentioned, sentiment, tone
 * and tags.
 */
export function analysisDigest(analysis: Analysis): [field: string, text: string][] {
  const list = (items: readonly string[] | undefined | null) => (items && items.length > 0 ? items.join('; ') : '(none)');
  return [
    ['callType', analysis.callType ?? '(null)'],
    ['suggestedTitle', analysis.suggestedTitle ?? '(null)'],
    ['oneLineSummary', analysis.oneLineSummary ?? '(null)'],
    ['conversationOutcome', analysis.conversationOutcome ?? '(null)'],
    ['executiveSummary', analysis.executiveSummary ?? '(null)'],
    ['actionItems', list(analysis.actionItems?.map((item) => `${item.title} [owner: ${item.ownerDisplayName ?? 'none'}]`))],
    ['peopleMentioned', list(analysis.peopleMentioned?.map((person) => `${person.name} (${person.relation})`))],
    ['sentiment', analysis.sentiment ? `${analysis.sentiment.overall} (${analysis.sentiment.score ?? 'null'})` : '(null)'],
    ['tone', analysis.tone?.overall ?? '(null)'],
    ['tags', list(analysis.tags)],
  ];
}

/** Whether two analyses read the same in every digest field, and the fields where they do not. */
export function digestDifferences(first: Analysis, second: Analysis): string[] {
  const other = new Map(analysisDigest(second));
  return analysisDigest(first).filter(([field, text]) => other.get(field) !== text).map(([field]) => field);
}
