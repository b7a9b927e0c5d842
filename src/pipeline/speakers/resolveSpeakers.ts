import type { CallMetadata } from '../../domain/calls/callTypes.js';
import {
  labelSources, speakerConfidences,
  type Segment, type Speaker, type SpeakerResolution, type Transcript,
} from '../../domain/transcripts/transcriptSchema.js';
import { cleanTextOf } from '../normalization/buildTranscript.js';
import { createNameMatcher, type NameMatcher, type Party } from './createNameMatcher.js';
import { findGreetings, normalizeForMatching, saysTheyPlacedTheCall, withoutSelfIntroductions } from './greetingPatterns.js';

type Confidence = (typeof speakerConfidences)[number];
type LabelSource = (typeof labelSources)[number];

/**
 * `DISABLED`: the feature is off. `NO_PROFILE`: on, but the user has recorded no profile, or only
 * one under an earlier consent version (then with a warning saying so).
 * `MATCHED`, `NO_MATCH`, `AMBIGUOUS`: compared, per the specification's table. `FAILED`: on and a
 * profile exists, but the comparison could not be made (no model, a model error): soft.
 */
export type VoiceMatchStatus = 'DISABLED' | 'NO_PROFILE' | 'MATCHED' | 'NO_MATCH' | 'AMBIGUOUS' | 'FAILED';

export interface VoiceMatchOutcome {
  status: VoiceMatchStatus;
  /** For `MATCHED`: the user's speaker (`spk_N`). */
  speakerId?: string;
  /** For `MATCHED`: that speaker's score in [0, 1]. */
  score?: number;
  /** How sure a `MATCHED` outcome is. Defaults to `"MEDIUM"`. */
  confidence?: 'HIGH' | 'MEDIUM';
  /** Each compared speaker's score in [0, 1], by speaker id: their `voiceMatchScore`. */
  scores?: Record<string, number>;
  /** Why the comparison was skipped or gave nothing, for `speakerResolution.warnings`. */
  warning?: string;
}

export interface SpeakerResolutionInput {
  /** The user's name from the profile. Unset: the user's speaker keeps its "Speaker N" label. */
  userDisplayName?: string;
  /** The upload metadata: `contactName`, `phoneNumber` and `direction` are used. */
  metadata: CallMetadata;
  /**
   * The channel the recorder puts the user's side on. Used only when the transcript was
   * diarized by channel (left is `SPEAKER_00`, right `SPEAKER_01`); otherwise the speaker ids
   * are the model's, numbered by first appearance, and the channel says nothing about them.
   */
  stereoUserChannel?: 'left' | 'right';
  /** The voice-match outcome. Defaults to `{ status: "DISABLED" }`. */
  voiceMatch?: VoiceMatchOutcome;
}

interface Assignment {
  role: Party;
  confidence: Confidence;
  labelSource: LabelSource;
}

/** Greetings count only at the start: a speaker's first 3 segments, or any segment starting in the first 30 s. */
export const greetingWindow = { segmentsPerSpeaker: 3, seconds: 30 } as const;

const channelSpeakers = { left: 'SPEAKER_00', right: 'SPEAKER_01' } as const;
/** The `diarizationModel` of a transcript diarized by channel, as `diarizeRecording` names it. */
const channelDiarizationModel = 'stereo-channels';
const otherRole = (role: Party): Party => (role === 'USER' ? 'CONTACT' : 'USER');

/**
 * Names the speakers of a transcript from the evidence, in the specification's order (layers 2,
 * 4 and 7 are additions it does not place); the first layer that decides wins, and later layers
 * only fill what is still open:
 *
 * 1. Voice match: `MATCHED` makes its speaker USER (VOICE_EMBEDDING, the match's confidence and
 *    score). `AMBIGUOUS`, `NO_MATCH`, `FAILED`, `NO_PROFILE` and `DISABLED` assign nothing.
 * 2. Named speakers (HIGH, USER_PROFILE / CONTACT_METADATA): a speaker that arrives named, as a
 *    supplied transcript may name it in `sourceSpeakerId`, by a strict match on a supplied name
 *    (see {@link namedSpeakers}). Diarization's `SPEAKER_NN` never matches.
 * 3. Greeting (HIGH, GREETING_MATCH), in the {@link greetingWindow}: a self-introduction ("this is
 *    Diane") names the speaker, an address ("hello Sheila") the other one of two. A possessive
 *    names no one here ("this is Robert's office" is said by whoever answers for Robert). Claims
 *    that contradict each other are dropped. Layers 2 and 3 are the only ones for a third or
 *    later speaker.
 * 4. The caller (one or two speakers, MEDIUM, GREETING_MATCH, `usedDirection`): the one speaker
 *    who says in the greeting window that they placed the call ("I'm calling from Brightwave
 *    Energy", "this is Tom from Northgate calling", see `saysTheyPlacedTheCall`) is the CONTACT
 *    on an INCOMING call, which the contact placed, and the USER on an OUTGOING one, which the
 *    user placed, whoever speaks first. A cold caller who opens an incoming call is thus the
 *    contact, not the user the direction tiebreaker (8) would make the first speaker. The words
 *    say who dialled, the metadata's direction who that is, so a wrong direction gives a wrong
 *    role: MEDIUM, below a name said. No direction, or two speakers saying it: nothing. Its
 *    source is the greeting's: the claim is part of how the caller opens the call.
 * 5. Mention asymmetry (two speakers, MEDIUM, NAME_MENTION): who says the other party's name is
 *    the other party. When both speakers mention both names: AMBIGUOUS, nothing assigned, a warning.
 *    A possessive is a mention ("Robert's office"). A self-introduction is not, in the greeting
 *    window or after it: "this is Diane again" at minute 3 names the speaker, so as a mention
 *    it would give the speaker the opposite role. It is no evidence at all after the window
 *    either, since there the same words often point at someone else ("it's Sheila who signs").
 * 6. By elimination (MEDIUM): one of two resolved, the other takes the remaining role.
 * 7. Stereo channel (MEDIUM, POSITIONAL_FALLBACK), only on a transcript diarized by channel: the
 *    speaker on the user's channel is USER. A fact of the recording, not a guess by order, so
 *    above LOW; not HIGH, since it rests on the recorder's configuration, which no call checks
 *    and a reader cannot see in the transcript.
 * 8. Direction tiebreaker (LOW, POSITIONAL_FALLBACK, `usedDirection`): on an OUTGOING call the
 *    first speaker is the one answering, the CONTACT; on an INCOMING call the first speaker is
 *    the user answering. A one-speaker OUTGOING call is the user (a message left, one side
 *    recorded); a one-speaker INCOMING call stays UNKNOWN unless layer 4 named its caller.
 * 9. Positional fallback (two speakers, LOW): the first speaker is USER, the second CONTACT.
 * 10. Labels: the USER is labelled `userDisplayName`, the CONTACT `metadata.contactName`, or when
 *    that is missing "Contact …4567" from the last four digits of the phone number (PHONE_FALLBACK;
 *    only for numbers longer than four digits, so the whole number is never shown). A speaker
 *    without a role, or a role without a name, keeps "Speaker N". A name is only ever put on a
 *    speaker some layer gave that role: metadata alone never names anyone.
 *
 * `confidence` is always that of the layer that decided the role; `labelSource` names that
 * layer, as the specification does for a voice match whose label is the profile's name. The
 * one exception is PHONE_FALLBACK, which replaces the layer's source because the label is then
 * a number, not a name; it adds no evidence, so the confidence stays the layer's. A LOW guess
 * keeps POSITIONAL_FALLBACK with the phone label (`usedPhoneFallback` tells), because the
 * specification pairs LOW only with POSITIONAL_FALLBACK or DIARIZATION.
 * USER_PROFILE and CONTACT_METADATA ("strict text match on the supplied names") are only layer
 * 2's: not every speaker labelled with the profile's or the metadata's name, since every name
 * put on a speaker comes from there, and that would hide which evidence placed it (and pair LOW
 * with them); a name said in the text is already GREETING_MATCH or NAME_MENTION.
 *
 * Names match case-insensitively, ignoring punctuation and accents, and a first name matches a
 * full name (see {@link createNameMatcher}). Returns a new transcript; the input is not changed.
 */
export function resolveSpeakers(transcript: Transcript, input: SpeakerResolutionInput): Transcript {
  const voice = input.voiceMatch ?? { status: 'DISABLED' };
  const names = createNameMatcher({ user: input.userDisplayName, contact: input.metadata.contactName });
  const speakerIds = transcript.speakers.map((speaker) => speaker.speakerId);
  const assigned = new Map<string, Assignment>();
  const warnings: string[] = [];
  let usedDirection = false;
  let ambiguous = false;
  const assign = (speakerId: string, assignment: Assignment) => {
    if (!assigned.has(speakerId) && ![...assigned.values()].some(({ role }) => role === assignment.role)) assigned.set(speakerId, assignment);
  };

  if (voice.status === 'MATCHED') {
    if (voice.speakerId !== undefined && speakerIds.includes(voice.speakerId)) {
      assign(voice.speakerId, { role: 'USER', confidence: voice.confidence ?? 'MEDIUM', labelSource: 'VOICE_EMBEDDING' });
    } else warnings.push('voice_match_speaker_unknown: the matched speaker is not in the transcript');
  } else if (voice.status === 'AMBIGUOUS') warnings.push('voice_match_ambiguous: more than one speaker matched the voice profile');

  for (const [speakerId, role] of namedSpeakers(transcript.speakers, input)) {
    assign(speakerId, { role, confidence: 'HIGH', labelSource: role === 'USER' ? 'USER_PROFILE' : 'CONTACT_METADATA' });
  }

  for (const [speakerId, role] of greetingClaims(transcript.segments, speakerIds, names, warnings)) {
    assign(speakerId, { role, confidence: 'HIGH', labelSource: 'GREETING_MATCH' });
  }

  const caller = speakerIds.length <= 2 ? theCaller(transcript.segments) : undefined;
  const direction = input.metadata.direction;
  if (caller !== undefined && (direction === 'INCOMING' || direction === 'OUTGOING') && !assigned.has(caller)) {
    // Whoever placed the call is the contact on a call the user received, the user on one they made.
    assign(caller, { role: direction === 'INCOMING' ? 'CONTACT' : 'USER', confidence: 'MEDIUM', labelSource: 'GREETING_MATCH' });
    usedDirection = assigned.has(caller);
  }

  const [first, second] = speakerIds;
  if (speakerIds.length === 2 && first !== undefined && second !== undefined) {
    if (assigned.size === 0) {
      const mentions = mentionEvidence(transcript.segments, first, second, names);
      if (mentions === 'AMBIGUOUS') {
        ambiguous = true;
        warnings.push('speaker_names_ambiguous: both speakers mention both names; no names assigned');
      } else if (mentions) {
        // One fact (who names whom) places both speakers at once, so both carry it.
        assign(first, { role: mentions, confidence: 'MEDIUM', labelSource: 'NAME_MENTION' });
        assign(second, { role: otherRole(mentions), confidence: 'MEDIUM', labelSource: 'NAME_MENTION' });
      }
    }
    if (!ambiguous) {
      const resolved = [...assigned.entries()][0];
      if (assigned.size === 1 && resolved) {
        assign(resolved[0] === first ? second : first, { role: otherRole(resolved[1].role), confidence: 'MEDIUM', labelSource: 'BY_ELIMINATION' });
      }
      if (assigned.size === 0) {
        const userSpeaker = userSpeakerByChannel(transcript, input.stereoUserChannel);
        const firstRole: Party | undefined = userSpeaker
          ? (userSpeaker === first ? 'USER' : 'CONTACT')
          : direction === 'OUTGOING' ? 'CONTACT' : direction === 'INCOMING' ? 'USER' : undefined;
        usedDirection = !userSpeaker && firstRole !== undefined;
        const confidence: Confidence = userSpeaker ? 'MEDIUM' : 'LOW';
        assign(first, { role: firstRole ?? 'USER', confidence, labelSource: 'POSITIONAL_FALLBACK' });
        assign(second, { role: otherRole(firstRole ?? 'USER'), confidence, labelSource: 'POSITIONAL_FALLBACK' });
      }
    }
  } else if (speakerIds.length === 1 && first !== undefined && assigned.size === 0) {
    if (userSpeakerByChannel(transcript, input.stereoUserChannel) === first) {
      assign(first, { role: 'USER', confidence: 'MEDIUM', labelSource: 'POSITIONAL_FALLBACK' });
    } else if (direction === 'OUTGOING') {
      usedDirection = true;
      assign(first, { role: 'USER', confidence: 'LOW', labelSource: 'POSITIONAL_FALLBACK' });
    }
  }
  if (speakerIds.length > 2 && speakerIds.some((id) => !assigned.has(id))) warnings.push('speakers_unresolved: speakers beyond the two parties stay unknown without a greeting naming them');

  return applyAssignments(transcript, input, voice, assigned, { usedDirection, ambiguous, warnings });
}

/**
 * Speakers that arrive named: speaker → role, for a `sourceSpeakerId` that is the user's display
 * name or the contact's name, whole, ignoring case, accents and punctuation ("diane smith" for
 * "Diane Smith"). Strict, unlike greetings and mentions: a first name alone ("Diane") is not
 * enough, since an id names the speaker outright and a partial match has no words around it to
 * confirm it. A name both parties have names neither.
 */
function namedSpeakers(speakers: readonly Speaker[], input: SpeakerResolutionInput): Map<string, Party> {
  const user = normalizeForMatching(input.userDisplayName ?? '');
  const contact = normalizeForMatching(input.metadata.contactName ?? '');
  const named = new Map<string, Party>();
  if (user === contact) return named;
  for (const speaker of speakers) {
    const id = normalizeForMatching(speaker.sourceSpeakerId);
    if (id !== '' && id === user) named.set(speaker.speakerId, 'USER');
    else if (id !== '' && id === contact) named.set(speaker.speakerId, 'CONTACT');
  }
  return named;
}

/**
 * Greeting claims: speaker → role. A claim survives only when its speaker is claimed for one
 * role and its role for one speaker; an address names the other speaker, so it needs exactly two.
 */
function greetingClaims(segments: readonly Segment[], speakerIds: readonly string[], names: NameMatcher, warnings: string[]): Map<string, Party> {
  const claims: { speakerId: string; role: Party }[] = [];
  for (const segment of openingSegments(segments)) {
    for (const greeting of findGreetings(segment.text)) {
      const party = names.partyOfGreetingWord(greeting.name);
      if (!party) continue;
      if (greeting.kind === 'SELF') claims.push({ speakerId: segment.speakerId, role: party });
      else if (speakerIds.length === 2) claims.push({ speakerId: speakerIds.find((id) => id !== segment.speakerId)!, role: party });
    }
  }
  const rolesOf = (speakerId: string) => new Set(claims.filter((claim) => claim.speakerId === speakerId).map(({ role }) => role));
  const speakersOf = (role: Party) => new Set(claims.filter((claim) => claim.role === role).map(({ speakerId }) => speakerId));
  const accepted = new Map<string, Party>();
  for (const { speakerId, role } of claims) {
    if (rolesOf(speakerId).size === 1 && speakersOf(role).size === 1) accepted.set(speakerId, role);
  }
  if (accepted.size < new Set(claims.map(({ speakerId }) => speakerId)).size) warnings.push('greetings_conflicting: greetings name speakers inconsistently; those were ignored');
  return accepted;
}

/** The segments in the {@link greetingWindow}, in order. */
function openingSegments(segments: readonly Segment[]): Segment[] {
  const seen = new Map<string, number>();
  return segments.filter((segment) => {
    const index = seen.get(segment.speakerId) ?? 0;
    seen.set(segment.speakerId, index + 1);
    return index < greetingWindow.segmentsPerSpeaker || segment.startSeconds < greetingWindow.seconds;
  });
}

/**
 * The speaker who says, in the {@link greetingWindow}, that they placed the call ("I'm calling
 * from …", see `saysTheyPlacedTheCall`); none when no speaker or more than one says so.
 */
function theCaller(segments: readonly Segment[]): string | undefined {
  const callers = new Set(openingSegments(segments).filter((segment) => saysTheyPlacedTheCall(segment.text)).map(({ speakerId }) => speakerId));
  return callers.size === 1 ? [...callers][0] : undefined;
}

/** The first speaker's role by who mentions whom, `AMBIGUOUS` when both mention both names. */
function mentionEvidence(segments: readonly Segment[], first: string, second: string, names: NameMatcher): Party | 'AMBIGUOUS' | undefined {
  const mentionsOf = (speakerId: string) => names.partiesMentionedIn(
    segments.filter((segment) => segment.speakerId === speakerId).map(({ text }) => withoutSelfIntroductions(text)).join(' '),
  );
  const byFirst = mentionsOf(first);
  const bySecond = mentionsOf(second);
  if (byFirst.size === 2 && bySecond.size === 2) return 'AMBIGUOUS';
  // Mentioning the contact's name, or hearing one's own name, points to the user; and vice versa.
  const firstIsUser = byFirst.has('CONTACT') || bySecond.has('USER');
  const firstIsContact = byFirst.has('USER') || bySecond.has('CONTACT');
  if (firstIsUser === firstIsContact) return undefined;
  return firstIsUser ? 'USER' : 'CONTACT';
}

/** The user's speaker by channel, when the transcript was diarized by channel and a channel is known. */
function userSpeakerByChannel(transcript: Transcript, channel: 'left' | 'right' | undefined): string | undefined {
  if (!channel || transcript.pipeline.diarizationModel !== channelDiarizationModel) return undefined;
  return transcript.speakers.find((speaker) => speaker.sourceSpeakerId === channelSpeakers[channel])?.speakerId;
}

/** "Contact …4567", or nothing for a number of four digits or fewer (it would show it whole). */
function phoneLabel(phoneNumber: string | undefined): string | undefined {
  const digits = (phoneNumber ?? '').replace(/\D/g, '');
  return digits.length > 4 ? `Contact …${digits.slice(-4)}` : undefined;
}

function applyAssignments(
  transcript: Transcript, input: SpeakerResolutionInput, voice: VoiceMatchOutcome, assigned: ReadonlyMap<string, Assignment>,
  outcome: { usedDirection: boolean; ambiguous: boolean; warnings: string[] },
): Transcript {
  const userName = input.userDisplayName?.trim() || undefined;
  const contactName = input.metadata.contactName?.trim() || undefined;
  const contactPhoneLabel = contactName ? undefined : phoneLabel(input.metadata.phoneNumber);
  const voiceTried = voice.status === 'MATCHED' || voice.status === 'NO_MATCH' || voice.status === 'AMBIGUOUS';
  const used = { user: false, contact: false, phone: false };

  const speakers: Speaker[] = transcript.speakers.map((speaker, index) => {
    const fallbackName = `Speaker ${index + 1}`;
    const assignment = assigned.get(speaker.speakerId);
    const voiceFields = {
      voiceMatchScore: voiceTried ? voice.scores?.[speaker.speakerId] ?? (voice.speakerId === speaker.speakerId ? voice.score : undefined) ?? null : null,
      voiceProfileMatched: voiceTried ? voice.status === 'MATCHED' && voice.speakerId === speaker.speakerId : null,
    };
    if (!assignment) {
      return {
        ...speaker, ...voiceFields, label: fallbackName, displayName: fallbackName, role: 'UNKNOWN' as const, confidence: 'LOW' as const,
        labelSource: outcome.ambiguous ? 'AMBIGUOUS' as const : 'DIARIZATION' as const,
      };
    }
    let name = assignment.role === 'USER' ? userName : contactName;
    let labelSource = assignment.labelSource;
    if (name) used[assignment.role === 'USER' ? 'user' : 'contact'] = true;
    else if (assignment.role === 'CONTACT' && contactPhoneLabel) {
      name = contactPhoneLabel;
      // The number labels the contact but is no evidence for the role: the confidence stays the
      // layer's, and a LOW guess keeps POSITIONAL_FALLBACK, the only source LOW goes with.
      if (assignment.confidence !== 'LOW') labelSource = 'PHONE_FALLBACK';
      used.phone = true;
    }
    return {
      ...speaker, ...voiceFields, label: name ?? fallbackName, displayName: name ?? fallbackName,
      role: assignment.role, confidence: assignment.confidence, labelSource,
    };
  });

  const byId = new Map(speakers.map((speaker) => [speaker.speakerId, speaker]));
  const segments: Segment[] = transcript.segments.map((segment) => {
    const speaker = byId.get(segment.speakerId);
    if (!speaker) return { ...segment };
    return { ...segment, speaker: speaker.displayName, speakerLabel: speaker.label, speakerDisplayName: speaker.displayName, role: speaker.role };
  });

  const speakerResolution: SpeakerResolution = {
    strategyVersion: 2,
    usedUserDisplayName: used.user,
    usedContactName: used.contact,
    usedDirection: outcome.usedDirection,
    usedPhoneFallback: used.phone,
    voiceEmbeddingEnabled: voice.status !== 'DISABLED',
    voiceProfileUsed: voice.status === 'MATCHED',
    voiceMatchStatus: voice.status,
    // Diarization may have heard speakers who said no recognised word; keep the larger count.
    totalSpeakerCount: Math.max(transcript.speakerResolution.totalSpeakerCount, speakers.length),
    resolvedSpeakerCount: speakers.filter((speaker) => speaker.role !== 'UNKNOWN').length,
    warnings: [...new Set([...transcript.speakerResolution.warnings, ...(voice.warning ? [voice.warning] : []), ...outcome.warnings])],
  };
  return {
    ...transcript,
    cleanText: cleanTextOf(segments, transcript.durationSeconds),
    speakers, segments, speakerResolution,
    pipeline: { ...transcript.pipeline },
  };
}
