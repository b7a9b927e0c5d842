import type { SpeakerTurn, TranscribedWord } from '../speechTypes.js';

/**
 * How sure the assignment of a word (and of a segment) to its speaker is:
 * - `HIGH`: at least 80 % of the word lies in one speaker's turns and no other speaker talks then;
 * - `MEDIUM`: one speaker covers most of the word, but another talks at the same time
 *   (overlapping speech) or the cover is partial (50-80 %);
 * - `LOW`: the word lies outside every turn (or mostly so), and went to the nearest speaker
 *   within `nearestTurnSeconds`, or to the speaker of the word before it;
 * - `NONE`: no speaker could be found at all (diarization found no speech): one unknown speaker.
 */
export const alignmentConfidences = ['HIGH', 'MEDIUM', 'LOW', 'NONE'] as const;
export type AlignmentConfidence = (typeof alignmentConfidences)[number];

/** Version of these rules, recorded in the transcript's `pipeline.alignmentVersion`. */
export const alignmentVersion = '1';

export interface AlignedWord extends TranscribedWord {
  /** Raw diarization speaker id, e.g. `SPEAKER_00`. */
  speaker: string;
  confidence: AlignmentConfidence;
}

export interface AlignmentOptions {
  /** A word outside every turn goes to a turn this close, seconds. Defaults to `1`. */
  nearestTurnSeconds?: number;
}

/** The speaker id used when diarization found nobody but words were recognised. */
export const unknownSpeaker = 'SPEAKER_00';

/**
 * Assigns each word to a speaker by its overlap with the diarization turns (word by word, never
 * whisper segment by segment, so a segment in which the speaker changes is split correctly).
 * Both inputs sorted by start time; linear in words + turns.
 */
export function alignWordsToSpeakers(words: readonly TranscribedWord[], turns: readonly SpeakerTurn[], options: AlignmentOptions = {}): AlignedWord[] {
  const nearestTurnSeconds = options.nearestTurnSeconds ?? 1;
  if (turns.length === 0) return words.map((word) => ({ ...word, speaker: unknownSpeaker, confidence: 'NONE' as const }));

  const aligned: AlignedWord[] = [];
  // A turn starting more than the longest turn's length before a word cannot reach it, so the
  // candidate turns are found by a start pointer that only moves forward (both inputs sorted).
  const longestTurn = turns.reduce((longest, turn) => Math.max(longest, turn.endSeconds - turn.startSeconds), 0);
  let firstCandidate = 0;
  for (const word of words) {
    while (firstCandidate < turns.length && turns[firstCandidate]!.startSeconds < word.startSeconds - longestTurn) firstCandidate += 1;
    const coverage = new Map<string, number>();
    for (let index = firstCandidate; index < turns.length && turns[index]!.startSeconds <= word.endSeconds; index += 1) {
      const turn = turns[index]!;
      const overlap = Math.min(turn.endSeconds, word.endSeconds) - Math.max(turn.startSeconds, word.startSeconds);
      if (overlap > 0) coverage.set(turn.speaker, (coverage.get(turn.speaker) ?? 0) + overlap);
    }
    aligned.push({ ...word, ...assign(word, coverage, turns, aligned.at(-1), nearestTurnSeconds) });
  }
  return aligned;
}

function assign(
  word: TranscribedWord,
  coverage: Map<string, number>,
  turns: readonly SpeakerTurn[],
  previous: AlignedWord | undefined,
  nearestTurnSeconds: number,
): { speaker: string; confidence: AlignmentConfidence } {
  // A word of zero length (whisper sometimes gives one) counts as a 10 ms point.
  const duration = Math.max(word.endSeconds - word.startSeconds, 0.01);
  const ranked = [...coverage.entries()].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (best) {
    const share = best[1] / duration;
    if (share >= 0.5 || !previous) {
      const confidence = share >= 0.8 && !second ? 'HIGH' : share >= 0.5 ? 'MEDIUM' : 'LOW';
      return { speaker: best[0], confidence };
    }
  }
  const nearest = nearestTurn(word, turns);
  if (nearest && nearest.distance <= nearestTurnSeconds) return { speaker: nearest.speaker, confidence: 'LOW' };
  if (best) return { speaker: best[0], confidence: 'LOW' };
  // Far from any turn: most likely the same person still talking.
  return { speaker: previous?.speaker ?? nearest?.speaker ?? unknownSpeaker, confidence: 'LOW' };
}

/** The turn closest to a word in time, with the gap in seconds. */
function nearestTurn(word: TranscribedWord, turns: readonly SpeakerTurn[]): { speaker: string; distance: number } | undefined {
  let best: { speaker: string; distance: number } | undefined;
  for (const turn of turns) {
    const distance = Math.max(turn.startSeconds - word.endSeconds, word.startSeconds - turn.endSeconds, 0);
    if (!best || distance < best.distance) best = { speaker: turn.speaker, distance };
  }
  return best;
}
