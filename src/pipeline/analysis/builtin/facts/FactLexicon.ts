import type { Chrono } from 'chrono-node';
import type { NumberWords } from '../../text/numberWords.js';
import type { ActionWords } from './ActionWords.js';

/**
 * Everything language-specific the fact extractor reads: cue tables, word lists and the date
 * parser. The extraction code holds no words of its own, so adding a language means adding one
 * lexicon (see `english/englishLexicon.ts`) and listing it in `lexiconFor`.
 *
 * Patterns run on one sentence of a segment as transcribed (case kept: names are capitalised).
 * A pattern with a `clause` group captures what follows the cue ("I'll *send you the contract*").
 */
export interface FactLexicon {
  /** Primary language subtags (`en` of `en-GB`) the lexicon reads. */
  languages: readonly string[];
  sentences: {
    /** Words after whose full stop a sentence does not end ("Dr. Patel"), lower case, no dot. */
    abbreviations: readonly string[];
  };
  dates: DateWords;
  numbers: NumberWords;
  amounts: AmountWords;
  emails: EmailWords;
  people: PeopleWords;
  actions: ActionWords;
  statements: StatementWords;
}

export interface DateWords {
  /** chrono-node's parser for the language. */
  parser: Chrono;
  /** A date must contain one of these (a weekday, month, relative day, a digit): drops "sat", "sun", "march on". */
  anchor: RegExp;
  /** A time said without a day must look like one ("at 3", "3pm", "10:30", "noon"): drops "10 to 5". */
  timeAnchor: RegExp;
  /** The mention points back ("last Friday", "two days ago"): parsed without `forwardDate`. */
  pastCue: RegExp;
  /** Mentions too vague to list by themselves ("today", "weekend"): listed only as a deadline or with an action. */
  vague: RegExp;
  /** The weekend as said ("the weekend"): done "before the weekend" means by the Friday. */
  weekend: RegExp;
  /** Words just before a mention that belong to it ("*by* Friday", "*before the* end of the month"); anchored at the end. */
  deadlinePrefix: RegExp;
  /** A sentence that corrects the one before ("Sorry, the third", "I mean Thursday"): a day it says replaces the day said there. */
  selfRepair: RegExp;
  /** Weekday names, lower case: "Friday the 24th" names both. */
  weekdays: readonly string[];
  /** Words before a time said in words ("*at* ten fifteen"): only after one are number words read as a time. */
  timePrepositions: readonly string[];
  /** What follows a number that counts something ("two *percent*", "three *people*"), anchored at the start: then it is no time. */
  countFollowers: RegExp;
  /** Words for a part of the day read as the usual word ("arvo": "afternoon"), lower case. */
  dayPartWords: Readonly<Record<string, string>>;
  /** How often ("twice a day", "three times a week"): a rate, never a day ("a day from Saturday" is no Sunday). Global: every one is found. */
  frequency: RegExp;
  /** Prepositions after which a whole hour said in words is a clock time ("out *by* seven", "open *until* five"), not a count. */
  wholeHourPrepositions: readonly string[];
  /** Words before a time only when it cannot be a count ("move you *to* twelve thirty", "I can *do* half four"; not "up to three", "do two"). */
  clockOnlyPrepositions: readonly string[];
  /**
   * Day words a time said in words may follow with no preposition ("Thursday, half eight",
   * "tomorrow ten thirty"); the weekdays count too.
   */
  daysBeforeTime: readonly string[];
  /**
   * "half" and "quarter" of "half past ten", in minutes; "past" (after the hour) and "to" (before
   * it); `minuteUnits`, the word that may follow a count of minutes said before "past" or "to"
   * ("ten (minutes) past four", "twenty to six"); `articles`, words a fraction may follow ("at *a* quarter to seven").
   */
  hourFractions: { minutes: Readonly<Record<string, number>>; past: readonly string[]; to: readonly string[]; minuteUnits: readonly string[]; articles: readonly string[] };
  /** What may follow "the" + ordinal for it to be a day of the month ("the fifteenth *at* noon", "on the 15th*.*"): "the third time" is none. */
  ordinalDayFollowers: RegExp;
  /**
   * Said right after a day of the month, the month it is in when no month is named ("the first
   * *of the month*", "the 15th *of next month*"); anchored at the start, group `next` when it is next month's.
   */
  ofWhichMonth: RegExp;
  /** Said just before a weekday ("on *the* Monday"), it makes it that weekday of the week talked about; anchored at the end. */
  weekdayOfTheWeekSaid: RegExp;
  /** A sentence about the past ("they *sent* it on the fifth"): a day of the month said alone is the last one, not the next. */
  pastTense: RegExp;
  /**
   * Said just before a past-tense word, it makes the sentence about a state still open ("if it
   * *hasn't* arrived by the tenth": the tenth is ahead); anchored at the end.
   */
  stillOpenBefore: RegExp;
  /** Dates relative to another date ("the day before") → offset in days: resolved against a date in the same sentence, else dropped. */
  relativeAnchors: Readonly<Record<string, number>>;
  /** Parts of the call's own day ("this afternoon", "tonight"): the call's date, no time. */
  partsOfToday: RegExp;
  /** Said with a bare hour, it keeps the hour in the morning ("tomorrow *morning* at seven thirty" is 07:30, not 19:30). */
  /**
   * "In the morning" said with no day ("I'll ring you back in the morning"): the next morning,
   * tomorrow, as a person hearing it on the phone takes it.
   */
  nextMorning: RegExp;
  morningCue: RegExp;
  /** A span chrono reads as a day, week (or month, year) from now that names no day ("earlier *in the week*", "during *the week*", "at the end of *the day*"). */
  noDaySaid: RegExp;
  /** A later part of the day said ("afternoon", "evening", "tonight", "after work"): a sentence saying one is no morning's. */
  laterPartOfDayCue: RegExp;
  /** A weekday said as this week's ("*this* Wednesday"): said on that weekday, it may be today; said alone, it is the coming one. */
  thisWeekday: RegExp;
  /** Days said as an offset (see dayOffsets.ts). */
  dayOffsets: {
    /** Phrases that are a fixed number of days after the call's date ("the day after tomorrow": 2). */
    fromToday: Readonly<Record<string, number>>;
    /** Words before a count of days or weeks from now ("*in* two weeks"). */
    inWords: readonly string[];
    /** Words that count one ("*a* week"). */
    one: readonly string[];
    /** Units of a counted offset, in days ("week": 7, "fortnight": 14). */
    unitDays: Readonly<Record<string, number>>;
    /** Between a unit and a weekday it counts from ("a week *on* Friday"). */
    weekdayJoiners: readonly string[];
    /** Units said right after a weekday ("Thursday *week*"). */
    weekdayThenUnit: readonly string[];
    /** Said after a weekday, the one a week after the coming one ("Monday *after next*", "the Tuesday *after next*"). */
    weekdayAfterNext: readonly string[];
    /**
     * The end of the call's working day as a deadline ("by *end of day*", "by *close of business*"):
     * the call's date, when said after a deadline word and with no other day after it ("close of business Thursday" is Thursday's).
     */
    endOfToday: readonly string[];
    /**
     * The end of a working week said as a deadline ("by the end of the week"): the phrases of this
     * week and of the next, and the weekday it ends on (0 = Sunday; chrono reads "the week" as a
     * week from today, and "the end of this week" as its Saturday).
     */
    endOfWeek: { thisWeek: readonly string[]; nextWeek: readonly string[]; lastWorkingDay: number };
  };
  /** Words before an hour that make it half past ("half two" in British English is 2:30), after a time preposition. */
  halfPastBefore: readonly string[];
}

export interface AmountWords {
  /** Currency symbol → ISO 4217. */
  currencySymbols: Readonly<Record<string, string>>;
  /** Currency word after a number ("dollars", "Swiss francs") → ISO 4217; longest first wins. */
  currencyWords: Readonly<Record<string, string>>;
  /** Multiplier words and suffixes after a number ("15k", "2 million"), lower case. */
  multipliers: Readonly<Record<string, number>>;
  /** Multipliers that make a bare number money ("15k", "ten grand"); the currency stays unknown. */
  moneyMultipliers: readonly string[];
  /** Words meaning per cent after a number. */
  percentWords: readonly string[];
  /** Duration unit as said (lower case) → the unit reported. */
  durationUnits: Readonly<Record<string, string>>;
  /** Phrases that are a duration by themselves ("half an hour"): value and unit. */
  durationPhrases: Readonly<Record<string, { value: number; unit: string }>>;
  /** Counted things ("units", "pallets", "kg"), lower case: a number before one is a quantity. */
  quantityUnits: readonly string[];
  /**
   * Words before a price said as two number groups with no currency ("it comes to one eighty",
   * "I'll pay the first seventy-one ten"), anchored at the end; and words after one ("one eighty
   * *a fan*", "twenty-nine ninety-nine *a month*"), anchored at the start. A pair of numbers said
   * with neither is a time ("Friday at two thirty").
   */
  spokenPriceBefore: RegExp;
  spokenPriceAfter: RegExp;
  /**
   * What may follow a number said alone for it to be a price (see `findAmounts`), anchored at the
   * start: an end, a joining word ("seventy-five *and* …", "another sixty-two *on top*"), not a
   * thing counted ("two *kids*").
   */
  lonePriceFollowers: RegExp;
  /** Words that may stand between a price's words and the number ("pay *the* hundred and sixty", "instead of *your regular* fifty-nine"), anchored at the end. */
  lonePriceLeadIns: RegExp;
  /** Words introducing a reference number ("order number", "invoice #"). */
  referenceCue: RegExp;
  /** A sentence about a phone number: a long digit group in it is one. */
  phoneCue: RegExp;
}

export interface EmailWords {
  /** Spoken separators of an address: "john *dot* smith *at* acme *dot* com". */
  dot: readonly string[];
  at: readonly string[];
  underscore: readonly string[];
  dash: readonly string[];
  /** A spelled address counts only near one of these ("email", "address"): "look at acme dot com" is no address. */
  cue: RegExp;
}

export interface PeopleWords {
  /** Titles before a surname ("Dr", "Mrs"), without the dot. */
  titles: readonly string[];
  /** Roles said before or after a name ("my colleague Mark", "Mark, our accountant"). */
  roles: readonly string[];
  /** Determiners before a role ("my", "our", "the"). */
  roleDeterminers: readonly string[];
  /** Verbs followed by the person they act on ("ask Priya", "talk to Mark"). */
  mentionVerbs: readonly string[];
  /** Nouns a name owns ("Mark's office"): a possessive before another word is often a contraction. */
  possessedNouns: readonly string[];
  /** "from" of "Priya from Acme". */
  affiliationWord: string;
  /** Words joining a name to a party ("you *and* Tom", "me and Owen"): the name is a third party. */
  companions: readonly string[];
  /** Capitalised words that are never a person (days, months, brands, departments, "OK"). */
  notNames: readonly string[];
}

/** A cue and how strongly it states a risk. */
export interface RiskCue {
  pattern: RegExp;
  /** High by itself ("can't guarantee"), else medium unless an intensifier or a softener is said. */
  severe?: boolean;
}

export interface StatementWords {
  decisions: {
    cues: readonly RegExp[];
    /** "we haven't decided", "if we agree": no decision. */
    negations: RegExp;
  };
  risks: {
    cues: readonly RiskCue[];
    /** Removed before the cues are looked for: "no problem", "don't worry". Global (`g`): used with `replace`. */
    negations: RegExp;
    intensifiers: RegExp;
    softeners: RegExp;
  };
  opportunities: { cues: readonly RegExp[]; negations: RegExp };
  openQuestions: {
    /** An answer saying it does not know ("I don't know", "I'll have to check"). */
    unknownAnswer: RegExp;
    /** A statement of something still open ("I'm not sure whether …"). */
    uncertainty: RegExp;
    /** Questions that ask for nothing ("right?", "how are you?"). */
    rhetorical: RegExp;
  };
}
