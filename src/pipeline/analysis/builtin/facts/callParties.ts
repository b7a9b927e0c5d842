import type { AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import type { CallDirection } from '../../../../domain/calls/callTypes.js';
import type { Speaker, Transcript } from '../../../../domain/transcripts/transcriptSchema.js';

/** The people on the call, as speaker resolution named them. */
export interface CallParties {
  speakers: readonly Speaker[];
  speaker(speakerId: string): Speaker | null;
  /** The other party of a two-speaker call; null with one speaker or three and more (unclear whom "you" means). */
  other(speakerId: string): Speaker | null;
}

/**
 * How a speaker was labelled when its label is no person's name: raw diarization, a tie, or the
 * contact's phone digits ("Contact …4567").
 */
const UNNAMED_LABEL_SOURCES: ReadonlySet<Speaker['labelSource']> = new Set(['DIARIZATION', 'AMBIGUOUS', 'PHONE_FALLBACK']);

/**
 * Whether the speaker carries a person's name (the profile's or the metadata's, placed by some
 * evidence). "Speaker 2" and a phone label are not names, whatever layer placed them: a name has no digit.
 */
export function isNamedSpeaker(speaker: Speaker): boolean {
  return !UNNAMED_LABEL_SOURCES.has(speaker.labelSource) && !/\d/.test(speaker.displayName) && speaker.displayName.trim() !== '';
}

/**
 * How prose (summaries, bullets, notes, action titles, the headline) names a speaker: their name
 * when they carry one (see {@link isNamedSpeaker}), else the part they play, since a placeholder
 * ("Speaker 2") or a phone label ("Contact …4567") tells a reader nothing: "the caller" for a
 * contact who called the user (an `INCOMING` call), "the contact" for any other contact, "the
 * user" for the user. Lower case, for the middle of a sentence. A speaker of no known role keeps
 * their label: it is all that tells two such speakers apart.
 */
export function proseNameOf(speaker: Speaker, direction: CallDirection | undefined): string {
  if (isNamedSpeaker(speaker)) return speaker.displayName.trim();
  if (speaker.role === 'USER') return 'the user';
  if (speaker.role === 'CONTACT') return direction === 'INCOMING' ? 'the caller' : 'the contact';
  return speaker.displayName.trim() || speaker.label;
}

export function callPartiesOf(transcript: Transcript): CallParties {
  const byId = new Map(transcript.speakers.map((speaker) => [speaker.speakerId, speaker]));
  return {
    speakers: transcript.speakers,
    speaker: (speakerId) => byId.get(speakerId) ?? null,
    other(speakerId) {
      if (transcript.speakers.length !== 2 || !byId.has(speakerId)) return null;
      return transcript.speakers.find((speaker) => speaker.speakerId !== speakerId) ?? null;
    },
  };
}

type OwnerFields = Pick<AnalysisActionItem, 'ownerSpeakerId' | 'ownerSpeakerLabel' | 'ownerDisplayName' | 'ownerRole'>;

/** An action item's owner fields from the owning speaker, all null when the owner is unclear. */
export function ownerFieldsOf(owner: Speaker | null): OwnerFields {
  return owner
    ? { ownerSpeakerId: owner.speakerId, ownerSpeakerLabel: owner.label, ownerDisplayName: owner.displayName, ownerRole: owner.role }
    : { ownerSpeakerId: null, ownerSpeakerLabel: null, ownerDisplayName: null, ownerRole: null };
}
