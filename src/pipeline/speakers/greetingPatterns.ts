/**
 * Greeting patterns, one table per language. A `SELF` pattern is a self-introduction and names
 * the speaker who says it; an `ADDRESS` pattern greets or asks for someone and names the OTHER
 * speaker. Each pattern runs on text normalised by {@link normalizeForMatching} (lower case,
 * accents and punctuation removed) and captures the name as the group `name`; only a captured
 * word that matches a supplied name counts, so "hi there" or "I'm fine" never name anyone.
 * To add a language, add a table here; nothing else changes.
 */
export type GreetingKind = 'SELF' | 'ADDRESS';

export interface GreetingPattern {
  kind: GreetingKind;
  pattern: RegExp;
}

/** A name word, optionally after a title ("Mr Smith", "Frau Müller"): the title is not the name. */
const name = "(?:(?:mr|mrs|ms|miss|dr|herr|frau|senor|senora|senorita|sr|sra|don|dona) )?(?<name>[\\p{L}\\p{N}'-]+)";
// Word boundaries by spaces: `\b` does not know non-ASCII letters.
const self = (before: string, after = ''): GreetingPattern => ({ kind: 'SELF', pattern: new RegExp(`(?:^| )${before}${name}${after}(?= |$)`, 'gu') });
const address = (before: string): GreetingPattern => ({ kind: 'ADDRESS', pattern: new RegExp(`(?:^| )${before}${name}(?= |$)`, 'gu') });
const selfAfter = (after: string): GreetingPattern => ({ kind: 'SELF', pattern: new RegExp(`(?:^| )${name} ${after}(?= |$)`, 'gu') });

export const greetingPatterns = {
  en: [
    self('this is '), self("it's "), self('my name is '), self("i'm "), self('i am '),
    selfAfter('speaking'), selfAfter('here'),
    address('am i speaking (?:with|to) '), address('is this '), address('(?:hello|hi|hey) '),
    address('good (?:morning|afternoon|evening) '),
  ],
  es: [
    self('soy '), self('(?:le |te )?habla '), self('me llamo '), self('mi nombre es '),
    address('(?:hablo|estoy hablando) con '), address('hola '), address('buen(?:os|as) (?:dias|tardes|noches) '),
  ],
  de: [
    self('hier ist '), self('hier spricht '), self('hier '), self('mein name ist '), self('ich bin '),
    selfAfter('am apparat'),
    address('spreche ich mit '), address('(?:hallo|hi) '), address('guten (?:morgen|tag|abend) '),
  ],
} as const satisfies Record<string, readonly GreetingPattern[]>;

export type GreetingLanguage = keyof typeof greetingPatterns;

export interface GreetingMatch {
  kind: GreetingKind;
  /** The captured name word, normalised. */
  name: string;
}

/**
 * Lower case, accents removed ("José" → "jose"), every character other than a letter, digit,
 * apostrophe or hyphen turned into a space, spaces collapsed: the form names and patterns meet in.
 */
export function normalizeForMatching(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/’/g, "'")
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ').replace(/(^| )['-]+|['-]+(?= |$)/g, '$1').trim();
}

/**
 * Every greeting in a text, by the tables of all languages: a call's detected language is not
 * always the language of its greeting, and patterns of different languages do not collide.
 */
export function findGreetings(text: string): GreetingMatch[] {
  const normalized = normalizeForMatching(text);
  const matches: GreetingMatch[] = [];
  for (const table of Object.values(greetingPatterns)) {
    for (const { kind, pattern } of table) {
      for (const match of normalized.matchAll(pattern)) {
        const captured = match.groups?.['name'];
        if (captured) matches.push({ kind, name: captured });
      }
    }
  }
  return matches;
}
