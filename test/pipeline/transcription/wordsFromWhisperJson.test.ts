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

  describe('with DTW times (t_dtw: where the alignment leaves each token, its end)', () => {
    const token = (text: string, fromMs: number, toMs: number, dtwCentiseconds: number) => ({ text, offsets: { from: fromMs, to: toMs }, id: 100, p: 0.9, t_dtw: dtwCentiseconds });
    // Token timestamps that drift late within the first segment, as whisper's do; DTW's times are right.
    const json: WhisperJson = {
      model: { multilingual: false },
      transcription: [
        {
          offsets: { from: 0, to: 6000 },
          tokens: [
            { text: '[_BEG_]', offsets: { from: 0, to: 0 }, id: 50363, p: 1, t_dtw: -1 },
            token(' Hello', 0, 900, 90), token('?', 900, 1000, 95),
            // A pause of 2 s, then "Oh, hello."
            token(' Oh', 4200, 4600, 330), token(',', 4600, 4700, 335),
            token(' hello', 4700, 5600, 370), token('.', 5600, 6000, 380),
          ],
        },
        // A window DTW skipped (too short): its tokens have no DTW time.
        { offsets: { from: 8000, to: 9000 }, tokens: [token(' Neither', 8000, 8400, -1), token(' did', 8400, 8600, -1)] },
      ],
    };
    const words = wordsFromWhisperJson(json, { durationSeconds: 10, language: 'en' });

    it('ends a word where DTW leaves its last spoken token (a closing mark\'s time is the next word\'s start), centiseconds to seconds', () => {
      expect(words.map((word) => [word.text, word.endSeconds])).toEqual([['Hello?', 0.9], ['Oh,', 3.3], ['hello.', 3.7], ['Neither', 8.4], ['did', 8.6]]);
    });

    it('starts a word where the word before it ended', () => {
      expect(words[2]).toMatchObject({ text: 'hello.', startSeconds: 3.3 });
    });

    it('starts a word after a pause no earlier than the longest it can last (300 ms + 150 ms a letter) before its end, nor before its segment', () => {
      // "Oh,": 3.3 s − (0.3 + 2 × 0.15) = 2.7 s, not 0.9 s where "Hello?" ended; "Hello?" would start at −0.15 s.
      expect(words[1]).toMatchObject({ startSeconds: 2.7 });
      expect(words[0]).toMatchObject({ startSeconds: 0 });
    });

    it('falls back to token timestamps for the words of a window without DTW times', () => {
      expect(words.slice(3).map((word) => [word.startSeconds, word.endSeconds])).toEqual([[8, 8.4], [8.4, 8.6]]);
    });

    it('reads t_dtw from whisper-cli\'s JSON', () => {
      const parsed = parseWhisperJson(JSON.stringify(json));
      expect(parsed.transcription[0]!.tokens![1]!.t_dtw).toBe(90);
    });
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

    it('maps DTW times from VAD\'s shortened audio back to the recording, as token times', () => {
      const withDtw = structuredClone(processed);
      // DTW's time for each text token where its token timestamp ends, in centiseconds of the processed audio.
      for (const segment of withDtw.transcription) {
        for (const token of segment.tokens ?? []) if (token.offsets && !token.text.startsWith('[_')) token.t_dtw = token.offsets.to / 10;
      }
      // Words without a closing mark, whose DTW end is their token timestamps' end.
      const ends = (json: WhisperJson) => wordsFromWhisperJson(json, { durationSeconds: 11, vadTimeMap, language: 'en' })
        .filter((word) => /^[a-z]+$/i.test(word.text)).map((word) => [word.text, word.endSeconds]);
      expect(ends(withDtw)).toEqual(ends(processed));
      expect(ends(withDtw)).toContainEqual(['country', 6.39]);
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
