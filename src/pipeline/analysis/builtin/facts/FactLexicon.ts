import type { Chrono } from 'chrono-node';
import type { ActionIntent, providerHints } from '../../../../domain/analysis/analysisSchema.js';

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
  /** Words just before a mention that belong to it ("*by* Friday", "*before the* end of the month"); anchored at the end. */
  deadlinePrefix: RegExp;
}

export interface NumberWords {
  /** zero … nineteen. */
  ones: Readonly<Record<string, number>>;
  /** twenty … ninety. */
  tens: Readonly<Record<string, number>>;
  /** hundred, thousand, million, billion. */
  scales: Readonly<Record<string, number>>;
  /** "a" of "a hundred": one, only before a scale. */
  articles: readonly string[];
  /** "and" of "two hundred and fifty": skipped. */
  conjunctions: readonly string[];
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
  /** Capitalised words that are never a person (days, months, brands, departments, "OK"). */
  notNames: readonly string[];
}

/** How an action clause is classified: the first row whose pattern matches the clause wins. */
export interface IntentCue {
  intent: ActionIntent;
  pattern: RegExp;
}

export interface ActionWords {
  /** First-person promises: the speaker owns the action ("I'll …", "let me …"). */
  commitments: readonly RegExp[];
  /** Requests to the other party: the addressee owns it ("could you …", "please …"). */
  requests: readonly RegExp[];
  /** The speaker asks to be reminded ("remind me to …"): the speaker owns the reminder. */
  selfReminders: readonly RegExp[];
  /** Joint or ownerless ("let's …", "we need to …", "someone should …"): no owner. */
  joint: readonly RegExp[];
  /** A clause must start with one of these verbs to be an action ("send", "call", "check"). */
  verbs: readonly string[];
  /** Verbs an imperative sentence may open with ("Send me the invoice."): a request. */
  imperativeVerbs: readonly string[];
  /** Words that may follow an imperative verb ("me", "the", "back"): "Email is fine" is no imperative. */
  imperativeObjects: readonly string[];
  /** Words before an imperative that do not change it ("so", "and", "oh"). */
  imperativeLeads: readonly string[];
  /** A question that asks rather than promises ("When will I get it?", "Do you think I'll need …?"): no commitment. */
  questionOpener: RegExp;
  /** Prepositions before a date dropped with it from a title ("send it *on* Friday"). */
  datePrepositions: readonly string[];
  /** Where the object of an action ends ("the contract *to* Sheila"): the email subject is what comes before. */
  objectEnd: RegExp;
  /** Joins a moved recipient to a title ("send the contract *to* Sheila"). */
  recipientPreposition: string;
  /** Words that are not the object of an action, for telling duplicates apart ("the", "it", "over"). */
  objectStopWords: readonly string[];
  /** Words dropped from the start of a clause ("just", "go ahead and", "try to"). */
  leadingFillers: readonly string[];
  /** Where a clause's action ends ("because", "if"): the rest is not in the title. */
  clauseEnd: RegExp;
  /** Where a sentence splits into clauses that may each hold an action ("I'll send it, and could you sign it?"). */
  clauseSplit: RegExp;
  /** Clauses that are no action although their verb is ("let me know if you have any questions"). */
  courtesies: RegExp;
  /** Words opening a noun phrase: a name between a ditransitive verb and one is the recipient ("send Mark *the* figures"). */
  determiners: readonly string[];
  /** Verbs taking the recipient first ("send you the contract" → "send the contract to Sheila"). */
  ditransitiveVerbs: readonly string[];
  /** Rewrites applied to a clause before it is checked and titled ("give you a call" → "call you"; `$1` is a group). */
  rewrites: readonly { pattern: RegExp; replacement: string }[];
  priority: { high: RegExp; low: RegExp };
  /** In order; a clause matching none is a `task`. */
  intents: readonly IntentCue[];
  /** Words naming a meeting or message provider → the hint. */
  providerHints: readonly { pattern: RegExp; hint: (typeof providerHints)[number] }[];
  /** A meeting place said in the clause ("at our office"): captured as `location`. */
  location: RegExp;
  /** A message handle ("@sheila_k"). */
  handle: RegExp;
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
