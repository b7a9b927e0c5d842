import { maximizeAssignment } from '../../src/pipeline/diarization/maximizeAssignment.js';

/**
 * Scoring of a speaker-attributed transcript against a reference with speakers (an STM), for
 * `npm run eval:end-to-end`. Words are compared as given: normalise them first (Whisper's
 * English normaliser, scripts/models/englishNormaliser.ts).
 */

/** A word and who said it: the reference's speaker, or the hypothesis speaker it was attributed to. */
export interface AttributedWord {
  word: string;
  speaker: string;
}

/** One step of a word alignment: indexes into the reference and the hypothesis. */
export type AlignmentStep =
  | { kind: 'match' | 'substitution'; reference: number; hypothesis: number }
  | { kind: 'deletion'; reference: number }
  | { kind: 'insertion'; hypothesis: number };

export interface WordErrors {
  referenceWords: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  /** (substitutions + deletions + insertions) / referenceWords; 0 for two empty texts, 1 for words against an empty reference. */
  rate: number;
}

/**
 * A minimum-edit alignment of two word sequences (Levenshtein, each edit costing 1), in order.
 * Where several alignments cost the same, a match or substitution is preferred to a deletion
 * and insertion pair, so every reference word that could be paired with a hypothesis word is.
 */
export function alignWords(reference: readonly string[], hypothesis: readonly string[]): AlignmentStep[] {
  // shape: (reference.length + 1) × (hypothesis.length + 1), edits between the prefixes
  const cost = Array.from({ length: reference.length + 1 }, (_, row) => Array.from({ length: hypothesis.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row <= reference.length; row++) {
    for (let column = 1; column <= hypothesis.length; column++) {
      const paired = cost[row - 1]![column - 1]! + (reference[row - 1] === hypothesis[column - 1] ? 0 : 1);
      cost[row]![column] = Math.min(paired, cost[row - 1]![column]! + 1, cost[row]![column - 1]! + 1);
    }
  }
  const steps: AlignmentStep[] = [];
  let row = reference.length;
  let column = hypothesis.length;
  while (row > 0 || column > 0) {
    const here = cost[row]![column]!;
    if (row > 0 && column > 0 && here === cost[row - 1]![column - 1]! + (reference[row - 1] === hypothesis[column - 1] ? 0 : 1)) {
      steps.push({ kind: reference[row - 1] === hypothesis[column - 1] ? 'match' : 'substitution', reference: row - 1, hypothesis: column - 1 });
      row -= 1;
      column -= 1;
    } else if (row > 0 && here === cost[row - 1]![column]! + 1) {
      steps.push({ kind: 'deletion', reference: row - 1 });
      row -= 1;
    } else {
      steps.push({ kind: 'insertion', hypothesis: column - 1 });
      column -= 1;
    }
  }
  return steps.reverse();
}

/** The word error rate of `hypothesis` against `reference`, with its substitutions, deletions and insertions. */
export function wordErrors(reference: readonly string[], hypothesis: readonly string[]): WordErrors {
  const count = { substitutions: 0, deletions: 0, insertions: 0 };
  for (const step of alignWords(reference, hypothesis)) {
    if (step.kind === 'substitution') count.substitutions += 1;
    else if (step.kind === 'deletion') count.deletions += 1;
    else if (step.kind === 'insertion') count.insertions += 1;
  }
  const errors = count.substitutions + count.deletions + count.insertions;
  return { referenceWords: reference.length, ...count, rate: reference.length === 0 ? (errors === 0 ? 0 : 1) : errors / reference.length };
}

export interface ConcatenatedPermutationWer {
  referenceWords: number;
  /** Edits summed over the speaker pairs, and over the words of speakers left unpaired (all deleted, or all inserted). */
  errors: number;
  /** errors / referenceWords. */
  rate: number;
  /** Reference speaker → the hypothesis speaker paired with them (absent when none is). */
  mapping: Record<string, string>;
  /** Per pair, and per speaker left unpaired (the other side `null`): their words and the edits between them. */
  pairs: { reference: string | null; hypothesis: string | null; errors: WordErrors }[];
}

/**
 * Concatenated minimum-permutation WER (cpWER, as in CHiME-6 and meeteval): each speaker's words
 * are joined in order, on both sides; for a one-to-one pairing of reference with hypothesis
 * speakers, the edits between each pair's words are summed, a speaker left unpaired counting
 * all their words as deleted (reference) or inserted (hypothesis); the pairing with the fewest
 * edits is taken (Hungarian algorithm on the edits each pair saves). A word given to the wrong
 * speaker costs a deletion and an insertion.
 */
export function concatenatedPermutationWer(reference: readonly AttributedWord[], hypothesis: readonly AttributedWord[]): ConcatenatedPermutationWer {
  const referenceBySpeaker = wordsBySpeaker(reference);
  const hypothesisBySpeaker = wordsBySpeaker(hypothesis);
  const referenceSpeakers = [...referenceBySpeaker.keys()];
  const hypothesisSpeakers = [...hypothesisBySpeaker.keys()];
  // shape: (referenceSpeakers) × (hypothesisSpeakers)
  const errorsOf = referenceSpeakers.map((referenceSpeaker) => hypothesisSpeakers.map((hypothesisSpeaker) => wordErrors(referenceBySpeaker.get(referenceSpeaker)!, hypothesisBySpeaker.get(hypothesisSpeaker)!)));
  // What pairing saves against leaving both unpaired (all their words deleted and inserted); never negative.
  const savings = errorsOf.map((row, referenceIndex) => row.map((errors, hypothesisIndex) =>
    referenceBySpeaker.get(referenceSpeakers[referenceIndex]!)!.length + hypothesisBySpeaker.get(hypothesisSpeakers[hypothesisIndex]!)!.length - editsOf(errors)));
  const paired = referenceSpeakers.length > 0 && hypothesisSpeakers.length > 0 ? maximizeAssignment(savings) : referenceSpeakers.map(() => -1);

  const mapping: Record<string, string> = {};
  const pairs: ConcatenatedPermutationWer['pairs'] = [];
  const pairedHypotheses = new Set<number>();
  paired.forEach((hypothesisIndex, referenceIndex) => {
    const referenceSpeaker = referenceSpeakers[referenceIndex]!;
    if (hypothesisIndex < 0) {
      pairs.push({ reference: referenceSpeaker, hypothesis: null, errors: wordErrors(referenceBySpeaker.get(referenceSpeaker)!, []) });
      return;
    }
    pairedHypotheses.add(hypothesisIndex);
    mapping[referenceSpeaker] = hypothesisSpeakers[hypothesisIndex]!;
    pairs.push({ reference: referenceSpeaker, hypothesis: hypothesisSpeakers[hypothesisIndex]!, errors: errorsOf[referenceIndex]![hypothesisIndex]! });
  });
  hypothesisSpeakers.forEach((hypothesisSpeaker, index) => {
    if (!pairedHypotheses.has(index)) pairs.push({ reference: null, hypothesis: hypothesisSpeaker, errors: wordErrors([], hypothesisBySpeaker.get(hypothesisSpeaker)!) });
  });
  const errors = pairs.reduce((sum, pair) => sum + editsOf(pair.errors), 0);
  return { referenceWords: reference.length, errors, rate: reference.length === 0 ? (errors === 0 ? 0 : 1) : errors / reference.length, mapping, pairs };
}

/** A reference speaker turn: consecutive reference words of one speaker. */
export interface ReferenceTurn {
  speaker: string;
  /** Indexes of its words in the reference word sequence: `[first, end)`. */
  firstWord: number;
  endWord: number;
}

export interface TurnOutcome extends ReferenceTurn {
  /** Its words that the alignment pairs with a hypothesis word (matched or substituted). */
  recognisedWords: number;
  /** Those recognised words by the hypothesis speaker they were attributed to. */
  attributedTo: Record<string, number>;
  /** The hypothesis speaker mapped to the turn's reference speaker (cpWER's pairing), or null. */
  mappedSpeaker: string | null;
  /** More than half of its recognised words are attributed to `mappedSpeaker`. */
  kept: boolean;
}

/**
 * The turns of a word sequence: each run of consecutive words of one speaker (two STM segments
 * of one speaker in a row are one turn).
 */
export function speakerTurns(words: readonly AttributedWord[]): ReferenceTurn[] {
  const turns: ReferenceTurn[] = [];
  words.forEach((word, index) => {
    const last = turns.at(-1);
    if (last && last.speaker === word.speaker) last.endWord = index + 1;
    else turns.push({ speaker: word.speaker, firstWord: index, endWord: index + 1 });
  });
  return turns;
}

/**
 * Which reference turns the hypothesis keeps, scored rather than assumed: the reference and
 * hypothesis words are aligned whatever their speakers ({@link alignWords}); each reference
 * word paired with a hypothesis word takes that word's speaker; a turn is kept when more than
 * half of its recognised words went to the hypothesis speaker that `mapping` pairs with its
 * reference speaker. A turn none of whose words was recognised is not kept.
 * @param mapping reference speaker → hypothesis speaker (e.g. cpWER's pairing)
 */
export function scoreTurns(reference: readonly AttributedWord[], hypothesis: readonly AttributedWord[], mapping: Readonly<Record<string, string>>): TurnOutcome[] {
  const speakerOfReferenceWord = new Array<string | undefined>(reference.length);
  for (const step of alignWords(reference.map(({ word }) => word), hypothesis.map(({ word }) => word))) {
    if (step.kind === 'match' || step.kind === 'substitution') speakerOfReferenceWord[step.reference] = hypothesis[step.hypothesis]!.speaker;
  }
  return speakerTurns(reference).map((turn) => {
    const attributedTo: Record<string, number> = {};
    let recognisedWords = 0;
    for (let index = turn.firstWord; index < turn.endWord; index++) {
      const speaker = speakerOfReferenceWord[index];
      if (speaker === undefined) continue;
      recognisedWords += 1;
      attributedTo[speaker] = (attributedTo[speaker] ?? 0) + 1;
    }
    const mappedSpeaker = mapping[turn.speaker] ?? null;
    const kept = mappedSpeaker !== null && (attributedTo[mappedSpeaker] ?? 0) * 2 > recognisedWords;
    return { ...turn, recognisedWords, attributedTo, mappedSpeaker, kept };
  });
}

function editsOf(errors: WordErrors): number {
  return errors.substitutions + errors.deletions + errors.insertions;
}

/** Each speaker's words in order, speakers in order of their first word. */
function wordsBySpeaker(words: readonly AttributedWord[]): Map<string, string[]> {
  const bySpeaker = new Map<string, string[]>();
  for (const { word, speaker } of words) {
    const list = bySpeaker.get(speaker) ?? [];
    list.push(word);
    bySpeaker.set(speaker, list);
  }
  return bySpeaker;
}
