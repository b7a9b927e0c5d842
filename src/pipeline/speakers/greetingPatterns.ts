/**
 * Greeting patterns, one table per language. A `SELF` pattern is a self-introduction and names
 * the speaker who says it; an `ADDRESS` pattern greets or asks for someone and names the OTHER
 * speaker. Each pattern runs on text normalised by {@link normalizeForMatching} (lower case,
 * accents and punctuation removed) and captures the name as the group `name`; only a captured
 * word that matches a supplied name counts, so "hi there" or "I'm fine" never name anyone.
 * A possessive never matches a name here ("this is Robert's office" is said by whoever answers
 * for Robert, not by Robert; see `createNameMatcher`), but the words a `SELF` pattern captures
 * are still the speaker's own side, so they are never a mention of the other party
 * ({@link withoutSelfIntroductions}). Beside them, {@link callerPatterns}: the words by which
 * a speaker says they placed the call ("I'm calling from …"), which name no one.
 * To add a language, add a table to both here; nothing else changes.
 */
export type GreetingKind = 'SELF' | 'ADDRESS';

export interface GreetingPattern {
  kind: GreetingKind;
  pattern: RegExp;
}

/** A word as normalisation leaves it: letters, digits, inner apostrophes and hyphens. */
const word = "[\\p{L}\\p{N}'-]+";
/** A title before a name ("Mr Smith", "Frau Müller"): the title is not the name. */
const title = '(?:(?:mr|mrs|ms|miss|dr|herr|frau|senor|senora|senorita|sr|sra|don|dona) )?';
/** A name word, optionally after a title: for the patterns the name opens ("Diane speaking"). */
const name = `${title}(?<name>${word})`;
/**
 * Words whose "'s" is a contraction ("it's", "how's"), never a possessive name: "this is Diane,
 * it's about…" and "hi Sheila, how's it going" lose their commas in normalisation, and must not
 * read as "Diane it's" or "Sheila how's".
 */
const contractedWords = [
  'it', 'that', 'this', 'what', 'how', 'who', 'where', 'when', 'why', 'let', 'here', 'there', 'he', 'she', 'one',
  'everything', 'something', 'nothing', 'everyone', 'everybody', 'someone', 'somebody', 'anyone', 'anybody', 'nobody',
] as const;
/**
 * A name word, optionally after a title, and a possessive word after it taken together ("this
 * is Robert Miller's office", "good morning, Robert Miller's office" capture "robert miller's"):
 * otherwise "Robert" alone would read as Robert introducing himself, or as Robert greeted.
 * Normalisation drops the comma of "this is Diane, Sheila's colleague", which then names nobody:
 * a greeting lost, never a wrong one.
 */
const leadName = `${title}(?<name>${word}(?: (?!(?:${contractedWords.join('|')})'s(?: |$))${word}'s)?)`;
/**
 * Nouns after which a possessive name says whose line answers ("Robert's office", "Sheila's
 * voicemail"): the answering side announcing itself, the same as "this is Robert's office".
 */
const lineNouns = ['office', 'phone', 'line', 'desk', 'voicemail', 'mailbox'] as const;

// Word boundaries by spaces: `\b` does not know non-ASCII letters. The `d` flag gives the
// captured name's position, which withoutSelfIntroductions blanks.
const self = (before: string): GreetingPattern => ({ kind: 'SELF', pattern: new RegExp(`(?:^| )${before}${leadName}(?= |$)`, 'dgu') });
const address = (before: string): GreetingPattern => ({ kind: 'ADDRESS', pattern: new RegExp(`(?:^| )${before}${leadName}(?= |$)`, 'dgu') });
const selfAfter = (after: string): GreetingPattern => ({ kind: 'SELF', pattern: new RegExp(`(?:^| )${name} ${after}(?= |$)`, 'dgu') });
/** A line announcement opening a turn, after an optional salutation: "(Good morning,) Robert Miller's office". */
const lineAnnouncement = (salutation: string): GreetingPattern => ({
  kind: 'SELF',
  pattern: new RegExp(`^(?:${salutation} )?${title}(?<name>(?:${word} )?${word}'s) (?:${lineNouns.join('|')})(?= |$)`, 'dgu'),
});

export const greetingPatterns = {
  en: [
    self('this is '), self("it's "), self('my name is '), self("i'm "), self('i am '), self("you(?:'ve| have) reached "),
    selfAfter('speaking'), selfAfter('here'), lineAnnouncement('(?:hello|hi|good (?:morning|afternoon|evening))'),
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

/** What the speaker calls on behalf of may run to this many words ("Brightwave Energy", "the Riverside Animal Trust"). */
const orgWords = `${word}(?: ${word}){0,3}`;
/** A name said before "calling from" ("this is Tom calling from …"): one or two words, never "you" ("is this you calling from …"). */
const introducedName = `(?!you )${word}(?: (?!you )${word})?`;
/**
 * Words by which a speaker says they placed the call: "I'm calling from Brightwave Energy", "this
 * is Tom calling on behalf of …", "this is Tom from Brightwave calling", "le llamo de parte de …",
 * "ich rufe im Auftrag der Stadtwerke an". Always the speaker's own statement in the first person
 * or after their self-introduction: "are you calling from the bank?" is the one who answered,
 * asking. One table per language, on text normalised by {@link normalizeForMatching}.
 */
export const callerPatterns = {
  en: [
    new RegExp(`(?:^| )(?:i'm|i am|we're|we are) (?:just |only )?(?:calling|ringing|phoning) (?:you )?(?:from|on behalf of)(?= )`, 'u'),
    new RegExp(`(?:^| )(?:this is|it's|my name is) ${introducedName} (?:calling|ringing|phoning) (?:you )?(?:from|on behalf of)(?= )`, 'u'),
    new RegExp(`(?:^| )(?:this is|it's|my name is|i'm|i am) ${introducedName} (?:from|at) ${orgWords} (?:calling|ringing|phoning)(?= |$)`, 'u'),
  ],
  // Not a bare "de": "te llamo de nuevo" is a promise to call again, which either side makes.
  es: [new RegExp(`(?:^| )(?:(?:le|te|lo|la|les|los) )?(?:llamo|llamamos|estoy llamando|estamos llamando) (?:de parte de|en nombre de|desde)(?= )`, 'u')],
  // "Ich rufe dich von unterwegs zurück" is a promise to call back: "von" only without an addressee.
  de: [new RegExp(`(?:^| )(?:ich rufe|wir rufen) (?:(?:sie |dich |euch )?im (?:auftrag|namen)|von|vom|aus)(?= )`, 'u')],
} as const satisfies Record<GreetingLanguage, readonly RegExp[]>;

/** Whether the text says its speaker placed the call (see {@link callerPatterns}), by the tables of all languages. */
export function saysTheyPlacedTheCall(text: string): boolean {
  const normalized = normalizeForMatching(text);
  return Object.values(callerPatterns).some((table) => table.some((pattern) => pattern.test(normalized)));
}

export interface GreetingMatch {
  kind: GreetingKind;
  /** The captured name word, normalised (with a possessive word after it, if any). */
  name: string;
}

/**
 * Lower case, accents removed ("José" → "jose"), the apostrophe look-alikes (’ ‘ ʼ) made "'",
 * every character other than a letter, digit, apostrophe or hyphen turned into a space, spaces
 * collapsed, apostrophes and hyphens at a word's edge dropped ("James'" → "james"): the form
 * names and patterns meet in. Normalising twice changes nothing.
 */
export function normalizeForMatching(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’‘ʼ]/g, "'")
    .replace(/[^\p{L}\p{N}'-]+/gu, ' ').replace(/(^| )['-]+|['-]+(?= |$)/g, '$1').trim();
}

interface PlacedGreeting extends GreetingMatch {
  /** Where the name lies in the normalised text: `[start, end)`. */
  start: number;
  end: number;
}

/** Every greeting in an already normalised text, with the name's position. */
function* greetingsIn(normalized: string): Generator<PlacedGreeting> {
  for (const table of Object.values(greetingPatterns)) {
    for (const { kind, pattern } of table) {
      for (const match of normalized.matchAll(pattern)) {
        const captured = match.groups?.['name'];
        const span = match.indices?.groups?.['name'];
        if (captured && span) yield { kind, name: captured, start: span[0], end: span[1] };
      }
    }
  }
}

/**
 * Every greeting in a text, by the tables of all languages: a call's detected language is not
 * always the language of its greeting, and patterns of different languages do not collide.
 */
export function findGreetings(text: string): GreetingMatch[] {
  return [...greetingsIn(normalizeForMatching(text))].map(({ kind, name }) => ({ kind, name }));
}

/**
 * The text normalised, with every word a self-introduction captured blanked out: the text a
 * speaker mentions names in. "This is Diane" names the speaker, so under mention asymmetry
 * (who says the other party's name is the other party) it would point the wrong way; this
 * holds inside the greeting window and after it ("this is Diane again" at minute 3).
 */
export function withoutSelfIntroductions(text: string): string {
  const normalized = normalizeForMatching(text);
  let blanked = normalized;
  for (const { kind, start, end } of greetingsIn(normalized)) {
    if (kind === 'SELF') blanked = blanked.slice(0, start) + ' '.repeat(end - start) + blanked.slice(end);
  }
  return blanked.replace(/ +/g, ' ').trim();
}
