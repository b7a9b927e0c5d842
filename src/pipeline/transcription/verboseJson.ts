import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { TranscribedWord } from '../speechTypes.js';
import type { WhisperJson, WhisperJsonToken } from './parseWhisperJson.js';
import type { VadTimeMap } from './VadTimeMap.js';
import { wordsFromWhisperJson } from './wordsFromWhisperJson.js';

const Word = Type.Object({
  word: Type.String(),
  start: Type.Optional(Type.Number()),
  end: Type.Optional(Type.Number()),
  probability: Type.Optional(Type.Number()),
  /** whisper-server started with `-dtw`: where DTW's alignment leaves the token (its end), centiseconds (-1: none). */
  t_dtw: Type.Optional(Type.Number()),
});

/**
 * The `verbose_json` answer of a transcription server, in either of its two shapes (times in
 * seconds):
 * - OpenAI's `/v1/audio/transcriptions` with `timestamp_granularities[]=word` (also
 *   faster-whisper-server/speaches, vLLM): whole words at the top level, `{word, start, end}`
 *   (some servers add `probability`), segments beside them;
 * - whisper.cpp's `whisper-server` `/inference`: the words inside each segment, one per token
 *   as whisper made them (`" And"`, `"so"`), each with `start`, `end` and `probability`, and
 *   `t_dtw` (centiseconds, -1 when absent): a DTW time only from a server started with
 *   `-dtw <preset> -nfa` (a start flag: no request can ask for it).
 *
 * A server may also give segments with their text and times but no words at all: the PyPI
 * package faster-whisper-server 0.0.3 (andyjjrt's, not speaches) ignores
 * `timestamp_granularities[]`.
 *
 * `language` is the language's English name in both (`"english"`), or already a code.
 */
export const VerboseJsonSchema = Type.Object({
  language: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Number()),
  text: Type.Optional(Type.String()),
  segments: Type.Optional(Type.Array(Type.Object({
    start: Type.Optional(Type.Number()),
    end: Type.Optional(Type.Number()),
    text: Type.Optional(Type.String()),
    words: Type.Optional(Type.Array(Word)),
  }))),
  words: Type.Optional(Type.Array(Word)),
});

export type VerboseJson = Static<typeof VerboseJsonSchema>;
type VerboseWord = Static<typeof Word>;

/** The answer is not a verbose_json transcription; the message says what is wrong, never the text. */
export class VerboseJsonError extends Error {}

/** Parses and checks a server's answer body. */
export function parseVerboseJson(body: string): VerboseJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new VerboseJsonError('the answer is not JSON');
  }
  return checkedVerboseJson(parsed);
}

/** Checks a value already parsed (a callback's `transcription`). */
export function checkedVerboseJson(parsed: unknown): VerboseJson {
  if (!Value.Check(VerboseJsonSchema, parsed)) {
    const first = [...Value.Errors(VerboseJsonSchema, parsed)][0];
    throw new VerboseJsonError(`the answer is not a verbose_json transcription (${first ? `${first.instancePath || '(root)'}: ${first.message}` : 'unknown'})`);
  }
  if (parsed.segments === undefined && parsed.words === undefined) throw new VerboseJsonError('the answer has neither segments nor words (was response_format=verbose_json sent?)');
  return parsed;
}

/**
 * Both shapes as whisper-cli's full JSON, so that one routine ({@link wordsFromWhisperJson})
 * makes words of every provider's output, with the same joining of sub-word pieces and
 * punctuation, the same confidence and the same timing rules:
 * - whisper.cpp's per-segment words are its tokens, taken as they are (DTW times included);
 * - a segment with text but no words gets its words from the text, timed by
 *   {@link wordsSpreadOverSegment} (approximate: see there);
 * - OpenAI's top-level words are whole words: each becomes one token that starts a word,
 *   placed in the segment whose time holds its start (one segment for all when none is given);
 * - a word without `probability` counts as certain (1): OpenAI's API gives none.
 * Times become ms offsets; `language` becomes whisper's code.
 */
export function whisperJsonFromVerbose(verbose: VerboseJson): WhisperJson {
  const language = languageCodeOf(verbose.language);
  const result = language ? { result: { language } } : {};
  const ms = (seconds: number | undefined) => Math.round((seconds ?? 0) * 1000);
  const tokenOf = (word: VerboseWord, startsWord: boolean): WhisperJsonToken => ({
    text: startsWord && !word.word.startsWith(' ') ? ` ${word.word}` : word.word,
    ...(word.start !== undefined && word.end !== undefined ? { offsets: { from: ms(word.start), to: ms(word.end) } } : {}),
    id: 0,
    p: word.probability ?? 1,
    ...(word.t_dtw !== undefined ? { t_dtw: word.t_dtw } : {}),
  });

  const segments = verbose.segments ?? [];
  if (verbose.words === undefined) {
    return {
      ...result,
      transcription: segments.map((segment) => ({
        offsets: { from: ms(segment.start), to: ms(segment.end) },
        ...(segment.text !== undefined ? { text: segment.text } : {}),
        tokens: segment.words !== undefined && segment.words.length > 0
          ? segment.words.map((word) => tokenOf(word, false))
          : wordsSpreadOverSegment(segment).map((word) => tokenOf(word, true)),
      })),
    };
  }
  const words = verbose.words;
  const lastEnd = Math.max(0, ...words.map((word) => word.end ?? 0), ...segments.map((segment) => segment.end ?? 0), verbose.duration ?? 0);
  const spans = segments.length > 0
    ? segments.map((segment) => ({ from: ms(segment.start), to: ms(segment.end), text: segment.text }))
    : [{ from: 0, to: ms(lastEnd), text: verbose.text }];
  const transcription = spans.map((span) => ({ offsets: { from: span.from, to: span.to }, ...(span.text !== undefined ? { text: span.text } : {}), tokens: [] as WhisperJsonToken[] }));
  for (const word of words) {
    const startMs = ms(word.start);
    // The segment holding the word's start, else the last one that starts before it.
    const index = Math.max(0, spans.findLastIndex((span) => span.from <= startMs));
    transcription[index]!.tokens.push(tokenOf(word, true));
  }
  // A word's start may sit a little outside its segment: widen the segment rather than move the word.
  for (const segment of transcription) {
    for (const token of segment.tokens) {
      if (!token.offsets) continue;
      segment.offsets.from = Math.min(segment.offsets.from, token.offsets.from);
      segment.offsets.to = Math.max(segment.offsets.to, token.offsets.to);
    }
  }
  return { ...result, transcription };
}

/**
 * The words of a segment that came without any (`text` split at spaces), its time shared among
 * them in proportion to their characters (spaces not counted): a word of 8 characters lasts
 * twice one of 4. Speech is not that even, so each word's time is only near where it was said,
 * and the alignment of these words to speakers is approximate near a change of speaker; a server
 * that gives word times is aligned exactly. A segment without both times gives words without
 * times (placed where the word before them ended).
 */
function wordsSpreadOverSegment(segment: NonNullable<VerboseJson['segments']>[number]): VerboseWord[] {
  const texts = (segment.text ?? '').split(/\s+/).filter(Boolean);
  const { start, end } = segment;
  if (start === undefined || end === undefined) return texts.map((word) => ({ word }));
  const secondsPerCharacter = (end - start) / texts.reduce((sum, word) => sum + word.length, 0);
  let characters = 0;
  return texts.map((word) => {
    const from = start + characters * secondsPerCharacter;
    characters += word.length;
    return { word, start: from, end: start + characters * secondsPerCharacter };
  });
}

/** whisper's language names (as `whisper_lang_str_full` and OpenAI's API write them) → codes. */
const languageCodes: Readonly<Record<string, string>> = {
  english: 'en', chinese: 'zh', german: 'de', spanish: 'es', russian: 'ru', korean: 'ko', french: 'fr',
  japanese: 'ja', portuguese: 'pt', turkish: 'tr', polish: 'pl', catalan: 'ca', dutch: 'nl', arabic: 'ar',
  swedish: 'sv', italian: 'it', indonesian: 'id', hindi: 'hi', finnish: 'fi', vietnamese: 'vi', hebrew: 'he',
  ukrainian: 'uk', greek: 'el', malay: 'ms', czech: 'cs', romanian: 'ro', danish: 'da', hungarian: 'hu',
  tamil: 'ta', norwegian: 'no', thai: 'th', urdu: 'ur', croatian: 'hr', bulgarian: 'bg', lithuanian: 'lt',
  latin: 'la', maori: 'mi', malayalam: 'ml', welsh: 'cy', slovak: 'sk', telugu: 'te', persian: 'fa',
  latvian: 'lv', bengali: 'bn', serbian: 'sr', azerbaijani: 'az', slovenian: 'sl', kannada: 'kn',
  estonian: 'et', macedonian: 'mk', breton: 'br', basque: 'eu', icelandic: 'is', armenian: 'hy',
  nepali: 'ne', mongolian: 'mn', bosnian: 'bs', kazakh: 'kk', albanian: 'sq', swahili: 'sw', galician: 'gl',
  marathi: 'mr', punjabi: 'pa', sinhala: 'si', khmer: 'km', shona: 'sn', yoruba: 'yo', somali: 'so',
  afrikaans: 'af', occitan: 'oc', georgian: 'ka', belarusian: 'be', tajik: 'tg', sindhi: 'sd',
  gujarati: 'gu', amharic: 'am', yiddish: 'yi', lao: 'lo', uzbek: 'uz', faroese: 'fo',
  'haitian creole': 'ht', pashto: 'ps', turkmen: 'tk', nynorsk: 'nn', maltese: 'mt', sanskrit: 'sa',
  luxembourgish: 'lb', myanmar: 'my', tibetan: 'bo', tagalog: 'tl', malagasy: 'mg', assamese: 'as',
  tatar: 'tt', hawaiian: 'haw', lingala: 'ln', hausa: 'ha', bashkir: 'ba', javanese: 'jw', sundanese: 'su',
  cantonese: 'yue',
};
const knownCodes = new Set(Object.values(languageCodes));

/** `"english"` or `"en"` → `"en"`; undefined for what whisper does not know. */
export function languageCodeOf(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const lower = language.trim().toLowerCase();
  return languageCodes[lower] ?? (knownCodes.has(lower) ? lower : undefined);
}

/**
 * A verbose_json answer body → its language and words, by the rules whisper-cli's output goes
 * through. The language is the one the answer names, else the configured one (`auto` gives
 * none: the caller decides what that means). Throws {@link VerboseJsonError} for a body that is
 * not a transcription.
 */
export function wordsFromVerboseJson(
  body: string,
  options: { durationSeconds: number; configuredLanguage: string | undefined; vadTimeMap?: VadTimeMap | undefined },
): { language: string | undefined; words: TranscribedWord[] } {
  const json = whisperJsonFromVerbose(parseVerboseJson(body));
  const configured = options.configuredLanguage;
  const language = json.result?.language ?? (configured && configured !== 'auto' ? configured : undefined);
  const words = wordsFromWhisperJson(json, {
    durationSeconds: options.durationSeconds,
    ...(language !== undefined ? { language } : {}),
    ...(options.vadTimeMap ? { vadTimeMap: options.vadTimeMap } : {}),
  });
  return { language, words };
}
