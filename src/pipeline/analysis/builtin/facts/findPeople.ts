import type { Static } from 'typebox';
import type { PersonMentionedSchema } from '../../../../domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import { isNamedSpeaker, type CallParties } from './callParties.js';
import type { PeopleWords } from './FactLexicon.js';
import type { Sentence } from '../../text/sentences.js';
import { anyOfWords, caselessWord, escapeRegExp } from '../../text/regexWords.js';

export type PersonMentioned = Static<typeof PersonMentionedSchema>;

/** A third party's name as said in one sentence. */
export interface NameMention {
  name: string;
  role: string | null;
  sentence: Sentence;
}

/** Segments cited per person: enough to find them, not every mention of someone named twenty times. */
export const MAX_CITED_SEGMENTS = 5;

/** A capitalised name word: "Mark", "McDonald", "O'Brien", "Mary-Jane" (never "OK": it needs a lower-case letter). */
const NAME_WORD = "(?:[A-Z][a-z]+(?:[A-Z][a-z]+)?(?:[-'’][A-Z][a-z]+)?|[A-Z]['’][A-Z][a-z]+)";
const FULL_NAME = `${NAME_WORD}(?:\\s+${NAME_WORD})?`;

/** Cue words match in either case ("Ask Priya", "ask Priya"); the name after them must stay case-sensitive. */
const anyOf = (words: readonly string[], transform: (word: string) => string = caselessWord) => anyOfWords(words, transform);

/** The name patterns: each captures `name`, some `role` (a role word as said). Titles keep their capital ("I miss Mark"). */
function namePatterns(words: PeopleWords): RegExp[] {
  const determiners = anyOf(words.roleDeterminers);
  const roles = anyOf(words.roles);
  return [
    new RegExp(`\\b(?<name>(?:${anyOf(words.titles, escapeRegExp)})\\.?\\s+${FULL_NAME})`, 'g'),
    new RegExp(`\\b(?:${determiners})\\s+(?<role>${roles}),?\\s+(?<name>${FULL_NAME})`, 'g'),
    new RegExp(`\\b(?<name>${FULL_NAME}),\\s+(?:${determiners})\\s+(?<role>${roles})\\b`, 'g'),
    new RegExp(`\\b(?<name>${FULL_NAME})\\s+${caselessWord(words.affiliationWord)}\\s+(?=[A-Z])`, 'g'),
    new RegExp(`\\b(?:${anyOf(words.mentionVerbs)})\\s+(?<name>${FULL_NAME})`, 'g'),
    new RegExp(`\\b(?:${anyOf(words.companions)})\\s+(?<name>${FULL_NAME})`, 'g'),
    new RegExp(`\\b(?<name>${NAME_WORD})['’]s\\s+(?:${anyOf(words.possessedNouns)})\\b`, 'g'),
  ];
}

/** The words of a name without its title ("Dr. Patel" → ["patel"]), lower case. */
function nameTokens(name: string, words: PeopleWords): string[] {
  const titles = new Set(words.titles.map((title) => title.toLowerCase()));
  return name.toLowerCase().replace(/\./g, ' ').split(/\s+/).filter((token) => token !== '' && !titles.has(token));
}

/** Whether one name is a part of the other ("Mark" of "Mark Stevens", "Patel" of "Dr. Patel"). */
function sameName(first: string[], second: string[]): boolean {
  const [shorter, longer] = first.length <= second.length ? [first, second] : [second, first];
  if (shorter.length === 0) return false;
  return longer.some((_, start) => shorter.every((token, offset) => longer[start + offset] === token));
}

/**
 * Third parties named in the sentences ("my colleague Mark Stevens", "ask Priya", "Dr. Patel",
 * "Mark's office", "Priya from Acme", "you and Tom"), with the role when said. A word from the lexicon's
 * `notNames`, or from the organisation in the metadata, is no name; a participant's name is
 * left out here (participants are listed from the speakers). A trailing stop word is dropped
 * from a two-word name ("ask Mark Monday" names Mark).
 */
export function findThirdPartyMentions(sentences: readonly Sentence[], words: PeopleWords, excluded: readonly string[]): NameMention[] {
  const notNames = new Set([...words.notNames, ...excluded].map((word) => word.toLowerCase()));
  const patterns = namePatterns(words);
  const mentions: NameMention[] = [];
  for (const sentence of sentences) {
    for (const pattern of patterns) {
      for (const match of sentence.text.matchAll(pattern)) {
        const said = match.groups?.name ?? '';
        const parts = said.split(/\s+/);
        while (parts.length > 0 && notNames.has((parts[parts.length - 1] ?? '').toLowerCase())) parts.pop();
        const name = parts.join(' ');
        const tokens = nameTokens(name, words);
        if (tokens.length === 0 || tokens.some((token) => notNames.has(token))) continue;
        mentions.push({ name, role: match.groups?.role?.toLowerCase() ?? null, sentence });
      }
    }
  }
  return mentions;
}

/**
 * Everyone the call names: the participants first (speakers carrying a real name, see
 * `isNamedSpeaker`, and the metadata's contact when no speaker carries it), then the third
 * parties of `mentions` (see {@link findThirdPartyMentions}) in order of first mention, merged
 * by name ("Mark" and "Mark Stevens" are one person; the longer name and the first role said
 * are kept). A participant cites the segments where their name is said, else their first
 * segment; a third party those where a word of its name is said once a pattern has named it
 * ("my colleague Mark Stevens … Mark said"). Third parties have no speaker (`speakerId` null).
 */
export function findPeople(
  sentences: readonly Sentence[], mentions: readonly NameMention[], parties: CallParties, metadata: CallMetadata, words: PeopleWords,
): PersonMentioned[] {
  const participants: PersonMentioned[] = [];
  const participantTokens: string[][] = [];
  const addParticipant = (name: string, speakerId: string | null) => {
    const tokens = nameTokens(name, words);
    if (participantTokens.some((known) => sameName(known, tokens))) return;
    participantTokens.push(tokens);
    const said = sentences.filter((sentence) => tokens.some((token) => new RegExp(`\\b${escapeRegExp(token)}\\b`, 'i').test(sentence.text)));
    const spoken = sentences.filter((sentence) => sentence.segment.speakerId === speakerId).slice(0, 1);
    participants.push({ name, relation: 'participant', role: null, speakerId, sourceSegmentIds: citedSegments(said.length > 0 ? said : spoken) });
  };
  for (const speaker of parties.speakers) if (isNamedSpeaker(speaker)) addParticipant(speaker.displayName, speaker.speakerId);
  const contactName = metadata.contactName?.trim();
  if (contactName) addParticipant(contactName, parties.speakers.find((speaker) => speaker.role === 'CONTACT')?.speakerId ?? null);

  const thirdParties: { tokens: string[]; person: PersonMentioned; sentences: Sentence[] }[] = [];
  for (const mention of mentions) {
    const tokens = nameTokens(mention.name, words);
    if (participantTokens.some((known) => sameName(known, tokens))) continue;
    const known = thirdParties.find((party) => sameName(party.tokens, tokens));
    if (!known) {
      thirdParties.push({ tokens, person: { name: mention.name, relation: 'third_party', role: mention.role, speakerId: null, sourceSegmentIds: [] }, sentences: [mention.sentence] });
      continue;
    }
    if (mention.name.length > known.person.name.length) {
      known.person.name = mention.name;
      known.tokens = tokens;
    }
    known.person.role ??= mention.role;
    known.sentences.push(mention.sentence);
  }
  for (const party of thirdParties) {
    const titles = new Set(words.titles);
    const nameWords = party.person.name.replace(/\./g, '').split(/\s+/).filter((word) => !titles.has(word)).map(escapeRegExp);
    const named = sentences.filter((sentence) => new RegExp(`\\b(?:${nameWords.join('|')})\\b`).test(sentence.text));
    party.person.sourceSegmentIds = citedSegments([...party.sentences, ...named]);
  }
  return [...participants, ...thirdParties.map((party) => party.person)];
}

/** Distinct segment ids of the sentences, in transcript order, at most {@link MAX_CITED_SEGMENTS}. */
function citedSegments(sentences: readonly Sentence[]): string[] {
  const ordered = [...sentences].sort((first, second) => first.segmentIndex - second.segmentIndex);
  return [...new Set(ordered.map((sentence) => sentence.segment.id))].slice(0, MAX_CITED_SEGMENTS);
}
