import type { Phase } from '../../../../domain/analysis/analysisSchema.js';
import type { Segment, Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import type { AnalysisInput } from '../../Analyser.js';
import { isNamedSpeaker, proseNameOf } from '../facts/callParties.js';
import { assignPhases } from './assignPhases.js';
import { contextCue, goodbyeCue, greetingCue, matchTextOf, thanksCue } from './cues.js';
import { splitSentences } from '../../text/sentences.js';
import { SurfaceForms, isContentWord, keyOf, saidOfASubject, withoutAddresses, wordsOf, writtenWordsOf } from './words.js';

/** Below this much speech (seconds) a call is too short for a full description (the specification's "about 15 seconds"). */
const minSpeechSeconds = 15;
/** Below this many sentences a call is too short for a full description. */
const minSentences = 3;
/** Typical conversational speech rate (words per second, ~150 per minute): estimates speech time of an untimed transcript. */
const typicalWordsPerSecond = 2.5;
/** A sentence says something when it has at least this many words, one of them a content word, and is not a pleasantry. */
const minUsableWords = 3;

/** One sentence of the call, with what every part of the description reads from it. */
export interface Utterance {
  /** Position among all sentences of the call, 0-based: chronological order. */
  index: number;
  segment: Segment;
  /** Index of the segment in `Conversation.segments` (the transcript's, blank ones left out). */
  segmentIndex: number;
  /** The sentence as said, trimmed. */
  text: string;
  /** The sentence as the cue tables read it (see `matchTextOf`). */
  matchText: string;
  /** Lower-cased words. */
  words: string[];
  /** Keys of the content words (see `keyOf`), repeats kept, speaker names left out. */
  keys: string[];
  phase: Phase;
  /** Only a greeting, goodbye or thanks. */
  pleasantry: boolean;
  /** Says something: see {@link minUsableWords}. */
  usable: boolean;
  question: boolean;
}

/** The transcript read once for the description. */
export interface Conversation {
  input: AnalysisInput;
  /** The transcript's segments that say something, in order. */
  segments: readonly Segment[];
  /** Phase of each segment, same order as `segments`. */
  segmentPhases: readonly Phase[];
  utterances: readonly Utterance[];
  surfaces: SurfaceForms;
  /** Seconds of speech: the sum of segment durations (estimated from the words when the transcript is untimed). */
  speechSeconds: number;
  /** Seconds from the first word to the last, pauses included: the call's length as a listener has it (0 when untimed). */
  spanSeconds: number;
  wordCount: number;
  /** Under {@link minSpeechSeconds} of speech or fewer than {@link minSentences} sentences. */
  tooShort: boolean;
  /** The metadata's contact name, else a CONTACT speaker's name that evidence resolved; null otherwise. */
  contactName: string | null;
  /** Lower-cased words of the speakers' names, the metadata's contact name and names addressed in the call: never keywords. */
  nameWords: ReadonlySet<string>;
  /**
   * Keys of the content words the call says at least once other than of a subject pronoun (see
   * `saidOfASubject`): the words that may name a topic. "Interested" only ever said as "I'm not
   * interested", or "ringing" as "I'm ringing from", names none.
   */
  subjectKeys: ReadonlySet<string>;
  speakers: ReadonlyMap<string, Speaker>;
  /** How prose names each speaker, by speaker id (see `proseNameOf`): never a placeholder for a party of known role. */
  speakerNames: ReadonlyMap<string, string>;
}

/**
 * Names said in the call that the speakers carry no label for ("Hi Diane" when the user's name is
 * unknown): a capitalised word after a greeting or thanks (a vocative) or in a self-introduction.
 * They are never keywords. Only the cue's first letter may be either case: the name's capital
 * must be real (a case-insensitive pattern would take "this is unacceptable" for a name).
 */
const nameCues = ['hi', 'hello', 'hey', 'dear', 'thanks', 'thank you', 'bye', 'goodbye', 'morning', 'afternoon', 'evening', 'this is', "it's", 'my name is'];
const addressedName = new RegExp(
  String.raw`\b(?:${nameCues.map((cue) => `[${cue[0]!.toUpperCase()}${cue[0]}]${cue.slice(1)}`).join('|')}),?\s+(\p{Lu}[\p{L}'-]+)`, 'gu',
);

/** How prose names a segment's speaker (see `proseNameOf`); lower case, for the middle of a sentence. */
export function speakerNameOf(conversation: Conversation, segment: Segment): string {
  return conversation.speakerNames.get(segment.speakerId) ?? (segment.speakerDisplayName.trim() || segment.speakerLabel.trim() || segment.speaker);
}

/** Splits the transcript into sentences and reads each once: words, content-word keys, phase, whether it says something. */
export function readConversation(input: AnalysisInput): Conversation {
  const { transcript, metadata } = input;
  const segments = transcript.segments.filter((segment) => segment.text.trim() !== '');
  const segmentPhases = assignPhases(segments);
  const speakers = new Map(transcript.speakers.map((speaker) => [speaker.speakerId, speaker]));
  const nameWords = new Set([
    ...transcript.speakers.filter(isNamedSpeaker).flatMap((speaker) => wordsOf(`${speaker.displayName} ${speaker.label}`)),
    ...wordsOf(metadata.contactName ?? ''),
    ...segments.flatMap((segment) => [...segment.text.matchAll(addressedName)].flatMap((match) => wordsOf(match[1]!))),
  ]);
  const surfaces = new SurfaceForms();
  const subjectKeys = new Set<string>();
  const utterances: Utterance[] = [];
  segments.forEach((segment, segmentIndex) => {
    for (const text of splitSentences(segment.text)) {
      const matchText = matchTextOf(text);
      const written = writtenWordsOf(text);
      const words = written.map((word) => word.toLowerCase());
      const isTopicWord = (word: string) => isContentWord(word) && !nameWords.has(word.replace(/'s$/, ''));
      // Topics come from the words outside addresses spelled aloud ("maria dot lopez at gmail dot com").
      const topicWritten = writtenWordsOf(withoutAddresses(text));
      const topicWords = topicWritten.map((word) => word.toLowerCase());
      const contentWords = topicWords.filter(isTopicWord);
      topicWritten.forEach((word, position) => {
        if (!isTopicWord(topicWords[position]!)) return;
        surfaces.add(word.replace(/'s$/, ''), position === 0 && topicWritten[0] === written[0]);
        if (!saidOfASubject(topicWords, position)) subjectKeys.add(keyOf(topicWords[position]!));
      });
      const pleasantry = (greetingCue.test(matchText) || goodbyeCue.test(matchText) || thanksCue.test(matchText))
        && contentWords.length <= 1 && !contextCue.test(matchText);
      utterances.push({
        index: utterances.length, segment, segmentIndex, text, matchText, words,
        keys: contentWords.map(keyOf),
        phase: segmentPhases[segmentIndex]!,
        pleasantry,
        usable: !pleasantry && words.length >= minUsableWords && contentWords.length >= 1,
        question: /\?["'”’)]*$/.test(text),
      });
    }
  });
  const wordCount = utterances.reduce((total, utterance) => total + utterance.words.length, 0);
  const timedSeconds = segments.reduce((total, segment) => total + Math.max(0, segment.endSeconds - segment.startSeconds), 0);
  const speechSeconds = timedSeconds > 0 ? timedSeconds : wordCount / typicalWordsPerSecond;
  const spanSeconds = segments.length === 0 ? 0
    : Math.max(...segments.map((segment) => segment.endSeconds)) - Math.min(...segments.map((segment) => segment.startSeconds));
  return {
    input, segments, segmentPhases, utterances, surfaces, speechSeconds, spanSeconds, wordCount,
    tooShort: speechSeconds < minSpeechSeconds || utterances.length < minSentences,
    contactName: contactNameOf(input),
    nameWords,
    subjectKeys,
    speakers,
    speakerNames: new Map(transcript.speakers.map((speaker) => [speaker.speakerId, proseNameOf(speaker, metadata.direction)])),
  };
}

/** The metadata's contact name, else the name of a CONTACT speaker that is not a placeholder. */
function contactNameOf({ metadata, transcript }: AnalysisInput): string | null {
  const fromMetadata = metadata.contactName?.trim();
  if (fromMetadata) return fromMetadata;
  const contact = transcript.speakers.find((speaker) => speaker.role === 'CONTACT' && isNamedSpeaker(speaker));
  return contact ? contact.displayName.trim() : null;
}
