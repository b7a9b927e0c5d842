import { normalizeForMatching } from './greetingPatterns.js';

export type Party = 'USER' | 'CONTACT';

export interface NameMatcher {
  /** The party a greeting's captured word names: its first or last name. */
  partyOfGreetingWord(word: string): Party | undefined;
  /** The parties a text mentions by first name or full name. */
  partiesMentionedIn(text: string): Set<Party>;
}

interface PartyName {
  party: Party;
  /** Normalised name words, e.g. `['diane', 'smith']`. */
  words: string[];
}

/**
 * Matches words and texts against the user's and the contact's names, case-insensitively and
 * ignoring punctuation and accents; a first name alone matches a full name ("Diane" matches
 * "Diane Smith"). A greeting word may also be the last name ("Smith speaking"), a mention may
 * not: a surname such as "Brown" or "Hier" is too often an ordinary word. A word that fits both
 * parties (a shared first name) names neither.
 */
export function createNameMatcher(names: { user?: string | undefined; contact?: string | undefined }): NameMatcher {
  const parties: PartyName[] = [];
  for (const [party, name] of [['USER', names.user], ['CONTACT', names.contact]] as const) {
    const words = normalizeForMatching(name ?? '').split(' ').filter((word) => word.length >= 2);
    if (words.length > 0) parties.push({ party, words });
  }
  const only = (found: Party[]): Party | undefined => (found.length === 1 ? found[0] : undefined);
  return {
    partyOfGreetingWord(word) {
      const normalized = normalizeForMatching(word);
      return only(parties.filter(({ words }) => words[0] === normalized || words.at(-1) === normalized).map(({ party }) => party));
    },
    partiesMentionedIn(text) {
      const padded = ` ${normalizeForMatching(text)} `;
      const mentioned = (words: string[]) => padded.includes(` ${words[0]} `) || padded.includes(` ${words.join(' ')} `);
      const firstNames = parties.map(({ words }) => words[0]);
      // A shared first name is no evidence for either party; a full name still is.
      const shared = (words: string[]) => firstNames.filter((first) => first === words[0]).length > 1;
      return new Set(parties.filter(({ words }) => (shared(words) ? padded.includes(` ${words.join(' ')} `) && words.length > 1 : mentioned(words))).map(({ party }) => party));
    },
  };
}
