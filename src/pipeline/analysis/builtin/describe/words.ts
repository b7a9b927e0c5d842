/**
 * Word-level helpers of the built-in description: tokens, content words (stop words and
 * conversational fillers removed), a light plural-folding key.
 */
import { capitalise } from '../../text/clip.js';

/** Words, numbers and contractions ("don't", "Sheila's"); curly apostrophes folded to straight ones. */
const wordPattern = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

/**
 * Words that say nothing about what a call is about: English function words, conversational
 * fillers and back-channels, generic verbs of talk, time words (dates are facts, not topics),
 * words that every phone call has ("call", "phone"), greetings and courtesies ("hiya", "my
 * pleasure"), titles before a name, units of money and months (an amount or a date is a fact, not
 * a topic) and words too vague to be a subject ("end", "change", "free", "due").
 */
const stopWords: ReadonlySet<string> = new Set(`
a about above after again against all almost also am an and any anyone anything are aren't around as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each either else
enough even ever every everything few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's
hers herself him himself his how how's however i i'd i'll i'm i've if in into is isn't it it'd it'll it's its itself just let let's
me might mine more most much must mustn't my myself neither never no nor not now of off on once one only or other others otherwise
ought our ours ourselves out over own per perhaps quite rather regarding same shall shan't she she'd she'll she's should shouldn't so some
someone something somewhere still such than that that'll that's the their theirs them themselves then there there's these they
they'd they'll they're they've this those though through thus to too under until up upon us very via was wasn't we we'd we'll
we're we've were weren't what what's whatever when when's where where's whether which while who who's whom whose why why's will
with within without won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves
yeah yes yep yup nope no nah okay ok oh ah uh um umm uhm hmm mm mhm huh hey hi hello bye goodbye alright right well like
really actually basically literally honestly totally definitely probably maybe sure anyway anyways gonna wanna gotta kinda sorta
thing things stuff lot lots bit way kind sort pretty
get gets got getting gotten go goes going gone went come comes coming came know knows knew known think thinks thought mean means
meant say says said saying tell tells told see sees saw seen look looks looking let lets make makes made want wants wanted need
needs needed take takes took put try trying tried give gives gave keep use used do done does doing did talk talking speak
speaking hear heard guess suppose feel felt
good great fine nice thanks thank please sorry cool awesome perfect glad happy
today tomorrow yesterday tonight morning afternoon evening night day days week weeks month months year years time times minute
minutes hour hours second seconds moment noon midday midnight past o'clock am pm monday tuesday wednesday thursday friday saturday sunday weekend
call calls calling called phone line dot
zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen
twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion percent cent half dozen couple
first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth fourteenth eighteenth twentieth
last next new old big small little long able real whole sure own different same certain
send sent sending ask asked asking help helps helped hope hoping happen happens happened work works worked working include
includes included cover covers covered wait waiting start started hold held bring brought leave left seem seems seemed sound
sounds sounded talked spoke walk join joined show showed find found understand understood thinking wondering honest
back away another nobody nothing anything everything everyone everybody anybody somebody already else afraid apologies
love lovely wonderful adorable funny fantastic brilliant amazing excellent fair pleased terrible horrible awful beautiful
hiya cheers ta merry pleasure mind bad free due end pick change mr mrs ms miss dr sir madam
pounds pound quid pence dollars dollar bucks cents euros euro rupees
january february march april may june july august september october november december
busy quarter
thirteenth fifteenth sixteenth seventeenth nineteenth twenty-first twenty-second twenty-third twenty-fourth twenty-fifth twenty-sixth
twenty-seventh twenty-eighth twenty-ninth thirtieth thirty-first
`.trim().split(/\s+/));

/**
 * Things an action may act on ("text the *number*", "send the *email* again") that say nothing of
 * what a call is about: never a key phrase, though still words of the call.
 */
const noSubjectWords: ReadonlySet<string> = new Set(['number', 'email', 'e-mail', 'message', 'text']);

/** Whether a word (a key, see {@link keyOf}) can name what a call is about: a content word that is not a channel or a number. */
export function namesASubject(key: string): boolean {
  return !noSubjectWords.has(key);
}

/** A subject pronoun, alone or fused with its verb ("I'm", "we'll", "that's"): what opens a clause about the one speaking or spoken of. */
const subjectPronouns: ReadonlySet<string> = new Set(`
i you we they he she it i'm i've i'll i'd you're you've you'll you'd we're we've we'll we'd they're they've they'll they'd
he's he'll he'd she's she'll she'd it's it'll that's that'll
`.trim().split(/\s+/));
/** Auxiliaries, negations and the adverbs said between a subject and its verb or adjective ("we could also", "I'm really not"). */
const betweenSubjectAndPredicate: ReadonlySet<string> = new Set(`
am is are was were be been being have has had do does did will would shall should can could may might must not never
don't doesn't didn't won't wouldn't can't cannot couldn't shouldn't isn't aren't wasn't weren't haven't hasn't hadn't
just really also only already still always actually definitely probably certainly so very quite too even all both
`.trim().split(/\s+/));

/**
 * Whether the word at `index` of a sentence's lower-cased `words` is said of a subject pronoun,
 * with at most auxiliaries, negations and adverbs between: a verb or an adjective ("I'm *ringing*
 * from", "we could *save* you", "I'm not *interested*"), which names no subject. A determiner or
 * a preposition before it opens a noun phrase instead ("your *tariff*", "about the *renewal*").
 */
export function saidOfASubject(words: readonly string[], index: number): boolean {
  let before = index - 1;
  while (before >= 0 && betweenSubjectAndPredicate.has(words[before]!)) before--;
  return before >= 0 && subjectPronouns.has(words[before]!);
}

/**
 * An e-mail address or web address said aloud ("maria dot lopez at gmail dot com", "shieldhome
 * dot com") or written: its words are pieces of an address, never what a call is about.
 */
const spokenAddress = /\b[\p{L}\p{N}_-]+(?:\s+(?:dot|underscore|dash|hyphen)\s+[\p{L}\p{N}_-]+)*\s+at\s+[\p{L}\p{N}_-]+(?:\s+dot\s+[\p{L}\p{N}_-]+)+\b|\b[\p{L}\p{N}_-]+(?:\s+dot\s+[\p{L}\p{N}_-]+)+\b|\S+@\S+/giu;

/** The text with addresses said or written (see {@link spokenAddress}) blanked out: what is left can name topics. */
export function withoutAddresses(text: string): string {
  return text.replace(spokenAddress, ' ');
}

/** The words of a text as written, in order (curly apostrophes straightened). */
export function writtenWordsOf(text: string): string[] {
  return text.replace(/[’‘]/g, "'").match(wordPattern) ?? [];
}

/** The lower-cased words of a text, in order. */
export function wordsOf(text: string): string[] {
  return writtenWordsOf(text.toLowerCase());
}

/**
 * The key a word is counted under: possessive dropped, a plural folded to its singular by the
 * common English endings ("invoices" → "invoice", "deliveries" → "delivery"). Light on purpose:
 * a wrong fold only merges two counts, it never changes what is shown (see {@link SurfaceForms}).
 */
export function keyOf(word: string): string {
  const base = word.replace(/'s$/, '');
  if (base.length > 4 && base.endsWith('ies')) return `${base.slice(0, -3)}y`;
  if (base.length > 3 && base.endsWith('s') && !/(?:ss|us|is|ys)$/.test(base)) return base.slice(0, -1);
  return base;
}

/** Whether a lower-cased word can name a topic: not a stop word, not a number, at least three letters (a possessive counts as its noun). */
export function isContentWord(word: string): boolean {
  const base = word.replace(/'s$/, '');
  return base.length >= 3 && !stopWords.has(word) && !stopWords.has(base) && !/^\d/.test(base) && !base.includes("'");
}

/**
 * The most frequent way each key was said, so keywords are shown as spoken ("deliveries" stays
 * "deliveries" when that is what the call said most) and names keep their capital ("Leeds"):
 * a spelling is capitalised when it was capitalised, and never lower-cased, inside a sentence
 * (a capital at a sentence's start proves nothing).
 */
export class SurfaceForms {
  /** shape: key → lower-cased spelling → times said */
  private readonly spellings = new Map<string, Map<string, number>>();
  private readonly capitalisedInside = new Set<string>();
  private readonly lowerCaseInside = new Set<string>();

  /** `word` as written in the transcript (any case); `atSentenceStart` when it opens its sentence. */
  add(word: string, atSentenceStart: boolean): void {
    const spelling = word.toLowerCase();
    const key = keyOf(spelling);
    const counts = this.spellings.get(key) ?? new Map<string, number>();
    counts.set(spelling, (counts.get(spelling) ?? 0) + 1);
    this.spellings.set(key, counts);
    if (!atSentenceStart) (word === spelling ? this.lowerCaseInside : this.capitalisedInside).add(spelling);
  }

  /** The surface of a key; the key itself when it was never seen. */
  of(key: string): string {
    const counts = this.spellings.get(key);
    if (!counts) return key;
    const [spelling] = [...counts].sort((first, second) => second[1] - first[1] || first[0].localeCompare(second[0]))[0]!;
    return this.capitalisedInside.has(spelling) && !this.lowerCaseInside.has(spelling) ? capitalise(spelling) : spelling;
  }
}

/** "a", "a and b", "a, b and c". */
export function joinAsList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
