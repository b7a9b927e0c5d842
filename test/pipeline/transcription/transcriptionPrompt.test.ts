import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import {
  maxPromptCharacters, transcriptionPrompt, vocabularyProblems, vocabularyTerms,
} from '../../../src/pipeline/transcription/transcriptionPrompt.js';

describe('transcriptionPrompt', () => {
  it('lists the admin\'s terms, then the user\'s and the contact\'s names, as one sentence', () => {
    expect(transcriptionPrompt({ userDisplayName: 'Maria Lopez', contactName: 'Dr. Patel', vocabulary: ['Callscope', 'Zentrix'] }))
      .toBe('Callscope, Zentrix, Maria Lopez, Dr. Patel.');
  });

  it('gives no prompt at all when there is nothing to say', () => {
    expect(transcriptionPrompt({})).toBeUndefined();
    expect(transcriptionPrompt({ userDisplayName: '  ', contactName: '', vocabulary: [' ', '\t'] })).toBeUndefined();
  });

  it('trims, turns control and invisible characters into spaces and joins runs of spaces', () => {
    expect(transcriptionPrompt({ userDisplayName: '  Maria\u0000\u0007Lopez ', contactName: 'Dr.\u200b\u202ePatel\n\n' })).toBe('Maria Lopez, Dr. Patel.');
  });

  it('keeps each name once, ignoring case, whoever gives it', () => {
    expect(transcriptionPrompt({ userDisplayName: 'Sam Okafor', contactName: 'sam okafor', vocabulary: ['SAM OKAFOR', 'Zentrix', 'zentrix'] }))
      .toBe('Zentrix, Sam Okafor.');
  });

  it('leaves out entries with no letter (a phone number as the contact name) and overlong ones', () => {
    expect(transcriptionPrompt({ contactName: '+44 20 7946 0958', vocabulary: ['x'.repeat(101), 'Zentrix'] })).toBe('Zentrix.');
  });

  it('adds no second full stop after an entry that ends a sentence', () => {
    expect(transcriptionPrompt({ contactName: 'Acme Inc.' })).toBe('Acme Inc.');
  });

  it('keeps whole entries within the length bound, names before terms, and the terms in the admin\'s order', () => {
    const vocabulary = Array.from({ length: 100 }, (_, index) => `Term${String(index).padStart(2, '0')}`);
    const prompt = transcriptionPrompt({ userDisplayName: 'Maria Lopez', contactName: 'Dr. Patel', vocabulary })!;
    expect(prompt.length).toBeLessThanOrEqual(maxPromptCharacters);
    expect(prompt.endsWith('Maria Lopez, Dr. Patel.')).toBe(true);
    const terms = prompt.split(', ').filter((entry) => entry.startsWith('Term'));
    expect(terms.length).toBeGreaterThan(40);
    expect(terms.length).toBeLessThan(100);
    expect(terms).toEqual(vocabulary.slice(0, terms.length));

    // A bound only the names fit in: every term goes, no name is cut.
    expect(transcriptionPrompt({ userDisplayName: 'Maria Lopez', contactName: 'Dr. Patel', vocabulary }, 25)).toBe('Maria Lopez, Dr. Patel.');
  });
});

describe('TRANSCRIPTION_VOCABULARY', () => {
  it('splits on commas and new lines and drops empty terms', () => {
    expect(vocabularyTerms('Callscope, Zentrix\nDr. Okonkwo\r\n\n , Kwame Mensah,')).toEqual(['Callscope', 'Zentrix', 'Dr. Okonkwo', 'Kwame Mensah']);
    expect(vocabularyTerms(undefined)).toEqual([]);
  });

  it('is refused with a clear reason beyond 100 terms, 100 characters a term or 2,000 characters', () => {
    const many = Array.from({ length: 101 }, (_, index) => `T${index}`).join(',');
    expect(vocabularyProblems(many)).toEqual(['holds 101 terms; at most 100 are allowed']);
    expect(vocabularyProblems(`Zentrix, ${'y'.repeat(120)}`)[0]).toMatch(/at most 100 characters/);
    expect(() => loadConfig({ TRANSCRIPTION_VOCABULARY: many })).toThrow(/TRANSCRIPTION_VOCABULARY: holds 101 terms/);
    expect(() => loadConfig({ TRANSCRIPTION_VOCABULARY: Array.from({ length: 90 }, () => 'z'.repeat(30)).join(',') })).toThrow(/TRANSCRIPTION_VOCABULARY/);
    expect(loadConfig({ TRANSCRIPTION_VOCABULARY: 'Callscope\nZentrix' }).TRANSCRIPTION_VOCABULARY).toBe('Callscope\nZentrix');
  });
});
