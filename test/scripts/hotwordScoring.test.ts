import { describe, expect, it } from 'vitest';
import { expectedNames, hotwordCallLines, hotwordCalls } from '../../scripts/evaluation/hotwordCalls.js';
import { nameFound, nameMentions, scoringWords, wordErrorRate } from '../../scripts/evaluation/hotwordScoring.js';

describe('eval:hotwords scoring', () => {
  it('finds a name only spelt exactly, as whole words, case aside', () => {
    expect(nameFound('Hello, this is kwame  mensah from Zentrix.', 'Kwame Mensah')).toBe(true);
    expect(nameFound('Hello, this is Kwame Mensah.', 'Zentrix')).toBe(false);
    expect(nameFound('the Zentrixes team', 'Zentrix')).toBe(false);
    expect(nameFound('from Zen Trix', 'Zentrix')).toBe(false);
    expect(nameFound('Kwame Mensa said', 'Kwame Mensah')).toBe(false);
    expect(nameFound('talk to Jovan Petrović', 'Jovan Petrović')).toBe(true);
  });

  it('counts a name that real transcripts write with a possessive, a hyphen or other capitals', () => {
    expect(nameFound("Zentrix's customers", 'Zentrix')).toBe(true);
    expect(nameFound('Zentrix’s customers', 'Zentrix')).toBe(true);
    expect(nameFound("Tobias Wexler's team", 'Tobias Wexler')).toBe(true);
    expect(nameFound('a Zentrix-based rollout', 'Zentrix')).toBe(true);
    expect(nameFound('talk to Marisol Etxeberria-Ruiz', 'Marisol Etxeberria')).toBe(true);
    expect(nameFound('call O\'Brien-Nakamura today', "O'Brien-Nakamura")).toBe(true);
    expect(nameFound('OMNICARE and tessaract', 'OmniCare')).toBe(true);
    expect(nameFound('Tessaract', 'tessaract')).toBe(true);
  });

  it('counts each time a name is spelt exactly', () => {
    expect(nameMentions("Zentrix, then zentrix's, then Zen Trix and Zentrixes", 'Zentrix')).toBe(2);
    expect(nameMentions('Kwame Mensah from Zentrix. Goodbye, Kwame\nMensah.', 'Kwame Mensah')).toBe(2);
    expect(nameMentions('nobody', 'Kwame Mensah')).toBe(0);
  });

  it('counts word errors against the reference, punctuation and case aside', () => {
    const reference = scoringWords('Hello, this is Kwame Mensah from Zentrix.');
    expect(reference).toEqual(['hello', 'this', 'is', 'kwame', 'mensah', 'from', 'zentrix']);
    expect(wordErrorRate(reference, scoringWords('hello this is Kwame Mensah from Zentrix'))).toBe(0);
    // Three substitutions: kwame → quamy, from → sent, zentrix → tricks.
    expect(wordErrorRate(reference, scoringWords('Hello, this is Quamy Mensah sent tricks.'))).toBeCloseTo(3 / 7, 5);
    // One deletion (from) and one insertion (tricks).
    expect(wordErrorRate(reference, scoringWords('hello this is kwame mensah zentrix tricks'))).toBeCloseTo(2 / 7, 5);
    expect(wordErrorRate(reference, [])).toBe(1);
    expect(wordErrorRate([], [])).toBe(0);
    expect(scoringWords("we'll call O'Brien-Nakamura - today")).toEqual(["we'll", 'call', "o'brien-nakamura", 'today']);
  });

  it('every call says each of its names and terms at least twice', () => {
    for (const call of hotwordCalls) {
      const script = hotwordCallLines(call).map((line) => line.text).join(' ');
      for (const name of expectedNames(call)) expect(script.split(name).length - 1, `${call.name}: ${name}`).toBeGreaterThanOrEqual(2);
    }
  });
});
