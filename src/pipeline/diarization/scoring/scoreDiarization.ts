import type { SpeakerTurn } from '../../speechTypes.js';
import { maximizeAssignment } from '../maximizeAssignment.js';

/** Diarization error of a hypothesis against a reference, in seconds and as shares of the reference's speech. */
export interface DiarizationScore {
  /** Total reference speech, seconds: each speaker's speech counted, so overlapped speech counts twice. */
  referenceSeconds: number;
  /** Reference speech with fewer hypothesis speakers than reference speakers, seconds. */
  missedSeconds: number;
  /** Hypothesis speech beyond the reference's speakers, seconds. */
  falseAlarmSeconds: number;
  /** Speech given to the wrong speaker under the best one-to-one speaker mapping, seconds. */
  confusionSeconds: number;
  /** The three above as shares of `referenceSeconds`, and their sum (the DER). */
  missed: number;
  falseAlarm: number;
  confusion: number;
  diarizationErrorRate: number;
  /** Hypothesis speaker → the reference speaker it was mapped to (unmapped ones are absent). */
  mapping: Record<string, string>;
  /**
   * Per reference speaker: their speech, and how much of it the hypothesis speaker mapped to them
   * also covers (0 when none is), seconds.
   */
  referenceSpeakers: Record<string, { seconds: number; matchedSeconds: number }>;
}

export interface ScoringOptions {
  /**
   * Seconds on each side of every reference turn's start and end left out of the scoring (NIST
   * md-eval's `-c`; 0.25 s is its customary collar, for references whose boundaries are only
   * known to a word's length). Defaults to 0: everything scored.
   */
  collarSeconds?: number;
}

/**
 * Diarization error rate as NIST md-eval and pyannote.metrics compute it, with no collar unless
 * one is asked for, and overlapped speech scored: for each stretch of time with R reference and H hypothesis
 * speakers of which C are correctly mapped, missed = max(0, R − H), false alarm =
 * max(0, H − R), confusion = min(R, H) − C, each times the stretch's length. The speaker
 * mapping is the one-to-one mapping that maximises the matched time (Hungarian), which is
 * the one that minimises the DER.
 */
export function scoreDiarization(reference: readonly SpeakerTurn[], hypothesis: readonly SpeakerTurn[], options: ScoringOptions = {}): DiarizationScore {
  const referenceSpeakers = speakersOf(reference);
  const hypothesisSpeakers = speakersOf(hypothesis);
  const collar = options.collarSeconds ?? 0;
  const events = [
    ...speakerEvents(reference, referenceSpeakers, 'reference'),
    ...speakerEvents(hypothesis, hypothesisSpeakers, 'hypothesis'),
    ...(collar > 0 ? collarEvents(reference, collar) : []),
  ].sort((a, b) => a.time - b.time);
  // Inside a collar while > 0.
  let collarDepth = 0;

  // Each speaker's turns may overlap each other (a split turn); a speaker is active while its depth is > 0.
  const referenceDepth = new Array<number>(referenceSpeakers.length).fill(0);
  const hypothesisDepth = new Array<number>(hypothesisSpeakers.length).fill(0);
  // shape: (referenceSpeakers, hypothesisSpeakers), seconds both are active
  const together = referenceSpeakers.map(() => new Array<number>(hypothesisSpeakers.length).fill(0));
  const speechOf = new Array<number>(referenceSpeakers.length).fill(0);
  let referenceSeconds = 0;
  let missedSeconds = 0;
  let falseAlarmSeconds = 0;
  let matchableSeconds = 0;

  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.side === 'collar') collarDepth += event.delta;
    else (event.side === 'reference' ? referenceDepth : hypothesisDepth)[event.speaker]! += event.delta;
    const next = events[index + 1];
    const seconds = next ? next.time - event.time : 0;
    if (seconds <= 0 || collarDepth > 0) continue;
    const activeReference = activeIndexes(referenceDepth);
    const activeHypothesis = activeIndexes(hypothesisDepth);
    referenceSeconds += activeReference.length * seconds;
    missedSeconds += Math.max(0, activeReference.length - activeHypothesis.length) * seconds;
    falseAlarmSeconds += Math.max(0, activeHypothesis.length - activeReference.length) * seconds;
    matchableSeconds += Math.min(activeReference.length, activeHypothesis.length) * seconds;
    for (const referenceSpeaker of activeReference) {
      speechOf[referenceSpeaker]! += seconds;
      for (const hypothesisSpeaker of activeHypothesis) together[referenceSpeaker]![hypothesisSpeaker]! += seconds;
    }
  }

  const mappedHypothesis = maximizeAssignment(together);
  const mapping: Record<string, string> = {};
  const bySpeaker: DiarizationScore['referenceSpeakers'] = Object.fromEntries(referenceSpeakers.map((speaker, index) => [speaker, { seconds: speechOf[index]!, matchedSeconds: 0 }]));
  let correctSeconds = 0;
  mappedHypothesis.forEach((hypothesisSpeaker, referenceSpeaker) => {
    if (hypothesisSpeaker < 0) return;
    const seconds = together[referenceSpeaker]![hypothesisSpeaker]!;
    correctSeconds += seconds;
    bySpeaker[referenceSpeakers[referenceSpeaker]!]!.matchedSeconds = seconds;
    if (seconds > 0) mapping[hypothesisSpeakers[hypothesisSpeaker]!] = referenceSpeakers[referenceSpeaker]!;
  });
  const confusionSeconds = Math.max(0, matchableSeconds - correctSeconds);
  const share = (seconds: number) => (referenceSeconds > 0 ? seconds / referenceSeconds : seconds > 0 ? Infinity : 0);
  return {
    referenceSeconds,
    missedSeconds,
    falseAlarmSeconds,
    confusionSeconds,
    missed: share(missedSeconds),
    falseAlarm: share(falseAlarmSeconds),
    confusion: share(confusionSeconds),
    diarizationErrorRate: share(missedSeconds + falseAlarmSeconds + confusionSeconds),
    mapping,
    referenceSpeakers: bySpeaker,
  };
}

function speakersOf(turns: readonly SpeakerTurn[]): string[] {
  return [...new Set(turns.map((turn) => turn.speaker))].sort();
}

interface SpeakerEvent {
  time: number;
  side: 'reference' | 'hypothesis' | 'collar';
  speaker: number;
  delta: 1 | -1;
}

/** A no-score stretch of `collar` seconds on each side of every reference turn boundary. */
function collarEvents(reference: readonly SpeakerTurn[], collar: number): SpeakerEvent[] {
  return reference.flatMap((turn) => [turn.startSeconds, turn.endSeconds]).flatMap((boundary) => [
    { time: boundary - collar, side: 'collar' as const, speaker: -1, delta: 1 as const },
    { time: boundary + collar, side: 'collar' as const, speaker: -1, delta: -1 as const },
  ]);
}

function speakerEvents(turns: readonly SpeakerTurn[], speakers: string[], side: 'reference' | 'hypothesis'): SpeakerEvent[] {
  return turns
    .filter((turn) => turn.endSeconds > turn.startSeconds)
    .flatMap((turn) => {
      const speaker = speakers.indexOf(turn.speaker);
      return [
        { time: turn.startSeconds, side, speaker, delta: 1 as const },
        { time: turn.endSeconds, side, speaker, delta: -1 as const },
      ];
    });
}

function activeIndexes(depths: number[]): number[] {
  const active: number[] = [];
  depths.forEach((depth, index) => { if (depth > 0) active.push(index); });
  return active;
}
