import type { Transcript } from '../../src/domain/transcripts/transcriptSchema.js';
import { normaliseEnglish } from '../models/englishNormaliser.js';
import {
  concatenatedPermutationWer, scoreTurns, speakerTurns, wordErrors,
  type AttributedWord, type ConcatenatedPermutationWer, type TurnOutcome, type WordErrors,
} from './speakerAttributedScoring.js';
import type { StmSegment } from './stm.js';

/** A speaker-attributed transcript scored against an STM reference. */
export interface StmScore {
  /** The reference's words after the normaliser, in order (the turns index into them). */
  referenceWords: string[];
  /** The words with the speakers ignored. */
  words: WordErrors;
  cpWer: ConcatenatedPermutationWer;
  /** The reference's speaker turns, each kept or not (paired by cpWER's speaker pairing). */
  turns: TurnOutcome[];
  /** Turns of the transcript: runs of consecutive words given to one speaker. */
  hypothesisTurns: number;
}

/**
 * `transcript` against `reference`: each STM segment's text and each transcript segment's text
 * through Whisper's English normaliser (so a word keeps the speaker of its segment: the
 * reference's speaker, the transcript's `speakerId`), then WER, cpWER and the turns kept
 * (scripts/evaluation/speakerAttributedScoring.ts).
 */
export async function scoreAgainstStm(transcript: Transcript, reference: readonly StmSegment[]): Promise<StmScore> {
  const normalised = await normaliseEnglish([...reference.map((segment) => segment.text), ...transcript.segments.map((segment) => segment.text)]);
  const referenceWords: AttributedWord[] = reference.flatMap((segment, index) => normalised[index]!.map((word) => ({ word, speaker: segment.speaker })));
  const hypothesisWords: AttributedWord[] = transcript.segments.flatMap((segment, index) => normalised[reference.length + index]!.map((word) => ({ word, speaker: segment.speakerId })));
  const cpWer = concatenatedPermutationWer(referenceWords, hypothesisWords);
  return {
    referenceWords: referenceWords.map(({ word }) => word),
    words: wordErrors(referenceWords.map(({ word }) => word), hypothesisWords.map(({ word }) => word)),
    cpWer,
    turns: scoreTurns(referenceWords, hypothesisWords, cpWer.mapping),
    hypothesisTurns: speakerTurns(hypothesisWords).length,
  };
}
