import { describe, expect, it } from 'vitest';
import { parseWhisperJson, type WhisperJson } from '../../../src/pipeline/transcription/parseWhisperJson.js';
import { VadTimeMap } from '../../../src/pipeline/transcription/VadTimeMap.js';
import { wordsFromWhisperJson } from '../../../src/pipeline/transcription/wordsFromWhisperJson.js';
import { fixture } from './transcriptionTestFiles.js';

const english = parseWhisperJson(fixture('english-base-en.json'));
const vadTimeMap = VadTimeMap.fromWhisperLog(fixture('vad-stderr.txt').split('\n'))!;

describe('wordsFromWhisperJson', () => {
  const words = wordsFromWhisperJson(english, { durationSeconds: 11, language: 'en' });
  const texts = words.map((word) => word.text);

  it('merges sub-word tokens into words and keeps punctuation on its word', () => {
    expect(texts).toEqual(['And', 'so', 'my', 'fellow', 'Americans,', 'ask', 'not', '-what', '"Yes."', 'well...', 'um', 'for', 'you', 'country.', 'Thank']);
  });

  it('drops special tokens ([_BEG_], [_TT_…], <|endoftext|>) and gives a segment without speech no words', () => {
    expect(texts.join(' ')).not.toMatch(/\[_|<\|/);
    expect(words.filter((word) => word.startSeconds >= 4.41 && word.endSeconds <= 5.38)).toEqual([]);
  });

  it('times a word from its first token\'s start to its last token\'s end, in seconds', () => {
    expect(words[0]).toEqual({ text: 'And', startSeconds: 0.32, endSeconds: 0.51, probability: 0.71 });
    expect(words[4]).toMatchObject({ text: 'Americans,', startSeconds: 1.2, endSeconds: 2.27 });
    expect(words[8]).toMatchObject({ text: '"Yes."', startSeconds: 5.38, endSeconds: 5.9 });
    expect(words[9]).toMatchObject({ text: 'well...', startSeconds: 6, endSeconds: 6.6 });
  });

  it('gives a word the mean probability of its tokens', () => {
    expect(words[4]!.probability).toBeCloseTo((0.9 + 0.99 + 0.61) / 3, 3);
    expect(words[7]!.probability).toBeCloseTo((0.55 + 0.93) / 2, 3);
  });

  it('puts a word whose tokens have no times where the word before it ended', () => {
    expect(words[10]).toMatchObject({ text: 'um', startSeconds: 6.6, endSeconds: 6.6 });
  });

  it('keeps times monotonic when whisper\'s are out of order: no word starts before the one before it ends', () => {
    expect(words[11]).toMatchObject({ text: 'for', startSeconds: 9, endSeconds: 9.2 });
    expect(words[12]).toMatchObject({ text: 'you', startSeconds: 9.2, endSeconds: 9.2 });
    for (const [index, word] of words.entries()) {
      expect(word.endSeconds).toBeGreaterThanOrEqual(word.startSeconds);
      if (index > 0) expect(word.startSeconds).toBeGreaterThanOrEqual(words[index - 1]!.endSeconds);
    }
  });

  it('clamps times to the audio\'s duration', () => {
    expect(words[13]).toMatchObject({ text: 'country.', startSeconds: 10.5, endSeconds: 11 });
    expect(words[14]).toMatchObject({ text: 'Thank', startSeconds: 11, endSeconds: 11 });
    expect(Math.max(...words.map((word) => word.endSeconds))).toBe(11);
  });

  it('reads a multilingual model\'s German, with umlauts split across tokens and its language token dropped', () => {
    const german = wordsFromWhisperJson(parseWhisperJson(fixture('german-base.json')), { durationSeconds: 4, language: 'de' });
    expect(german.map((word) => word.text)).toEqual(['Grüße,', 'wie', "geht's?", 'Danke', 'schön.']);
    expect(german[0]).toMatchObject({ startSeconds: 0.12, endSeconds: 0.85 });
    expect(german[0]!.probability).toBeCloseTo((0.8 + 0.95 + 0.97 + 0.7) / 4, 3);
  });

  it('makes every token a word in a language written without spaces', () => {
    const json: WhisperJson = {
      model: { multilingual: true },
      transcription: [{
        offsets: { from: 0, to: 1500 },
        tokens: [
          { text: '[_BEG_]', id: 50364, p: 1 },
          { text: 'こんにちは', offsets: { from: 0, to: 600 }, id: 38088, p: 0.9 },
          { text: '世界', offsets: { from: 600, to: 1200 }, id: 24486, p: 0.8 },
          { text: '。', offsets: { from: 1200, to: 1300 }, id: 1543, p: 0.7 },
        ],
      }],
    };
    expect(wordsFromWhisperJson(json, { durationSeconds: 2, language: 'ja' }).map((word) => word.text)).toEqual(['こんにちは', '世界。']);
  });

  it('gives no words for a transcription with no segments', () => {
    expect(wordsFromWhisperJson({ transcription: [] }, { durationSeconds: 11 })).toEqual([]);
  });

  describe('with VAD', () => {
    const processed = parseWhisperJson(fixture('vad-processed-timeline.json'));

    it('maps token times from VAD\'s shortened audio back to the recording, also across a gap VAD cut out', () => {
      const vadWords = wordsFromWhisperJson(processed, { durationSeconds: 11, vadTimeMap, language: 'en' });
      expect(vadWords.map((word) => [word.text, word.startSeconds, word.endSeconds])).toEqual([
        ['And', 0.32, 0.51], ['so', 0.51, 0.65], ['my', 0.65, 0.8], ['fellow', 0.8, 1.2], ['Americans,', 1.2, 2.27],
        ['ask', 3.32, 3.62], ['not', 3.62, 3.9],
        ['what', 5.39, 5.59], ['your', 5.59, 5.79], ['country', 5.79, 6.39],
        ['can', 8.17, 8.47], ['do', 8.47, 8.67],
      ]);
    });

    it('leaves token times alone when whisper already mapped them (whisper.cpp 1.9.2 and later)', () => {
      const mapped = structuredClone(processed);
      for (const segment of mapped.transcription) {
        for (const token of segment.tokens ?? []) {
          if (token.offsets) token.offsets = { from: vadTimeMap.toOriginal(token.offsets.from), to: vadTimeMap.toOriginal(token.offsets.to) };
        }
      }
      expect(wordsFromWhisperJson(mapped, { durationSeconds: 11, vadTimeMap })).toEqual(wordsFromWhisperJson(processed, { durationSeconds: 11, vadTimeMap }));
    });
  });
});
