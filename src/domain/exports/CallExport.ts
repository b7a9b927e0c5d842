import type { ActionItemRecord } from '../actions/ActionItemRepository.js';
import type { CallRecord } from '../calls/callTypes.js';
import type { VersionedDocument } from '../calls/storeCallResults.js';
import type { Transcript } from '../transcripts/transcriptSchema.js';

/** One transcript segment as the exports show it: one line of text, never empty. */
export interface ExportSegment {
  /** `seg_NNNN`, the id the analysis cites. */
  id: string;
  /** Seconds from the start of the recording; `endSeconds` is never before `startSeconds`. */
  startSeconds: number;
  endSeconds: number;
  /** The speaker's display name as the stored transcript has it (after any correction). */
  speaker: string;
  text: string;
}

export interface ExportActionItem {
  title: string;
  /** The owner's display name (or label at extraction time); null when nobody was named. */
  owner: string | null;
  /** `YYYY-MM-DD`, or null when no date was resolved. */
  dueDate: string | null;
  status: ActionItemRecord['status'];
}

/**
 * The summary, from either stored analysis version: v2 has prose (`executiveSummary`) and
 * bullets (`executiveSummaryBullets`), v1 only prose (`summary`).
 */
export interface ExportSummary {
  bullets: string[];
  /** The prose summary's paragraphs, each on one line; empty when there is none. */
  paragraphs: string[];
}

/** Everything a transcript export shows, in display form: the input of every renderer. */
export interface CallExport {
  title: string;
  /** When the call was recorded (its upload time when the client did not say), on the wall clock of `timeZone`. */
  recorded: { date: string; time: string; timeZone: string };
  direction: CallRecord['direction'];
  contactName: string | null;
  /** Whole seconds of audio; null when unknown. */
  durationSeconds: number | null;
  /** Display names of the transcript's speakers, each once; the contact's name when the transcript names nobody. */
  participants: string[];
  summary: ExportSummary;
  actionItems: ExportActionItem[];
  segments: ExportSegment[];
}

export interface CallExportSources {
  call: CallRecord;
  transcript: Transcript;
  /** The stored analysis, v1 or v2. */
  analysis: VersionedDocument;
  actionItems: readonly ActionItemRecord[];
  /** IANA zone the recording time is shown in (the box's: `ANALYSIS_TIME_ZONE`). */
  timeZone: string;
}

/** Builds the display form of a completed call from its stored records. */
export function toCallExport({ call, transcript, analysis, actionItems, timeZone }: CallExportSources): CallExport {
  const speakerNames = unique(transcript.speakers.map((speaker) => oneLine(speaker.displayName)).filter((name) => name !== ''));
  return {
    title: oneLine(call.title),
    recorded: { ...wallClockIn(call.recordedAt ?? call.createdAt, timeZone), timeZone },
    direction: call.direction,
    contactName: call.contactName !== null ? oneLine(call.contactName) : null,
    durationSeconds: call.durationSeconds ?? (transcript.durationSeconds > 0 ? Math.round(transcript.durationSeconds) : null),
    participants: speakerNames.length > 0 ? speakerNames : (call.contactName ? [oneLine(call.contactName)] : []),
    summary: summaryOf(analysis),
    actionItems: actionItems.map((item) => ({
      title: oneLine(item.title),
      owner: nonEmpty(oneLine(item.ownerDisplayName ?? item.ownerSpeakerLabel ?? '')),
      dueDate: item.dueDate,
      status: item.status,
    })),
    segments: transcript.segments.flatMap((segment) => {
      const text = oneLine(segment.text);
      if (text === '') return [];
      return [{
        id: segment.id,
        startSeconds: segment.startSeconds,
        endSeconds: Math.max(segment.startSeconds, segment.endSeconds),
        speaker: oneLine(segment.speakerDisplayName) || oneLine(segment.speakerLabel) || 'Unknown speaker',
        text,
      }];
    }),
  };
}

/**
 * Text on one line: control characters and line breaks become spaces, runs of white space one
 * space. Every format relies on it (a line break would end an SRT/VTT cue or a TXT line early,
 * and a control character is not allowed in DOCX's XML).
 */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
}

function summaryOf(analysis: VersionedDocument): ExportSummary {
  const bullets = Array.isArray(analysis.executiveSummaryBullets)
    ? analysis.executiveSummaryBullets.flatMap((bullet: unknown) => {
      const text = isRecord(bullet) && typeof bullet.text === 'string' ? oneLine(bullet.text) : '';
      return text === '' ? [] : [text];
    })
    : [];
  const prose = [analysis.executiveSummary, analysis.summary, analysis.oneLineSummary]
    .find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const paragraphs = (prose ?? '').split(/\n\s*\n/).map(oneLine).filter((paragraph) => paragraph !== '');
  return { bullets, paragraphs };
}

function nonEmpty(text: string): string | null {
  return text === '' ? null : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** `YYYY-MM-DD` and `HH:MM` (24 h) of an instant (ms since the epoch) in an IANA zone. */
function wallClockIn(instant: number, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '00';
  // Some engines write midnight as hour 24 even with `h23`.
  const hour = part('hour') === '24' ? '00' : part('hour');
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${hour}:${part('minute')}` };
}
