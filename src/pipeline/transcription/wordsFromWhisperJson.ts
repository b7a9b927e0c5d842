import type { TranscribedWord } from '../speechTypes.js';
import type { WhisperJson, WhisperJsonSegment, WhisperJsonToken } from './parseWhisperJson.js';
import type { VadTimeMap } from './VadTimeMap.js';

export interface WordsFromWhisperJsonOptions {
  /** Length of the transcribed audio, seconds: no word ends after it. */
  durationSeconds: number;
  /** whisper's VAD mapping when it ran with `--vad` and found speech (see {@link VadTimeMap}). Defaults to none: times as whisper wrote them. */
  vadTimeMap?: VadTimeMap;
  /** Language of the text; for `zh`, `ja`, `th`, `lo`, `my` and `yue`, written without spaces, every token is a word. Defaults to none: spaces separate words. */
  language?: string;
}

/**
 * whisper's tokens → words, in order:
 * - special tokens (`[_BEG_]`, `[_TT_150]`, `<|en|>`…) are dropped;
 * - a token starting with a space begins a new word, as does a new segment; the others
 *   (sub-word pieces, punctuation) continue the word before them;
 * - a "word" of punctuation only (` -`, ` "`) joins its neighbour: an opening mark the word
 *   after it, any other the word before it (as OpenAI whisper's `merge_punctuations`);
 * - probability: the mean of the word's token probabilities (as OpenAI whisper's word
 *   timestamps; the minimum would let one unsure sub-word piece condemn a long word);
 * - times: see {@link wordTimes};
 * - kept within their segment (whose times whisper itself maps through VAD), then made monotonic
 *   (each word starts no earlier than the one before it ends) and clamped to the audio, in seconds.
 */
export function wordsFromWhisperJson(json: WhisperJson, options: WordsFromWhisperJsonOptions): TranscribedWord[] {
  const firstSpecialId = json.model?.multilingual === false ? englishOnlyEndOfText : multilingualEndOfText;
  const isText = (token: WhisperJsonToken) => token.id < firstSpecialId && !specialTokenText.test(token.text);
  const everyTokenIsAWord = options.language !== undefined && languagesWithoutSpaces.has(options.language);
  const toOriginal = originalTimeOf(json.transcription, isText, options.vadTimeMap);
  const durationMs = Math.max(0, options.durationSeconds * 1000);

  const timed = json.transcription.flatMap((segment) => {
    const segmentFromMs = Math.max(0, segment.offsets.from);
    const segmentSpan = { fromMs: segmentFromMs, toMs: Math.max(segmentFromMs, segment.offsets.to) };
    return mergePunctuation(groupTokens((segment.tokens ?? []).filter(isText), everyTokenIsAWord))
      .map((word) => ({ ...word, segment: segmentSpan, ...wordTimes(word, toOriginal) }));
  });

  const words: TranscribedWord[] = [];
  let previousEndMs = 0;
  for (const word of timed) {
    const { segment } = word;
    const within = (ms: number) => Math.min(segment.toMs, Math.max(segment.fromMs, ms));
    // A word whose tokens carry no times (whisper omits them when it has none) sits where the last one ended.
    let startMs = word.startMs === undefined ? Math.max(previousEndMs, segment.fromMs) : within(word.startMs);
    let endMs = word.endMs === undefined ? startMs : within(word.endMs);
    startMs = Math.min(durationMs, Math.max(startMs, previousEndMs));
    endMs = Math.min(durationMs, Math.max(endMs, startMs));
    previousEndMs = endMs;
    words.push({
      text: word.text,
      startSeconds: Math.round(startMs) / 1000,
      endSeconds: Math.round(endMs) / 1000,
      probability: meanProbability(word.tokens),
    });
  }
  return words;
}

/**
 * A word's times in the recording's timeline, ms, before they are kept within its segment and
 * after the word before it:
 * - with DTW (`-dtw`): whisper.cpp 1.9 gives each token, as `t_dtw` (10 ms units), the time at
 *   which DTW's path leaves it for the next token: its end (on jfk.wav each equals the end
 *   faster-whisper's word timestamps give, to the 20 ms step). So a word ends at its last
 *   spoken token's `t_dtw` (not a closing mark's), and starts where the word before it ended (the caller's monotonic rule),
 *   but no earlier than the longest the word can last ({@link longestWordMs}) before its end:
 *   across a pause DTW's path stays on the word before and the word after is short, so without
 *   that bound the word after a pause (or after the other speaker's turn) would start where the
 *   word before it ended and reach back over the whole pause.
 * - without (no `-dtw`, or a window DTW skipped: `t_dtw` -1), the tokens' `offsets`: start of the
 *   first timed token, end of the last. These are whisper's token timestamps, which drift by
 *   seconds inside a long segment.
 * Both are in whisper's decoded timeline, which VAD shortens: `toOriginal` maps them back.
 */
function wordTimes(word: WordTokens, toOriginal: (ms: number) => number): { startMs?: number; endMs?: number } {
  // A punctuation mark's "end" is where the next word begins, after any pause: the word ends with its last spoken token.
  const dtwTimed = word.tokens.filter((token) => token.t_dtw !== undefined && token.t_dtw >= 0);
  const dtwEndCentiseconds = (dtwTimed.findLast((token) => !onlyPunctuation.test(token.text.trim())) ?? dtwTimed.at(-1))?.t_dtw;
  if (dtwEndCentiseconds !== undefined) {
    const endMs = toOriginal(dtwEndCentiseconds * 10);
    return { startMs: endMs - longestWordMs(word.text), endMs };
  }
  const timed = word.tokens.filter((token) => token.offsets !== undefined);
  const from = timed[0]?.offsets?.from;
  const to = timed.at(-1)?.offsets?.to;
  return { ...(from !== undefined ? { startMs: toOriginal(from) } : {}), ...(to !== undefined ? { endMs: toOriginal(to) } : {}) };
}

/**
 * The longest a DTW-timed word can last, ms: 300 ms plus 150 ms per letter or digit.
 * Conversational English runs at about 13 characters a second (~75 ms each); twice as slow
 * covers a word drawn out or said hesitantly ("so…", "well…"), and the 300 ms a one-letter word
 * ("I", "a") or a syllable the letters undercount. So "yes" may last 750 ms, "unfortunately"
 * 2.25 s, while the word after a pause of several seconds no longer reaches back into it.
 */
function longestWordMs(text: string): number {
  return 300 + 150 * text.replace(/[\p{P}\p{S}\s]/gu, '').length;
}

/** whisper's first special token id (end of text) in English-only and multilingual vocabularies; every special token comes after it. */
const englishOnlyEndOfText = 50256;
const multilingualEndOfText = 50257;
/** Special tokens as whisper.cpp names them (`[_BEG_]`, `[_TT_1500]`, `[_extra_token_50358]`) or as OpenAI does (`<|endoftext|>`). */
const specialTokenText = /^(\[_[^\]]*\]|<\|[^|]*\|>)$/;
/** As OpenAI whisper's `split_tokens_on_unicode`. */
const languagesWithoutSpaces = new Set(['zh', 'ja', 'th', 'lo', 'my', 'yue']);
/** Marks that open what follows them (OpenAI whisper's `prepend_punctuations`, plus ¡ « ‘). */
const openingMarks = new Set([...'"\'“‘¿¡([{«-']);
const onlyPunctuation = /^[\p{P}\p{S}]+$/u;

/**
 * Whether token offsets are in the processed (VAD) timeline: whisper.cpp 1.9.1 leaves them so,
 * later versions map them. Decided by which reading puts more tokens inside their segment,
 * whose times are always mapped; a tie (VAD cut nearly nothing) reads them as processed.
 */
function originalTimeOf(
  segments: readonly WhisperJsonSegment[],
  isText: (token: WhisperJsonToken) => boolean,
  vadTimeMap: VadTimeMap | undefined,
): (ms: number) => number {
  const identity = (ms: number) => ms;
  if (!vadTimeMap) return identity;
  const mapped = (ms: number) => vadTimeMap.toOriginal(ms);
  const toleranceMs = 250;
  let rawInside = 0;
  let mappedInside = 0;
  for (const segment of segments) {
    const inside = (ms: number) => ms >= segment.offsets.from - toleranceMs && ms <= segment.offsets.to + toleranceMs;
    for (const token of segment.tokens ?? []) {
      if (!token.offsets || !isText(token)) continue;
      if (inside(token.offsets.from)) rawInside += 1;
      if (inside(mapped(token.offsets.from))) mappedInside += 1;
    }
  }
  return mappedInside >= rawInside ? mapped : identity;
}

/** A word being built: its tokens and its text, without surrounding spaces. */
interface WordTokens {
  tokens: WhisperJsonToken[];
  text: string;
}

/** Text tokens → words, in order. */
function groupTokens(tokens: readonly WhisperJsonToken[], everyTokenIsAWord: boolean): WordTokens[] {
  const groups: WhisperJsonToken[][] = [];
  for (const token of tokens) {
    const current = groups.at(-1);
    if (!current || everyTokenIsAWord || token.text.startsWith(' ')) groups.push([token]);
    else current.push(token);
  }
  return groups.map((group) => ({ tokens: group, text: group.map((token) => token.text).join('').trim() })).filter((word) => word.text !== '');
}

/** Attaches punctuation-only words to a neighbour (without a space); one with no neighbour in its segment is dropped. */
function mergePunctuation(words: readonly WordTokens[]): WordTokens[] {
  const merged: WordTokens[] = [];
  let opening: WordTokens | undefined;
  const join = (first: WordTokens, second: WordTokens): WordTokens => ({ tokens: [...first.tokens, ...second.tokens], text: first.text + second.text });
  for (const word of words) {
    const previous = merged.at(-1);
    if (!onlyPunctuation.test(word.text)) {
      merged.push(opening ? join(opening, word) : word);
      opening = undefined;
    } else if (previous === undefined || openingMarks.has(word.text[0]!)) {
      opening = opening ? join(opening, word) : word;
    } else {
      merged[merged.length - 1] = join(previous, word);
    }
  }
  // Opening marks with no word after them close the word before them instead.
  if (opening && merged.length > 0) merged[merged.length - 1] = join(merged.at(-1)!, opening);
  return merged;
}

function meanProbability(tokens: readonly WhisperJsonToken[]): number {
  const mean = tokens.reduce((sum, token) => sum + token.p, 0) / tokens.length;
  return Number.isFinite(mean) ? Math.min(1, Math.max(0, Math.round(mean * 1000) / 1000)) : 0;
}
