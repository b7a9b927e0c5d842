import type { PipelineProvenance, Transcript } from '../../domain/transcripts/transcriptSchema.js';
import { assembleTranscript, type AttributedSegment } from './buildTranscript.js';
import type { DiarizedTranscriptInput } from './diarizedTranscriptInput.js';

/** The language recorded when the input names none: `und`, "undetermined" in ISO 639-2 and BCP 47. */
export const undeterminedLanguage = 'und';

/**
 * Provenance of a transcript supplied as input: no model transcribed or diarized it, and no
 * word-to-speaker alignment ran (the caller attributed each segment).
 */
export const suppliedTranscriptProvenance: Omit<PipelineProvenance, 'normalizationVersion' | 'status'> = {
  transcriptionProvider: 'input', transcriptionModel: 'none',
  diarizationProvider: 'input', diarizationModel: 'none',
  alignmentVersion: 'none',
};

export interface SuppliedCall {
  /** The call id the transcript carries (a UUID). */
  callId: string;
  /** ms since the epoch. */
  createdAt: number;
}

/** Surrounding blanks dropped and every run of blanks (line breaks too) made one space, so each segment is one cleanText line. */
function displayText(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/**
 * The unresolved transcript (schema version 2) of an already diarized input, built as
 * `buildTranscript` builds one from words (see `assembleTranscript`): segments sorted by start
 * (a stable sort, so segments starting together keep their input order), then speakers `spk_N`
 * numbered by first appearance of their `sourceSpeakerId`, segments `seg_NNNN`, role UNKNOWN.
 *
 * Choices for what the input does not say:
 * - `alignmentConfidence` is `HIGH` for every segment: the caller gave the attribution, nothing
 *   was guessed from overlapping turns.
 * - `language` is {@link undeterminedLanguage} when missing; `durationSeconds` the latest segment end.
 * - `pipeline` is {@link suppliedTranscriptProvenance}.
 *
 * Pure: the input is expected to be valid (see `diarizedTranscriptInputProblems`); `user` and
 * `metadata` are not used here, they are for speaker resolution.
 */
export function transcriptFromSegments(input: DiarizedTranscriptInput, call: SuppliedCall): Transcript {
  const ordered = [...input.segments].sort((first, second) => first.startSeconds - second.startSeconds);
  const segments: AttributedSegment[] = ordered.map((segment) => ({
    sourceSpeakerId: segment.sourceSpeakerId,
    startSeconds: segment.startSeconds,
    endSeconds: segment.endSeconds,
    text: displayText(segment.text),
    alignmentConfidence: 'HIGH',
  }));
  const latestEnd = segments.reduce((latest, segment) => Math.max(latest, segment.endSeconds), 0);
  return assembleTranscript({
    callId: call.callId,
    createdAt: call.createdAt,
    durationSeconds: input.durationSeconds ?? latestEnd,
    language: input.language ?? undeterminedLanguage,
    segments,
    // Only the speakers with a segment are known.
    heardSpeakerCount: 0,
    provenance: suppliedTranscriptProvenance,
  });
}
