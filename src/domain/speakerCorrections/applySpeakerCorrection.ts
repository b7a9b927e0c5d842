import { Value } from 'typebox/value';
import { cleanTextOf } from '../../pipeline/normalization/buildTranscript.js';
import { AnalysisSchema } from '../analysis/analysisSchema.js';
import type { Speaker, SpeakerRole, Transcript } from '../transcripts/transcriptSchema.js';

/**
 * A correction the call's owner made to the speakers of a completed call, in the order made:
 * - `label`: a speaker's display name and/or role set by hand (labelSource MANUAL, confidence HIGH);
 * - `merge`: every segment of `speakerId` given to `intoSpeakerId` (diarization split one person in two).
 */
export type SpeakerCorrection =
  | { kind: 'label'; speakerId: string; displayName?: string; role?: SpeakerRole }
  | { kind: 'merge'; speakerId: string; intoSpeakerId: string };

/** The owner fields of a stored action item, and the text a name may appear in. */
export interface ActionItemOwnerFields {
  title: string;
  description: string | null;
  ownerSpeakerId: string | null;
  ownerSpeakerLabel: string | null;
  ownerDisplayName: string | null;
  ownerRole: string | null;
  /** JSON object, or null (attendees' and recipients' names may be a speaker's). */
  intentMetadata: string | null;
}

/** What a correction changes together: the stored transcript and analysis, and the call's action items. */
export interface CallDocuments<Item extends ActionItemOwnerFields = ActionItemOwnerFields> {
  transcript: Transcript;
  /** Any stored version (v1 or v2): speaker references are found by field name. */
  analysis: Record<string, unknown>;
  actionItems: Item[];
}

/** Why a correction could not be applied to these documents. */
export type CorrectionRefusal = 'speaker_not_found' | 'same_speaker';

/**
 * The documents with one correction applied, or why it cannot be (a speaker the transcript
 * does not have). Pure: the inputs are not changed. Names follow everywhere at once: the
 * speaker, its segments, `cleanText`, every speaker reference of the analysis (`speakerId`,
 * `ownerSpeakerId`, `madeBySpeakerId`, `askedBySpeakerId` and the label, name and role fields
 * beside them), the action items' owners; and the old display name, as a whole word, in the
 * analysis's and the action items' text (titles and summaries name the people). The spoken
 * text of the segments is never changed. A v2 analysis that a longer name would push past a
 * field's length limit keeps its text as it was (only its reference fields change).
 */
export function applySpeakerCorrection<Item extends ActionItemOwnerFields>(
  documents: CallDocuments<Item>,
  correction: SpeakerCorrection,
): CallDocuments<Item> | CorrectionRefusal {
  const { transcript } = documents;
  const target = transcript.speakers.find((speaker) => speaker.speakerId === correction.speakerId);
  if (!target) return 'speaker_not_found';
  let speakers: Speaker[];
  /** Old speaker id → the speaker that now stands for it. */
  const replacedBy = new Map<string, Speaker>();
  if (correction.kind === 'label') {
    const corrected: Speaker = {
      ...target,
      ...(correction.displayName !== undefined ? { label: correction.displayName, displayName: correction.displayName } : {}),
      ...(correction.role !== undefined ? { role: correction.role } : {}),
      confidence: 'HIGH',
      labelSource: 'MANUAL',
    };
    speakers = transcript.speakers.map((speaker) => (speaker === target ? corrected : speaker));
    replacedBy.set(target.speakerId, corrected);
  } else {
    if (correction.intoSpeakerId === correction.speakerId) return 'same_speaker';
    const into = transcript.speakers.find((speaker) => speaker.speakerId === correction.intoSpeakerId);
    if (!into) return 'speaker_not_found';
    speakers = transcript.speakers.filter((speaker) => speaker !== target);
    replacedBy.set(target.speakerId, into);
  }

  const segments = transcript.segments.map((segment) => {
    const speaker = replacedBy.get(segment.speakerId);
    if (!speaker) return segment;
    return {
      ...segment, speaker: speaker.displayName, speakerLabel: speaker.label, speakerDisplayName: speaker.displayName,
      speakerId: speaker.speakerId, sourceSpeakerId: speaker.sourceSpeakerId, role: speaker.role,
    };
  });
  const correctedTranscript: Transcript = {
    ...transcript,
    speakers,
    segments,
    cleanText: cleanTextOf(segments, transcript.durationSeconds),
    speakerResolution: {
      ...transcript.speakerResolution,
      totalSpeakerCount: speakers.length,
      resolvedSpeakerCount: speakers.filter((speaker) => speaker.role !== 'UNKNOWN').length,
    },
  };

  const renames = nameChanges(target, replacedBy.get(target.speakerId)!);
  const withText = correctReferences(documents, replacedBy, renames);
  const analysisStillValid = documents.analysis.schemaVersion !== 2 || Value.Check(AnalysisSchema, withText.analysis);
  const corrected = analysisStillValid ? withText : correctReferences(documents, replacedBy, undefined);
  return { transcript: correctedTranscript, analysis: corrected.analysis, actionItems: corrected.actionItems };
}

/** Applies corrections in order, skipping any whose speakers these documents do not have (a reprocess may number speakers differently). */
export function applySpeakerCorrections<Item extends ActionItemOwnerFields>(
  documents: CallDocuments<Item>,
  corrections: readonly SpeakerCorrection[],
): { documents: CallDocuments<Item>; applied: number; skipped: number } {
  let current = documents;
  let applied = 0;
  for (const correction of corrections) {
    const next = applySpeakerCorrection(current, correction);
    if (typeof next === 'string') continue;
    current = next;
    applied += 1;
  }
  return { documents: current, applied, skipped: corrections.length - applied };
}

/** A whole-word, case-sensitive replacement of the old display name, when the name changes. */
interface NameChange {
  pattern: RegExp;
  replacement: string;
}

function nameChanges(before: Speaker, after: Speaker): NameChange | undefined {
  const oldName = before.displayName.trim();
  if (oldName.length < 2 || oldName === after.displayName) return undefined;
  const escaped = oldName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Letters or digits on either side make it part of another word ("Ann" in "Annual").
  return { pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), replacement: after.displayName };
}

/**
 * Speaker reference fields of the analysis and the names beside them: `<id field>` →
 * `[label field, display-name field, role field]` (a field the object lacks is left out).
 */
const referenceFields: Record<string, readonly [label?: string, displayName?: string, role?: string]> = {
  speakerId: ['speakerLabel', 'speakerDisplayName', 'speakerRole'],
  ownerSpeakerId: ['ownerSpeakerLabel', 'ownerDisplayName', 'ownerRole'],
  madeBySpeakerId: [],
  askedBySpeakerId: [],
};
/** Fields that hold ids, codes or vocabulary, never a name to replace. */
const notText = /(?:Id|Ids|Role|role|category|phase|importance|intent|kind|relation|priority|severity|overall|callType|conversationOutcome|schemaVersion)$/;

function correctReferences<Item extends ActionItemOwnerFields>(
  documents: CallDocuments<Item>,
  replacedBy: ReadonlyMap<string, Speaker>,
  rename: NameChange | undefined,
): Pick<CallDocuments<Item>, 'analysis' | 'actionItems'> {
  const replaceName = (text: string) => (rename ? text.replace(rename.pattern, rename.replacement) : text);

  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') return key !== undefined && notText.test(key) ? value : replaceName(value);
    if (Array.isArray(value)) return value.map((element) => walk(element, key));
    if (value === null || typeof value !== 'object') return value;
    const object = Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, walk(inner, field)]));
    for (const [idField, [labelField, nameField, roleField]] of Object.entries(referenceFields)) {
      const speaker = typeof object[idField] === 'string' ? replacedBy.get(object[idField]) : undefined;
      if (!speaker) continue;
      object[idField] = speaker.speakerId;
      if (labelField && labelField in object) object[labelField] = speaker.label;
      if (nameField && nameField in object) object[nameField] = speaker.displayName;
      if (roleField && roleField in object) object[roleField] = speaker.role;
      // A participant in peopleMentioned is named by the speaker it is.
      if (idField === 'speakerId' && object.relation === 'participant' && typeof object.name === 'string') object.name = speaker.displayName;
    }
    return object;
  };

  const analysis = walk(documents.analysis, undefined) as Record<string, unknown>;
  const actionItems = documents.actionItems.map((item) => {
    const owner = item.ownerSpeakerId ? replacedBy.get(item.ownerSpeakerId) : undefined;
    const metadata = item.intentMetadata ? JSON.stringify(walk(JSON.parse(item.intentMetadata) as unknown, undefined)) : null;
    return {
      ...item,
      title: replaceName(item.title),
      description: item.description === null ? null : replaceName(item.description),
      intentMetadata: metadata,
      ...(owner ? { ownerSpeakerId: owner.speakerId, ownerSpeakerLabel: owner.label, ownerDisplayName: owner.displayName, ownerRole: owner.role } : {}),
    };
  });
  return { analysis, actionItems };
}

/** A run's results as the pipeline hands them over (action items before they get their call and user). */
export interface RunResults {
  transcript: { schemaVersion: number; [field: string]: unknown };
  analysis: { schemaVersion: number; [field: string]: unknown };
  actionItems: readonly (Partial<ActionItemOwnerFields> & { title: string })[];
}

/**
 * A reprocess's new results with the call's corrections applied again, in order: what the owner
 * fixed by hand stays fixed. Corrections whose speakers the new run does not have are skipped.
 */
export function withSpeakerCorrections<Results extends RunResults>(results: Results, corrections: readonly SpeakerCorrection[]): Results {
  if (corrections.length === 0) return results;
  const items = results.actionItems.map((item) => ({
    ...item,
    description: item.description ?? null, ownerSpeakerId: item.ownerSpeakerId ?? null, ownerSpeakerLabel: item.ownerSpeakerLabel ?? null,
    ownerDisplayName: item.ownerDisplayName ?? null, ownerRole: item.ownerRole ?? null, intentMetadata: item.intentMetadata ?? null,
  }));
  const { documents } = applySpeakerCorrections({
    transcript: results.transcript as unknown as Transcript,
    analysis: results.analysis,
    actionItems: items,
  }, corrections);
  return {
    ...results,
    transcript: documents.transcript as unknown as Results['transcript'],
    analysis: documents.analysis as Results['analysis'],
    actionItems: documents.actionItems as unknown as Results['actionItems'],
  };
}
