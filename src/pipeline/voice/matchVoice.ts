import { cosine } from '../diarization/speakers/clusterEmbeddings.js';
import type { VoiceMatchOutcome } from '../speakers/resolveSpeakers.js';

export interface VoiceMatchThresholds {
  /** Score at or above which a match is HIGH (`SERVICE_VOICE_EMBEDDING_HIGH_THRESHOLD`, 0.85). */
  high: number;
  /** Score at or above which a speaker matches at all (`SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD`, 0.75). */
  medium: number;
}

/** A call speaker's embedding, keyed by the transcript's speaker id (`spk_N`). */
export interface SpeakerVoice {
  speakerId: string;
  vector: ArrayLike<number>;
}

/**
 * The specification's voice-matching table. A speaker's score is the cosine similarity of its
 * embedding with the profile's, clamped to [0, 1] (opposite directions are as unlike as
 * unrelated ones) and rounded to 4 decimals:
 *
 * | speakers at or above `medium` | outcome |
 * |---|---|
 * | exactly one, score ≥ `high` | MATCHED, HIGH |
 * | exactly one, score ≥ `medium` | MATCHED, MEDIUM |
 * | none | NO_MATCH (text resolution runs unchanged) |
 * | more than one | AMBIGUOUS (no label assigned) |
 *
 * Every compared speaker's score is reported, so each gets its `voiceMatchScore`.
 * With no speaker to compare (nobody spoke long enough): NO_MATCH with a warning.
 */
export function matchVoice(profile: ArrayLike<number>, speakers: readonly SpeakerVoice[], thresholds: VoiceMatchThresholds): VoiceMatchOutcome {
  if (speakers.length === 0) {
    return { status: 'NO_MATCH', scores: {}, warning: 'Voice match: no speaker spoke long enough to compare with the voice profile' };
  }
  const scored = speakers.map(({ speakerId, vector }) => ({ speakerId, score: Math.round(Math.min(1, Math.max(0, cosine(profile, vector))) * 10_000) / 10_000 }));
  const scores = Object.fromEntries(scored.map(({ speakerId, score }) => [speakerId, score]));
  const passing = scored.filter(({ score }) => score >= thresholds.medium);
  if (passing.length > 1) return { status: 'AMBIGUOUS', scores };
  const [match] = passing;
  if (!match) return { status: 'NO_MATCH', scores };
  return { status: 'MATCHED', scores, speakerId: match.speakerId, score: match.score, confidence: match.score >= thresholds.high ? 'HIGH' : 'MEDIUM' };
}
