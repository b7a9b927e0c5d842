import {
  normalizationVersion, transcriptSchemaVersion,
  type PipelineProvenance, type Segment, type Speaker, type SpeakerResolution, type Transcript,
} from '../../domain/transcripts/transcriptSchema.js';
import { alignmentVersion, type AlignedWord, type AlignmentConfidence } from '../alignment/alignWordsToSpeakers.js';
import type { Diarization, Transcription } from '../speechTypes.js';

export interface SegmentationOptions {
  /** A pause longer than this starts a new segment even for the same speaker, seconds. Defaults to `2`. */
  maxPauseSeconds?: number;
  /** A segment longer than this is cut at the next sentence end (or hard at 1.5 times it), seconds. Defaults to `30`. */
  maxSegmentSeconds?: number;
}

/** Consecutive words of one speaker: the unit of a transcript segment. */
export interface WordGroup {
  speaker: string;
  words: AlignedWord[];
}

export interface TranscriptInput {
  callId: string;
  /** ms since the epoch. */
  createdAt: number;
  /** Decoded audio length, seconds. */
  durationSeconds: number;
  words: readonly AlignedWord[];
  diarization: Pick<Diarization, 'provider' | 'model' | 'speakerCount'>;
  transcription: Pick<Transcription, 'language' | 'provider' | 'model'>;
  segmentation?: SegmentationOptions;
}

const sentenceEnd = /[.!?…]["'’”)]?$/;
/** Punctuation that attaches to the word before it, without a space. */
const closingPunctuation = /^[.,!?;:…%)\]}'’”]/;

/**
 * Groups aligned words into segments: a new segment starts when the speaker changes, after a
 * long pause, or when a segment grows past the maximum length (cut at a sentence end).
 */
export function groupIntoSegments(words: readonly AlignedWord[], options: SegmentationOptions = {}): WordGroup[] {
  const maxPause = options.maxPauseSeconds ?? 2;
  const maxLength = options.maxSegmentSeconds ?? 30;
  const groups: WordGroup[] = [];
  for (const word of words) {
    const current = groups.at(-1);
    const last = current?.words.at(-1);
    const length = current && last ? last.endSeconds - current.words[0]!.startSeconds : 0;
    const startsNew = !current || !last
      || current.speaker !== word.speaker
      || word.startSeconds - last.endSeconds > maxPause
      || (length > maxLength && sentenceEnd.test(last.text))
      || length > maxLength * 1.5;
    if (startsNew) groups.push({ speaker: word.speaker, words: [word] });
    else current.words.push(word);
  }
  return groups;
}

/** Words joined into display text: one space between words, none before closing punctuation. */
export function joinWords(words: readonly { text: string }[]): string {
  return words.reduce((text, word) => (text === '' ? word.text : closingPunctuation.test(word.text) ? text + word.text : `${text} ${word.text}`), '').trim();
}

/** The weakest word decides how sure a whole segment is. */
function segmentConfidence(words: readonly AlignedWord[]): AlignmentConfidence {
  const order: AlignmentConfidence[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];
  return words.reduce<AlignmentConfidence>((weakest, word) => (order.indexOf(word.confidence) < order.indexOf(weakest) ? word.confidence : weakest), 'HIGH');
}

/** `mm:ss`, or `h:mm:ss` for calls of an hour or more. */
export function formatTime(seconds: number, withHours: boolean): string {
  const whole = Math.floor(seconds);
  const two = (value: number) => String(value).padStart(2, '0');
  const minutesAndSeconds = `${two(Math.floor((whole % 3600) / 60))}:${two(whole % 60)}`;
  return withHours ? `${Math.floor(whole / 3600)}:${minutesAndSeconds}` : `${two(Math.floor(whole / 60))}:${two(whole % 60)}`;
}

/** One display line per segment: `[00:04-00:09] Sheila: Hello Diane.` */
export function cleanTextOf(segments: readonly Segment[], durationSeconds: number): string {
  const withHours = durationSeconds >= 3600;
  return segments.map((segment) => `[${formatTime(segment.startSeconds, withHours)}-${formatTime(segment.endSeconds, withHours)}] ${segment.speaker}: ${segment.text}`).join('\n');
}

/** The resolution block before speaker resolution has run: nothing used, nothing resolved. */
export function unresolvedSpeakerResolution(totalSpeakerCount: number): SpeakerResolution {
  return {
    strategyVersion: 2, usedUserDisplayName: false, usedContactName: false, usedDirection: false, usedPhoneFallback: false,
    voiceEmbeddingEnabled: false, voiceProfileUsed: false, voiceMatchStatus: 'DISABLED',
    totalSpeakerCount, resolvedSpeakerCount: 0, warnings: [],
  };
}

/** One segment before its speaker is numbered: the raw speaker id, its time range, its text. */
export interface AttributedSegment {
  /** The speaker id as diarization (or the caller) gave it, e.g. `SPEAKER_00`. */
  sourceSpeakerId: string;
  /** Seconds from the start of the call. */
  startSeconds: number;
  endSeconds: number;
  /** Display text, already joined and trimmed. */
  text: string;
  /** How sure the attribution of the text to the speaker is. */
  alignmentConfidence: AlignmentConfidence;
}

/** What {@link assembleTranscript} makes a transcript of, whatever produced the segments. */
export interface TranscriptAssembly {
  callId: string;
  /** ms since the epoch. */
  createdAt: number;
  /** Call length, seconds. */
  durationSeconds: number;
  /** Language code, e.g. `en`. */
  language: string;
  /** In transcript order: speakers are numbered by their first segment in this list. */
  segments: readonly AttributedSegment[];
  /** Speakers heard, also those who have no segment; the transcript counts at least the ones that do. */
  heardSpeakerCount: number;
  /** Where the words and the speaker turns came from; the normalisation version and status are added. */
  provenance: Omit<PipelineProvenance, 'normalizationVersion' | 'status'>;
}

/**
 * The speaker-attributed transcript (schema version 2, normalisation version 3) from segments in
 * order. Speakers are `spk_0`, `spk_1`, … by order of first appearance, labelled "Speaker 1",
 * "Speaker 2", … with role UNKNOWN until speaker resolution names them; segments are `seg_0001`,
 * `seg_0002`, … Times are rounded to the millisecond. Shared by {@link buildTranscript} (words
 * from the speech stages) and `transcriptFromSegments` (segments supplied as input).
 */
export function assembleTranscript(input: TranscriptAssembly): Transcript {
  const speakerIds = new Map<string, string>();
  for (const segment of input.segments) if (!speakerIds.has(segment.sourceSpeakerId)) speakerIds.set(segment.sourceSpeakerId, `spk_${speakerIds.size}`);

  const speakers: Speaker[] = [...speakerIds.entries()].map(([sourceSpeakerId, speakerId], index) => ({
    speakerId, sourceSpeakerId, label: `Speaker ${index + 1}`, displayName: `Speaker ${index + 1}`,
    role: 'UNKNOWN', confidence: 'LOW', labelSource: 'DIARIZATION', voiceMatchScore: null, voiceProfileMatched: null,
  }));
  const byId = new Map(speakers.map((speaker) => [speaker.sourceSpeakerId, speaker]));
  const segments: Segment[] = input.segments.map((segment, index) => {
    const speaker = byId.get(segment.sourceSpeakerId)!;
    return {
      id: `seg_${String(index + 1).padStart(4, '0')}`,
      speaker: speaker.displayName, speakerLabel: speaker.label, speakerDisplayName: speaker.displayName,
      speakerId: speaker.speakerId, sourceSpeakerId: speaker.sourceSpeakerId, role: speaker.role,
      startSeconds: round(segment.startSeconds), endSeconds: round(segment.endSeconds),
      text: segment.text, alignmentConfidence: segment.alignmentConfidence,
    };
  });
  return {
    schemaVersion: transcriptSchemaVersion,
    callId: input.callId,
    language: input.language,
    durationSeconds: round(input.durationSeconds),
    cleanText: cleanTextOf(segments, input.durationSeconds),
    speakers,
    segments,
    speakerResolution: unresolvedSpeakerResolution(Math.max(input.heardSpeakerCount, speakers.length)),
    pipeline: { ...input.provenance, normalizationVersion, status: 'COMPLETED' },
    createdAt: new Date(input.createdAt).toISOString(),
  };
}

/**
 * The speaker-attributed transcript of the speech stages: aligned words grouped into segments
 * (see {@link groupIntoSegments}), a segment as sure of its speaker as its weakest word, then
 * {@link assembleTranscript}.
 */
export function buildTranscript(input: TranscriptInput): Transcript {
  const segments: AttributedSegment[] = groupIntoSegments(input.words, input.segmentation).map((group) => ({
    sourceSpeakerId: group.speaker,
    startSeconds: group.words[0]!.startSeconds, endSeconds: group.words.at(-1)!.endSeconds,
    text: joinWords(group.words), alignmentConfidence: segmentConfidence(group.words),
  }));
  return assembleTranscript({
    callId: input.callId,
    createdAt: input.createdAt,
    durationSeconds: input.durationSeconds,
    language: input.transcription.language,
    segments,
    // Counts the speakers diarization heard, also those who said no recognised word.
    heardSpeakerCount: input.diarization.speakerCount,
    provenance: {
      transcriptionProvider: input.transcription.provider, transcriptionModel: input.transcription.model,
      diarizationProvider: input.diarization.provider, diarizationModel: input.diarization.model,
      alignmentVersion,
    },
  });
}

/** Times to the millisecond: whisper and diarization are not more precise than that. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
