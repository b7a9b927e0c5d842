import { describe, expect, it } from 'vitest';
import {
  alignWords, concatenatedPermutationWer, scoreTurns, speakerTurns, wordErrors, type AttributedWord,
} from '../../scripts/evaluation/speakerAttributedScoring.js';
import { parseStm } from '../../scripts/evaluation/stm.js';

/** `"A: hello there | B: hi"` → words with their speakers. */
function said(text: string): AttributedWord[] {
  return text.split('|').flatMap((part) => {
    const [speaker, words] = part.split(':').map((piece) => piece.trim());
    return words!.split(/\s+/).filter(Boolean).map((word) => ({ word, speaker: speaker! }));
  });
}

describe('eval:end-to-end scoring', () => {
  it('counts substitutions, deletions and insertions of a word alignment', () => {
    expect(wordErrors(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual({ referenceWords: 4, substitutions: 1, deletions: 0, insertions: 1, rate: 0.5 });
    expect(wordErrors(['a', 'b'], [])).toMatchObject({ deletions: 2, rate: 1 });
    expect(wordErrors([], [])).toMatchObject({ rate: 0 });
    expect(alignWords(['so', 'what', 'can', 'i', 'say', 'i', 'do', 'not'], ['so', 'i', 'do', 'not']).filter((step) => step.kind === 'match'))
      .toEqual([{ kind: 'match', reference: 0, hypothesis: 0 }, { kind: 'match', reference: 5, hypothesis: 1 }, { kind: 'match', reference: 6, hypothesis: 2 }, { kind: 'match', reference: 7, hypothesis: 3 }]);
  });

  it('cpWER pairs speakers whatever their names, and counts a word given to the wrong speaker twice', () => {
    const reference = said('Diane: hello there | Sheila: hi diane | Diane: how are you');
    const perfect = concatenatedPermutationWer(reference, said('spk_1: hello there | spk_0: hi diane | spk_1: how are you'));
    expect(perfect).toMatchObject({ errors: 0, rate: 0, mapping: { Diane: 'spk_1', Sheila: 'spk_0' } });

    // "diane" given to the other speaker: deleted from Sheila's words, inserted into Diane's.
    const misattributed = concatenatedPermutationWer(reference, said('spk_1: hello there | spk_0: hi | spk_1: diane how are you'));
    expect(misattributed).toMatchObject({ errors: 2, referenceWords: 7, mapping: { Diane: 'spk_1', Sheila: 'spk_0' } });
    // The same words, speakers ignored: no error at all.
    expect(wordErrors(reference.map(({ word }) => word), said('spk_1: hello there | spk_0: hi | spk_1: diane how are you').map(({ word }) => word)).rate).toBe(0);
  });

  it('cpWER counts the words of a speaker left unpaired as deleted or inserted', () => {
    const reference = said('A: one two | B: three | C: four five');
    const merged = concatenatedPermutationWer(reference, said('x: one two three four five'));
    // x is paired with one reference speaker; the other two speakers' words are deleted, and x's extra words inserted.
    expect(merged.pairs.filter((pair) => pair.hypothesis === null)).toHaveLength(2);
    expect(merged.errors).toBe(merged.pairs.reduce((sum, pair) => sum + pair.errors.substitutions + pair.errors.deletions + pair.errors.insertions, 0));
    expect(merged.mapping).toEqual({ A: 'x' });
    expect(merged.errors).toBe(3 + 3);
  });

  it('groups consecutive words of one speaker into turns', () => {
    expect(speakerTurns(said('A: a b | A: c | B: d | A: e'))).toEqual([
      { speaker: 'A', firstWord: 0, endWord: 3 }, { speaker: 'B', firstWord: 3, endWord: 4 }, { speaker: 'A', firstWord: 4, endWord: 5 },
    ]);
  });

  it('keeps a turn when most of its recognised words went to the paired speaker, and not one whose words were all missed or split evenly', () => {
    const reference = said('Diane: hello | Sheila: hello | Diane: oh i did not know you were there | Sheila: neither did i');
    // Diane's first hello missed; "neither" given to Diane, "did i" to Sheila; "there" misheard.
    const hypothesis = said('s0: hello | s1: oh i did not know you were bear neither | s0: did i');
    const turns = scoreTurns(reference, hypothesis, { Diane: 's1', Sheila: 's0' });
    expect(turns.map((turn) => [turn.recognisedWords, turn.kept])).toEqual([[0, false], [1, true], [8, true], [3, true]]);
    expect(turns[3]!.attributedTo).toEqual({ s1: 1, s0: 2 });

    const split = scoreTurns(said('A: one two | B: three four'), said('x: one two three | y: four'), { A: 'x', B: 'y' });
    expect(split.map((turn) => turn.kept)).toEqual([true, false]);
    // A reference speaker no transcript speaker is paired with keeps no turn.
    expect(scoreTurns(said('A: one | B: two'), said('x: one two'), { A: 'x' }).map((turn) => turn.kept)).toEqual([true, false]);
  });

  it('reads STM segments, skipping comments and segments without text', () => {
    expect(parseStm(';; comment\nsample 1 Diane 6.68 7.16 Hello?\n\nsample 1 inter_segment_gap 7.16 7.63\nsample 1 Sheila 7.634 8.155 Oh,  hello.\n')).toEqual([
      { speaker: 'Diane', startSeconds: 6.68, endSeconds: 7.16, text: 'Hello?' },
      { speaker: 'Sheila', startSeconds: 7.634, endSeconds: 8.155, text: 'Oh, hello.' },
    ]);
    expect(() => parseStm('sample 1 Diane six 7 Hello')).toThrow(/STM line 1/);
  });
});
