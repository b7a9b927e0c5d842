import type { Conversation, Utterance } from './readConversation.js';
import { isContentWord, keyOf, namesASubject } from './words.js';

/** A two-word phrase is a candidate when the call says it at least this many times ("damaged pallet" twice). */
const minBigramOccurrences = 2;
/** At most this many tags (the schema allows 12; 8 keeps them salient). */
const maxTags = 8;
/** Schema limit of a tag (characters). */
const maxTagChars = 40;

interface Candidate {
  text: string;
  keys: string[];
  weight: number;
}

/**
 * The key phrases of some sentences of the call, most salient first, as said: their keywords
 * (weighed by `weightOf`) and the two-word phrases of content words that the call repeats; a
 * phrase weighs its two words together and stands in for them. Stop words, fillers and the
 * speakers' names are never key phrases.
 */
export function rankKeyPhrases(
  conversation: Conversation, scope: readonly Utterance[], weightOf: (key: string) => number, count: number,
): string[] {
  const scopeKeys = new Set(scope.flatMap((utterance) => utterance.keys));
  const candidates: Candidate[] = [...scopeKeys].map((key) => ({ text: conversation.surfaces.of(key), keys: [key], weight: weightOf(key) }));
  const inScope = new Set(scope);
  for (const [text, { keys, utterances }] of repeatedBigrams(conversation)) {
    if (utterances.some((utterance) => inScope.has(utterance))) candidates.push({ text, keys, weight: weightOf(keys[0]!) + weightOf(keys[1]!) });
  }
  const picked: Candidate[] = [];
  const canNameATopic = (key: string) => namesASubject(key) && conversation.subjectKeys.has(key);
  for (const candidate of candidates.sort((first, second) => second.weight - first.weight)) {
    if (picked.length >= count) break;
    if (candidate.weight <= 0 || !candidate.keys.every(canNameATopic) || picked.some((other) => candidate.keys.every((key) => other.keys.includes(key)))) continue;
    // A phrase absorbs its words picked before it.
    const absorbed = picked.filter((other) => other.keys.length === 1 && candidate.keys.includes(other.keys[0]!));
    picked.splice(0, picked.length, ...picked.filter((other) => !absorbed.includes(other)), candidate);
  }
  return picked.map((candidate) => candidate.text);
}

/** The call's tags: its {@link maxTags} top key phrases over the whole call, lower-cased. */
export function pickTags(conversation: Conversation, weights: ReadonlyMap<string, number>): string[] {
  return rankKeyPhrases(conversation, conversation.utterances, (key) => weights.get(key) ?? 0, maxTags)
    .map((tag) => tag.toLowerCase())
    .filter((tag) => tag.length <= maxTagChars);
}

type Bigrams = Map<string, { keys: string[]; utterances: Utterance[] }>;
/** Each conversation's repeated bigrams, found once: sections and key points ask for them many times. */
const bigramsByConversation = new WeakMap<Conversation, Bigrams>();

/** Two adjacent content words (not names) said at least {@link minBigramOccurrences} times, by their text as said. */
function repeatedBigrams(conversation: Conversation): Bigrams {
  const known = bigramsByConversation.get(conversation);
  if (known) return known;
  const found: Bigrams = new Map();
  // A word as the call spells it ("Leeds route"): the surface of its key when that is this word.
  const shown = (word: string) => {
    const surface = conversation.surfaces.of(keyOf(word));
    return surface.toLowerCase() === word ? surface : word;
  };
  const isTopicWord = (word: string) => isContentWord(word) && !conversation.nameWords.has(word.replace(/'s$/, ''));
  for (const utterance of conversation.utterances) {
    const { words } = utterance;
    for (let index = 0; index + 1 < words.length; index++) {
      const [first, second] = [words[index]!, words[index + 1]!];
      if (!isTopicWord(first) || !isTopicWord(second) || first.endsWith("'s")) continue;
      const keys = [keyOf(first), keyOf(second)];
      if (keys[0] === keys[1]) continue;
      const text = `${shown(first)} ${shown(second)}`;
      const entry = found.get(text) ?? { keys, utterances: [] };
      entry.utterances.push(utterance);
      found.set(text, entry);
    }
  }
  const repeated = new Map([...found].filter(([, { utterances }]) => utterances.length >= minBigramOccurrences));
  bigramsByConversation.set(conversation, repeated);
  return repeated;
}
