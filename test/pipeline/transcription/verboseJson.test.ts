import { describe, expect, it } from 'vitest';
import type { WhisperJson } from '../../../src/pipeline/transcription/parseWhisperJson.js';
import {
  languageCodeOf, parseVerboseJson, VerboseJsonError, whisperJsonFromVerbose, type VerboseJson,
} from '../../../src/pipeline/transcription/verboseJson.js';
import { wordsFromWhisperJson } from '../../../src/pipeline/transcription/wordsFromWhisperJson.js';

/** whisper.cpp's server writes times as centiseconds × 0.01, with float noise (0.29000000000000004). */
const seconds = (centiseconds: number) => centiseconds * 0.01;

/** [text, from cs, to cs, probability] of whisper's tokens, as both fixtures below hold them. */
const tokens = [
  [[' And', 32, 51, 0.71], [' so', 51, 65, 0.9], [' my', 65, 80, 0.95], [' fel', 80, 100, 0.6], ['low', 100, 120, 0.8],
    [' Americ', 120, 180, 0.9], ['ans', 180, 222, 0.99], [',', 222, 227, 0.61]],
  [[' ask', 332, 362, 0.88], [' not', 362, 390, 0.92], [' "', 390, 395, 0.5], ['what', 395, 420, 0.77], ['.', 420, 429, 0.97]],
] as const;
const segmentTimes = [[0, 302], [302, 440]] as const;

/** What whisper.cpp's `whisper-server` answers to `/inference` with `response_format=verbose_json`. */
const serverAnswer = {
  task: 'transcribe',
  language: 'english',
  duration: 4.5,
  text: ' And so my fellow Americans, ask not "what.',
  segments: tokens.map((segment, index) => ({
    id: index,
    text: segment.map(([text]) => text).join(''),
    start: seconds(segmentTimes[index]![0]),
    end: seconds(segmentTimes[index]![1]),
    tokens: segment.map((_, tokenIndex) => 400 + tokenIndex),
    words: segment.map(([word, from, to, probability]) => ({ word, start: seconds(from), end: seconds(to), t_dtw: -1, probability })),
    temperature: 0,
    avg_logprob: -0.3,
    no_speech_prob: 0.01,
  })),
};

/** The same transcription as whisper-cli's `-ojf` output: ms offsets, token ids, special tokens around the text. */
const cliJson: WhisperJson = {
  model: { multilingual: true },
  params: { language: 'auto' },
  result: { language: 'en' },
  transcription: tokens.map((segment, index) => ({
    offsets: { from: segmentTimes[index]![0] * 10, to: segmentTimes[index]![1] * 10 },
    text: segment.map(([text]) => text).join(''),
    tokens: [
      { text: '[_BEG_]', offsets: { from: segmentTimes[index]![0] * 10, to: segmentTimes[index]![0] * 10 }, id: 50364, p: 0.98 },
      ...segment.map(([text, from, to, p], tokenIndex) => ({ text, offsets: { from: from * 10, to: to * 10 }, id: 400 + tokenIndex, p })),
      { text: `[_TT_${segmentTimes[index]![1]}]`, offsets: { from: segmentTimes[index]![1] * 10, to: segmentTimes[index]![1] * 10 }, id: 50365 + segmentTimes[index]![1], p: 0.5 },
    ],
  })),
};

/** An OpenAI `/v1/audio/transcriptions` answer with `timestamp_granularities[]=word` and `=segment`. */
function openAiAnswer(overrides: Partial<VerboseJson> = {}): VerboseJson {
  return {
    language: 'english',
    duration: 6.5,
    text: 'Hello there, how can I help?',
    words: [
      { word: 'Hello', start: 0.5, end: 0.9 },
      { word: 'there,', start: 0.9, end: 1.3 },
      { word: 'how', start: 2.0, end: 2.2 },
      { word: "can't", start: 2.2, end: 2.4 },
      { word: 'I', start: 2.4, end: 2.5 },
      { word: 'help?', start: 2.5, end: 3.0 },
    ],
    segments: [
      { start: 0.5, end: 1.4, text: ' Hello there,' },
      { start: 2.0, end: 3.0, text: " how can't I help?" },
    ],
    ...overrides,
  };
}

const wordsOf = (verbose: VerboseJson, durationSeconds = 10) => wordsFromWhisperJson(whisperJsonFromVerbose(verbose), { durationSeconds, language: 'en' });

describe('whisperJsonFromVerbose: whisper.cpp server shape (tokens inside segments)', () => {
  const verbose = parseVerboseJson(JSON.stringify(serverAnswer));

  it('makes the same words as whisper-cli\'s output of the same transcription', () => {
    const fromServer = wordsFromWhisperJson(whisperJsonFromVerbose(verbose), { durationSeconds: 4.5, language: 'en' });
    expect(fromServer).toEqual(wordsFromWhisperJson(cliJson, { durationSeconds: 4.5, language: 'en' }));
  });

  it('joins sub-word pieces, attaches punctuation, takes the mean probability and times in seconds', () => {
    const words = wordsOf(verbose, 4.5);
    expect(words.map((word) => word.text)).toEqual(['And', 'so', 'my', 'fellow', 'Americans,', 'ask', 'not', '"what.']);
    expect(words[0]).toEqual({ text: 'And', startSeconds: 0.32, endSeconds: 0.51, probability: 0.71 });
    expect(words[3]).toEqual({ text: 'fellow', startSeconds: 0.8, endSeconds: 1.2, probability: 0.7 });
    expect(words[4]).toMatchObject({ text: 'Americans,', startSeconds: 1.2, endSeconds: 2.27 });
    expect(words[4]!.probability).toBeCloseTo((0.9 + 0.99 + 0.61) / 3, 3);
    expect(words[7]).toMatchObject({ text: '"what.', startSeconds: 3.9, endSeconds: 4.29 });
  });

  it('reads the DTW times of a server started with -dtw, as whisper-cli\'s', () => {
    // DTW leaves each token 20 ms after its token timestamp ends, in centiseconds.
    const dtwOf = (to: number) => to + 2;
    const withDtw = structuredClone(serverAnswer);
    for (const segment of withDtw.segments) for (const word of segment.words) word.t_dtw = dtwOf(Math.round(word.end * 100));
    const cliWithDtw = structuredClone(cliJson);
    for (const segment of cliWithDtw.transcription) for (const token of segment.tokens!) token.t_dtw = token.id < 50257 ? dtwOf(token.offsets!.to / 10) : -1;
    const fromServer = wordsOf(parseVerboseJson(JSON.stringify(withDtw)), 4.5);
    expect(fromServer).toEqual(wordsFromWhisperJson(cliWithDtw, { durationSeconds: 4.5, language: 'en' }));
    expect(fromServer.slice(0, 2)).toMatchObject([{ text: 'And', startSeconds: 0, endSeconds: 0.53 }, { text: 'so', startSeconds: 0.53, endSeconds: 0.67 }]);
    expect(fromServer[4]).toMatchObject({ text: 'Americans,', endSeconds: 2.24 });
  });

  it('keeps the segments and the tokens\' texts as the server wrote them, times in ms', () => {
    const json = whisperJsonFromVerbose(verbose);
    expect(json.result).toEqual({ language: 'en' });
    expect(json.transcription.map((segment) => segment.offsets)).toEqual([{ from: 0, to: 3020 }, { from: 3020, to: 4400 }]);
    expect(json.transcription[0]!.tokens!.map((token) => token.text)).toEqual([' And', ' so', ' my', ' fel', 'low', ' Americ', 'ans', ',']);
    expect(json.transcription[0]!.tokens![6]).toMatchObject({ offsets: { from: 1800, to: 2220 }, p: 0.99 });
  });
});

describe('whisperJsonFromVerbose: OpenAI shape (whole words at the top level)', () => {
  it('makes every word one word, certain (probability 1), at its own times', () => {
    expect(wordsOf(openAiAnswer())).toEqual([
      { text: 'Hello', startSeconds: 0.5, endSeconds: 0.9, probability: 1 },
      { text: 'there,', startSeconds: 0.9, endSeconds: 1.3, probability: 1 },
      { text: 'how', startSeconds: 2, endSeconds: 2.2, probability: 1 },
      { text: "can't", startSeconds: 2.2, endSeconds: 2.4, probability: 1 },
      { text: 'I', startSeconds: 2.4, endSeconds: 2.5, probability: 1 },
      { text: 'help?', startSeconds: 2.5, endSeconds: 3, probability: 1 },
    ]);
  });

  it('keeps a probability the server gives, and reads words written with a leading space (faster-whisper) the same', () => {
    const answer = openAiAnswer();
    const spaced = openAiAnswer({ words: answer.words!.map((word) => ({ ...word, word: ` ${word.word}` })) });
    expect(wordsOf(spaced)).toEqual(wordsOf(answer));
    const withProbability = openAiAnswer({ words: answer.words!.map((word, index) => ({ ...word, probability: index === 1 ? 0.42 : 0.9 })) });
    expect(wordsOf(withProbability).map((word) => word.probability)).toEqual([0.9, 0.42, 0.9, 0.9, 0.9, 0.9]);
  });

  it('places each word in the segment holding its start', () => {
    const json = whisperJsonFromVerbose(openAiAnswer());
    expect(json.transcription.map((segment) => segment.tokens!.map((token) => token.text))).toEqual([
      [' Hello', ' there,'],
      [' how', " can't", ' I', ' help?'],
    ]);
    expect(json.transcription.map((segment) => segment.offsets)).toEqual([{ from: 500, to: 1400 }, { from: 2000, to: 3000 }]);
    expect(json.transcription.map((segment) => segment.text)).toEqual([' Hello there,', " how can't I help?"]);
    expect(json.transcription[0]!.tokens![0]).toEqual({ text: ' Hello', offsets: { from: 500, to: 900 }, id: 0, p: 1 });
  });

  it('puts all words in one span from 0 to the end of the audio when there are no segments', () => {
    const json = whisperJsonFromVerbose(openAiAnswer({ segments: undefined }));
    expect(json.transcription).toHaveLength(1);
    expect(json.transcription[0]!.offsets).toEqual({ from: 0, to: 6500 });
    expect(json.transcription[0]!.tokens).toHaveLength(6);
    expect(wordsOf(openAiAnswer({ segments: undefined }))).toEqual(wordsOf(openAiAnswer()));

    const noDuration = whisperJsonFromVerbose(openAiAnswer({ segments: undefined, duration: undefined }));
    expect(noDuration.transcription[0]!.offsets).toEqual({ from: 0, to: 3000 });
  });

  it('widens a segment for a word that starts a little before it or ends after it, instead of moving the word', () => {
    const answer = openAiAnswer({
      words: [
        { word: 'Hello', start: 0.42, end: 0.9 },
        { word: 'there,', start: 0.9, end: 1.3 },
        { word: 'how', start: 1.95, end: 2.2 },
        { word: 'can', start: 2.2, end: 2.4 },
        { word: 'I', start: 2.4, end: 2.5 },
        { word: 'help?', start: 2.5, end: 3.2 },
      ],
    });
    const json = whisperJsonFromVerbose(answer);
    expect(json.transcription[0]!.offsets.from).toBe(420);
    expect(json.transcription.at(-1)!.offsets.to).toBe(3200);
    for (const segment of json.transcription) {
      for (const token of segment.tokens!) {
        expect(token.offsets!.from).toBeGreaterThanOrEqual(segment.offsets.from);
        expect(token.offsets!.to).toBeLessThanOrEqual(segment.offsets.to);
      }
    }
    expect(wordsOf(answer).map((word) => [word.text, word.startSeconds, word.endSeconds])).toEqual([
      ['Hello', 0.42, 0.9], ['there,', 0.9, 1.3], ['how', 1.95, 2.2], ['can', 2.2, 2.4], ['I', 2.4, 2.5], ['help?', 2.5, 3.2],
    ]);
  });
});

/** What the PyPI package faster-whisper-server 0.0.3 answers (run for real on tiny.en and jfk.wav): segment times and text, no words at all. */
function segmentOnlyAnswer(): VerboseJson {
  return {
    language: 'en',
    duration: 11,
    text: ' And so, my fellow Americans ask not what your country can do for you ask what you can do for your country.',
    segments: [
      { start: 0, end: 8, text: ' And so, my fellow Americans ask not what your country can do for you' },
      // 30 characters without the spaces over 3 s: 0.1 s a character.
      { start: 8, end: 11, text: ' ask what you can do for your country.' },
    ],
  };
}

describe('whisperJsonFromVerbose: segment times only (no words, as faster-whisper-server gives)', () => {
  it('makes words of each segment\'s text rather than an empty transcript', () => {
    expect(wordsOf(segmentOnlyAnswer(), 11).map((word) => word.text)).toEqual([
      'And', 'so,', 'my', 'fellow', 'Americans', 'ask', 'not', 'what', 'your', 'country', 'can', 'do', 'for', 'you',
      'ask', 'what', 'you', 'can', 'do', 'for', 'your', 'country.',
    ]);
  });

  it('spreads the segment\'s time over its words in proportion to their characters, certain (probability 1)', () => {
    const words = wordsOf(segmentOnlyAnswer(), 11).slice(14);
    expect(words.map((word) => [word.text, word.startSeconds, word.endSeconds])).toEqual([
      ['ask', 8, 8.3], ['what', 8.3, 8.7], ['you', 8.7, 9], ['can', 9, 9.3], ['do', 9.3, 9.5], ['for', 9.5, 9.8],
      ['your', 9.8, 10.2], ['country.', 10.2, 11],
    ]);
    expect(words.every((word) => word.probability === 1)).toBe(true);
  });

  it('keeps every word inside its segment, in order', () => {
    const answer = segmentOnlyAnswer();
    const json = whisperJsonFromVerbose(answer);
    json.transcription.forEach((segment, index) => {
      expect(segment.offsets).toEqual({ from: answer.segments![index]!.start! * 1000, to: answer.segments![index]!.end! * 1000 });
      expect(segment.tokens!.at(0)!.offsets!.from).toBe(segment.offsets.from);
      expect(segment.tokens!.at(-1)!.offsets!.to).toBe(segment.offsets.to);
    });
    const words = wordsOf(answer, 11);
    words.forEach((word, index) => {
      expect(word.endSeconds).toBeGreaterThan(word.startSeconds);
      if (index > 0) expect(word.startSeconds).toBe(words[index - 1]!.endSeconds);
    });
  });

  it('spreads a segment whose words are an empty list too, and leaves a segment without text empty', () => {
    const answer = segmentOnlyAnswer();
    const withEmptyWords = { ...answer, segments: answer.segments!.map((segment) => ({ ...segment, words: [] })) };
    expect(wordsOf(withEmptyWords, 11)).toEqual(wordsOf(answer, 11));
    expect(wordsOf({ segments: [{ start: 0, end: 2, text: '  ' }, { start: 2, end: 3 }] }, 11)).toEqual([]);
  });
});

describe('language', () => {
  it.each([
    ['english', 'en'], ['English', 'en'], ['haitian creole', 'ht'], ['en', 'en'], ['cantonese', 'yue'], ['haw', 'haw'],
  ])('%j → %j', (name, code) => {
    expect(languageCodeOf(name)).toBe(code);
    expect(whisperJsonFromVerbose(openAiAnswer({ language: name })).result).toEqual({ language: code });
  });

  it.each([['klingon'], ['xx'], ['']])('an unknown name (%j) gives no code and no result', (name) => {
    expect(languageCodeOf(name)).toBeUndefined();
    expect(whisperJsonFromVerbose(openAiAnswer({ language: name }))).not.toHaveProperty('result');
  });

  it('a missing language gives no result', () => {
    expect(languageCodeOf(undefined)).toBeUndefined();
    expect(whisperJsonFromVerbose(openAiAnswer({ language: undefined }))).not.toHaveProperty('result');
  });
});

describe('parseVerboseJson', () => {
  const secret = 'my card number is 4111 1111';

  function errorOf(body: string): VerboseJsonError {
    try {
      parseVerboseJson(body);
    } catch (error) {
      expect(error).toBeInstanceOf(VerboseJsonError);
      return error as VerboseJsonError;
    }
    throw new Error('expected the answer to be refused');
  }

  it('reads both shapes', () => {
    expect(parseVerboseJson(JSON.stringify(serverAnswer)).segments).toHaveLength(2);
    expect(parseVerboseJson(JSON.stringify(openAiAnswer())).words).toHaveLength(6);
  });

  it('refuses an answer that is not JSON', () => {
    expect(errorOf(`<html><body>${secret}</body></html>`).message).toMatch(/not JSON/);
    expect(errorOf('').message).toMatch(/not JSON/);
  });

  it('refuses an answer of another shape, naming the field path and never the text', () => {
    const badStart = errorOf(JSON.stringify({ text: secret, segments: [{ text: secret, words: [{ word: secret, start: 0 }, { word: secret, start: '0.5' }] }] }));
    expect(badStart.message).toContain('/segments/0/words/1/start');
    expect(badStart.message).not.toContain('4111');

    const textInTheWrongPlace = errorOf(JSON.stringify({ words: [{ word: { text: secret } }] }));
    expect(textInTheWrongPlace.message).toContain('/words/0/word');
    expect(textInTheWrongPlace.message).not.toContain('4111');

    expect(errorOf(JSON.stringify([secret])).message).toContain('(root)');
    expect(errorOf(JSON.stringify(secret)).message).not.toContain('4111');
  });

  it('refuses an answer with neither segments nor words, pointing at response_format=verbose_json', () => {
    // What `response_format=json` gives.
    const error = errorOf(JSON.stringify({ text: secret }));
    expect(error.message).toContain('response_format=verbose_json');
    expect(error.message).not.toContain('4111');
  });
});
