import { normalizeForMatching } from './greetingPatterns.js';

export type Party = 'USER' | 'CONTACT';

export interface NameMatcher {
  /** The party a greeting's captured word names: its first or last name. */
  partyOfGreetingWord(word: string): Party | undefined;
  /** The parties a text mentions by first name or full name, also in the possessive ("Sheila's"). */
  partiesMentionedIn(text: string): Set<Party>;
}

interface PartyName {
  party: Party;
  /** Normalised name words, e.g. `['diane', 'smith']`. */
  words: string[];
  /** The same without possessive endings, as mentions are compared ("Joe's Garage" → `['joe', 'garage']`). */
  mentionWords: string[];
}

/**
 * The English possessive ending of a normalised word ("robert's", "sheila’s" once normalised).
 * The plural possessive of a name ending in s ("James'") loses its apostrophe in normalisation
 * and so is the name already. A bare "-s" is not a possessive here: it would make "Marco" match
 * "Marcos", "Luca" "Lucas" and "Nicola" "Nicolas", other people; the German genitive "Dianes"
 * is given up for that.
 */
const possessiveEnding = /'s(?= |$)/g;

/**
 * Matches words and texts against the user's and the contact's names, case-insensitively and
 * ignoring punctuation and accents; a first name alone matches a full name ("Diane" matches
 * "Diane Smith"). A greeting word may also be the last name ("Smith speaking"), a mention may
 * not: a surname such as "Brown" or "Hier" is too often an ordinary word. A word that fits both
 * parties (a shared first name) names neither.
 *
 * A mention may be possessive ("Robert's office", "Sheila’s"): it still speaks of that person.
 * A greeting word may not: "this is Robert's office" is said by whoever answers for Robert, so
 * it is no self-introduction of Robert.
 */
export function createNameMatcher(names: { user?: string | undefined; contact?: string | undefined }): NameMatcher {
  const parties: PartyName[] = [];
  for (const [party, name] of [['USER', names.user], ['CONTACT', names.contact]] as const) {
    const normalized = normalizeForMatching(name ?? '');
    const wordsOf = (text: string) => text.split(' ').filter((word) => word.length >= 2);
    const words = wordsOf(normalized);
    if (words.length > 0) parties.push({ party, words, mentionWords: wordsOf(normalized.replace(possessiveEnding, '')) });
  }
  const only = (found: Party[]): Party | undefined => (found.length === 1 ? found[0] : undefined);
  return {
    partyOfGreetingWord(word) {
      const normalized = normalizeForMatching(word);
      return only(parties.filter(({ words }) => words[0] === normalized || words.at(-1) === normalized).map(({ party }) => party));
    },
    partiesMentionedIn(text) {
      const padded = ` ${normalizeForMatching(text).replace(possessiveEnding, '')} `;
      const mentioned = (words: string[]) => padded.includes(` ${words[0]} `) || padded.includes(` ${words.join(' ')} `);
      const firstNames = parties.map(({ mentionWords }) => mentionWords[0]);
      // A shared first name is no evidence for either party; a full name still is.
      const shared = (words: string[]) => firstNames.filter((first) => first === words[0]).length > 1;
      return new Set(parties.filter(({ mentionWords: words }) => (shared(words) ? padded.includes(` ${words.join(' ')} `) && words.length > 1 : mentioned(words))).map(({ party }) => party));
    },
  };
}
