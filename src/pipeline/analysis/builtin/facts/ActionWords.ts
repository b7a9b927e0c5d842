import type { ActionIntent, providerHints } from '../../../../domain/analysis/analysisSchema.js';

/**
 * The action-cue tables of a fact lexicon (see `FactLexicon`): how actions are said, who owns
 * them, how they are titled and classified.
 */

/** How an action clause is classified: the first row whose pattern matches the clause wins. */
export interface IntentCue {
  intent: ActionIntent;
  pattern: RegExp;
}

export interface ActionWords {
  /** First-person promises: the speaker owns the action ("I'll …", "let me …"). */
  commitments: readonly RegExp[];
  /**
   * Offers ("shall I send you the form?", "do you want me to book you in?", "I can text you a link
   * if you like"): the speaker's promise once the other party accepts it, no action otherwise.
   */
  offers: readonly RegExp[];
  /**
   * Proposals of the speaker's own deed, asked ("Then I could get it fitted the week after, say
   * Wednesday the sixteenth?"): an offer whose verb may be any (`notOffered` is for "can I get your
   * name?"), a promise once accepted, on the day accepted when the other party asked for another.
   */
  proposals: readonly RegExp[];
  /** Verbs an offer's clause may not open with: asking for something ("can I take your number?", "can I come in with him?") is no offer. */
  notOffered: readonly string[];
  /** Requests to the other party: the addressee owns it ("could you …", "please …"). */
  requests: readonly RegExp[];
  /** The speaker asks to be reminded ("remind me to …"): the speaker owns the reminder. */
  selfReminders: readonly RegExp[];
  /** Joint or ownerless ("let's …", "we need to …", "someone should …"): no owner. */
  joint: readonly RegExp[];
  /** A sentence opening with "he" or "she" taking an action on: a third party's, when the turn before it named a third party. */
  thirdPartyPronouns: RegExp;
  /** Someone not on the call will act ("my colleague Priya Shah will ring you", "an engineer will call"): no owner among the speakers. */
  thirdParties: readonly RegExp[];
  /**
   * What follows a person's name when they will do something (regex source: "will", "is going
   * to", "'ll"): a third party the call has named ("our plumber Declan") takes an action on by
   * name alone ("Declan will come out Saturday").
   */
  namedPersonWill: string;
  /** The sentence before a request, when a condition governs it ("if you feel unwell, please call 111": advice); tested on the text before the cue. */
  condition: RegExp;
  /**
   * The words before a promise that make it a condition, not a promise ("*If* I have to pop out,
   * I'll leave the key with Mrs Daly": the leaving is the promise, the popping out only may
   * happen); tested on the part's text before the cue.
   */
  conditionLead: RegExp;
  /**
   * A sentence part that opens with a condition ("And if he ends up in hospital that day, I'll call
   * you"): a day said in it is when the condition may happen, not when the promise is due (a
   * deadline still is: "if it hasn't come in by then, I'll ring you").
   */
  conditionOpener: RegExp;
  /**
   * A condition on something going wrong or changing ("if there are any problems", "if anything
   * changes", "if it's not fixed by Thursday"): what is promised or asked under it is a
   * contingency, not an action item (the issue allows a conditional promise to be dropped).
   */
  contingency: RegExp;
  /** Joins two steps of one action, each with its day ("sign it tonight *and* send it in tomorrow"): the action is due with the last. */
  stepJoiner: RegExp;
  /** Verbs of an errand done for what follows it ("*go* to the branch and ask for a new card"): one action with the deed after "and". */
  errandVerbs: readonly string[];
  /** A time that fixes nothing ("*sometime*", "*at some point*", "one of these days"): with no day said, no action. */
  vagueWhen: RegExp;
  /** A hedge before the cue that leaves it undecided ("*maybe* I'll", "*I might*"); anchored at the end of the words before the clause. */
  hedgedLead: RegExp;
  /** An action's part ending on "then" that points back to a day ("I'll call you *then*."); tested on the part. */
  thenAtTheEnd: RegExp;
  /** What joins two deeds of one promise (" and ", " and then "), before the second's verb. */
  deedJoiner: RegExp;
  /** A title that pays ("pay the bill", "make the first payment"): without a sum in its sentence, the sum said before it is kept. */
  paymentAction: RegExp;
  /** Before a day that is what an action is about, not when it is due ("let you know *about* Thursday"); anchored at the end. */
  topicPreposition: RegExp;
  /** After a day, it makes the day a thing's, not when the action is due ("cancel Thursday*'s delivery*"); anchored at the start. */
  dayOfAThing: RegExp;
  /** Advice rather than a request ("you could try …", "it's worth …"): no action, whoever says it. */
  advice: RegExp;
  /** What "let me …" does while still on the call ("let me look", "let me find you"), tested on the clause: no action. */
  inCall: RegExp;
  /** Said of an action due when the call ends ("now", "straight after this call"): due on the call's date. */
  immediacy: RegExp;
  /** An answer that takes on what was asked without naming it ("I'll do that tonight", "will do"): the day it says is the request's. */
  doneAsAsked: RegExp;
  /** Said of a time later on the call's day with no date ("by end of day", "by lunchtime", "in an hour"): due that day. */
  laterToday: RegExp;
  /** Words that say nothing of what an action acts on ("it", "that", "sorted", "done"): a title with only these after its verb is no action ("Get it sorted"). */
  emptyObjectWords: readonly string[];
  /** Auxiliary verbs: after "that" they make it a pronoun ("that is really helpful"), so no noun phrase runs through them. */
  auxiliaries: readonly string[];
  /** A word after "have it" or "get it" that says what is done to it ("made", "fixed", "ready"): the generic verb then names an action of its own. */
  resultParticiple: RegExp;
  /**
   * Pronouns an action's object may be said as, standing for a thing said before: `singular`
   * ("it"), `plural` ("them", "those"), and `demonstrative` ("that", "this": singular, and a pronoun
   * only when `demonstrativeFollowers`, a pattern anchored at its start, follows: an end, a particle, a date word).
   */
  thingPronouns: { singular: readonly string[]; plural: readonly string[]; demonstrative: readonly string[]; demonstrativeFollowers: RegExp };
  /** Words pointing back to something said before ("send *it* to the repairs address"): with a generic verb, such an action next to another of its owner is that one. */
  anaphors: readonly string[];
  /** Verbs that say how a thing moves on, not what is done to it ("send", "put … in writing"): "escalate it" is an action of its own, "send it there" is not. */
  genericVerbs: readonly string[];
  /** A clause must start with one of these verbs to be an action ("send", "call", "check")… */
  verbs: readonly string[];
  /**
   * …unless it follows a plain promise (see `promiseLead`): there the word after it is a verb by
   * grammar ("I'll deal with the DMV", "I'll do the dye test"), an action unless it is one of
   * these, which promise no deed ("I'll be there", "I'll see", "I'll wait", "I'll think about it").
   */
  notDeeds: readonly string[];
  /** A verb form that tells a state or a plan under way, not a deed ("I'll be *working* from home anyway"): no action by grammar. */
  stateForm: RegExp;
  /** The words of a plain promise, anchored at the end ("I'll ", "we're going to "): after them any verb but `notDeeds` is an action. */
  promiseLead: RegExp;
  /** Verbs an imperative sentence may open with ("Send me the invoice."): a request. */
  imperativeVerbs: readonly string[];
  /** Words that may follow an imperative verb ("me", "the", "back"): "Email is fine" is no imperative. */
  imperativeObjects: readonly string[];
  /** Words before an imperative that do not change it ("so", "and", "oh"). */
  imperativeLeads: readonly string[];
  /** A question that asks rather than promises ("When will I get it?", "Do you think I'll need …?"): no commitment. */
  questionOpener: RegExp;
  /** Words opening a question about when, where or how, anchored at the end ("how soon ", "what time "): "could you" after them asks, it does not request. */
  whQuestion: RegExp;
  /** A turn that opens by accepting what the other party proposed or asked ("yes", "that works", "go on then"). */
  acceptance: RegExp;
  /** A turn that turns down what the other party asked ("I'm afraid", "that has to go by post", "I can't"). */
  refusal: RegExp;
  /** Words that turn a day and time down ("Thursday's *no good*", "that *doesn't suit*", "I'm *busy* then"): see agreedSlots.ts. */
  slotTurnedDown: RegExp;
  /** Words of a party speaking of themselves or to the other, or of a time being free ("I've got Friday at two", "*your* check-up is Friday at nine", "Friday at two is *free*"): a day and time they put forward. */
  slotSaidByAParty: RegExp;
  /** A booking done on the line, said after the slot ("*I've moved it* for you", "*you're booked in*"). */
  slotBookedOnTheLine: RegExp;
  /** Words that offer a slot in so many words ("*how about* Friday at eleven?", "*I can do* Tuesday at two", "Friday at two *is free*"). */
  slotOffer: RegExp;
  /** What an agreed day and time is called when the call names no appointment for it. */
  agreedSlotNoun: string;
  /**
   * A check done on the line: the words before its verb ("let me just "), the verb ("check",
   * "look"), and its result said after a pause in the same sentence ("check*... no*, you've got …").
   */
  checkOnTheLine: { lead: RegExp; verb: RegExp; resultAfterPause: RegExp };
  /**
   * Words that ask the other party to hold while something is done ("bear with me", "one moment",
   * "while you're on"): a "let me …" they follow (in its sentence or the next of its turn) is done on the line.
   */
  holdOnTheLine: RegExp;
  /**
   * A record kept or changed on the line, as the call goes on ("I'll log that for you now", "I'll
   * cancel that for you right away", "I'll make a note of that now"): done before the call ends,
   * no task left after it. Tested on the clause.
   */
  recordedOnTheLine: RegExp;
  /** A reply that opens by checking on the line ("Let me just check. Yes, it's there"): what it was asked to check is done in the call, when the turn goes on with the result. */
  checkedInTheReply: RegExp;
  /**
   * An answer saying what was asked is already done, on the line ("Could you take me off your call
   * list?" – "Of course. I've taken your number off our list just now"): no task is left. A record
   * kept or removed, not a booking made ("I've booked you in" is the appointment).
   */
  doneInTheReply: RegExp;
  /** The words before a need that explains a call or a question ("I need to " make a claim). */
  statedNeedLead: RegExp;
  /**
   * A sentence stating a need or a purpose ("I lost a filling last night", "she needs her stitches
   * out", "I'm hoping to book a table for ten"): what an appointment booked later is for.
   */
  statedPurpose: RegExp;
  /** A condition anywhere in a sentence ("if", "unless", "in case"): such a sentence is not quoted as an item's context. */
  conditionAnywhere: RegExp;
  /**
   * The end of an appointment's title that says only whom it books ("Put Marcus Bell *down*", "Put
   * Dev down *for that*"), its booking particle in the group `particle`: the need it was booked for completes it.
   */
  bareBooking: RegExp;
  /** Possessive determiners not among `determiners` ("its"): a thing needed may follow them. */
  possessives: readonly string[];
  /** An action that arranges an appointment without making it ("call us back to set up a time"): described like one. */
  arrangesAppointment: RegExp;
  /** The verb whose `objectAffinities` are the things a payment pays ("pay": a bill, a deposit). */
  paymentVerb: string;
  /** How an item's description introduces a sentence quoted for context ("Context"). */
  contextLabel: string;
  /** How an appointment's description names the organisation holding it ("Booked with"). */
  bookedWithLabel: string;
  /** What "you should …" says when it only tells the other party they will receive something ("you should have it by Saturday"): no request. */
  receipt: RegExp;
  /** Words just before a date that make it when something arrives, not when it is done ("it should be with you"); anchored at the end. */
  arrivalEstimate: RegExp;
  /** A window of time ("between eight and noon", "from 1 to 5 pm"): kept in a title, where a single date or time is taken out. */
  timeWindow: RegExp;
  /** Verbs that put an appointment in a diary when a day and time go with them ("move her to Tuesday at 2:30", "put Biscuit down for …"). */
  slotVerbs: RegExp;

  /** Prepositions before a date dropped with it from a title ("send it *on* Friday"). */
  datePrepositions: readonly string[];
  /** Words that make a date or a length approximate ("*about* thirty minutes before"): dropped with it. */
  approximators: readonly string[];
  /** Where the object of an action ends ("the contract *to* Sheila"): the email subject is what comes before. */
  objectEnd: RegExp;
  /** Joins a moved recipient to a title ("send the contract *to* Sheila"). */
  recipientPreposition: string;
  /** Words that are not the object of an action, for telling duplicates apart ("the", "it", "over"). */
  objectStopWords: readonly string[];
  /** A word left closing a title once a length or date went ("ring you half an hour *before*"): it goes too. */
  danglingAfterDate: RegExp;
  /** The auxiliary of a future progressive ("I'll *be* sending it"): dropped, the -ing verb is read as its base. */
  progressiveAuxiliary: RegExp;
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
  /**
   * A pronoun standing for a third person as the object of an action ("come and get *her*",
   * "pick *him* up"), and what may follow it there (a particle or a preposition, not a noun: "her
   * book bag" is possessive): such a pronoun is the person named last before, when one was.
   */
  personObject: RegExp;
  /**
   * "We have to move your filling": a "we" that must do something to the other party's thing is
   * the speaker's side (the practice, the shop), not both parties: the speaker's action.
   */
  exclusiveWe: RegExp;
  /** A name said with a title ("Dr. Patel", "Mrs Daly"): a professional talked about, not whom "her" or "him" stands for. */
  personTitle: RegExp;
  /** Capitalised words that are no one's name ("Monday", "Um", "Okay"): not whom "her" or "him" stands for. */
  notNames: readonly string[];
  /** Verbs taking the recipient first ("send you the contract" → "send the contract to Sheila"). */
  ditransitiveVerbs: readonly string[];
  /** Rewrites applied to a clause before it is checked and titled ("give you a call" → "call you"; `$1` is a group). */
  rewrites: readonly { pattern: RegExp; replacement: string }[];
  priority: { high: RegExp; low: RegExp };
  /** In order; a clause matching none is a `task`. */
  intents: readonly IntentCue[];
  /** Words naming a meeting or message provider → the hint. */
  providerHints: readonly { pattern: RegExp; hint: (typeof providerHints)[number] }[];
  /** Words naming a meeting ("appointment", "conversation"): a length said right before one is the meeting's ("a thirty minute appointment"). */
  meetingNouns: readonly string[];
  /**
   * Words naming a meeting held at a set time ("appointment", "video call"): booked "between two
   * and four", it is still a meeting; any other booking in a window is a visit to plan around (a task).
   */
  meetingIntentNoun: RegExp;
  /** The meeting nouns that name an appointment of their own (not "call", "chat" or "slot"): what a booking is titled by. */
  appointmentNouns: readonly string[];
  /** Nouns naming a job done at the customer's ("tune-up", "repair", "delivery"): what a visit booked without saying it is titled by. */
  visitNouns: readonly string[];
  /** A clause that books or holds a slot ("book", "pencil in", "lock in"): with a window, a visit. */
  bookingVerb: RegExp;
  /**
   * A thing reserved for a day and a time ("book a table for eight next Friday at seven thirty"):
   * with its time said, an appointment, whatever the thing.
   */
  reservedThing: RegExp;
  /** A visit by the one who promises it ("come out and inspect the kitchen", "pop round"): at a day and a time agreed, an appointment. */
  visitAtATime: RegExp;
  /** Words that open a noun phrase "it" can stand for ("the", "your", "this"). */
  antecedentDeterminers: readonly string[];
  /** A title that finds something out from someone ("Ask my manager", "Check with the warehouse"): a later report back is its end. */
  consultStep: RegExp;
  /** A title that reports back to the other party ("Let Diane know", "Get back to Diane"). */
  reportBack: RegExp;
  /** A word making a time a bound, not a time agreed ("*after* three", "*by* seven"): at a date mention's start or just before it. */
  openTimeBound: RegExp;
  /** An action tied to the day of a visit or job talked about ("before they come", "before we touch it", "on the day"). */
  tiedToTheVisit: RegExp;
  /** A hedge opening a promise's clause ("I'll *probably* leave them till the spring"): with no day, no action. */
  hedgedClause: RegExp;
  /** An asker taking a reply as a no ("Fair enough.", "Never mind.", "Ah well."), opening the turn after it. */
  resignation: RegExp;
  /** A deed said as a pronoun ("do that", "do it"): the deed asked or promised before. */
  deedAnaphor: RegExp;
  /** Verbs said of a thing ("the new stock *arrives* on the 12th"): a noun phrase ends before them. */
  thingVerbs: readonly string[];
  /** Words of quantity after a determiner, which open no noun phrase ("a *bit* short notice", "a *lot* of paperwork"). */
  quantityWords: readonly string[];
  /** Heads of noun phrases that name people, teams, places or times rather than a thing to be paid, signed or sent. */
  notThings: ReadonlySet<string>;
  /**
   * What a verb is typically done to (by the key of the noun: "fee", "form"): "pay it" after
   * "there's a fee for the bus" is paying the fee, "sign it" after "the permission slip" signing
   * the slip, even when the noun was said once. A noun here is an antecedent even when
   * {@link notThings} holds it ("text it to me" after "the address").
   */
  objectAffinities: Readonly<Record<string, readonly string[]>>;
  /** A later step of a title done to "it" ("… and *pick it all up*"): `verb` and the `particle` moved before the thing it stands for. */
  laterStepAnaphor: RegExp;
  /**
   * "one" standing for a thing said before, as a title's object ("pay *the first one*", "drop
   * *one* into our office", "send *a new one*"): `verb`, and the `determiner` and `modifier` said
   * with it when they were (a number word, "one hundred", "one of them", is none).
   */
  oneAnaphor: RegExp;
  /** A thing named only by what it replaces or adds ("the replacement", "a spare"): it takes the noun the call is talking about. */
  ellipticalThing: RegExp;
  /**
   * A thing the action waits for, said as a pronoun in the clause that says when ("call you as soon
   * as *they* arrive", "ring you when *it*'s ready"): `pronoun` takes the thing named just before.
   */
  awaitedThing: RegExp;
  /**
   * A condition opening the sentence that waits for a thing said as a pronoun ("If it comes in,
   * I'll ring you straight away"): `event` is kept in the title after the promise ("Call Diane if
   * the part comes in"), so the title says what the call waits for.
   */
  awaitedCondition: RegExp;
  /** Verbs (word starts) that say a booking was moved rather than made ("move", "reschedul"): the headline says "moved to". */
  movedVerbs: readonly string[];
  /** Appointment nouns that say no more than that there is one ("appointment", "visit"): a headline names its subject before them. */
  genericAppointmentNouns: readonly string[];
  /** The action points back to a number said before ("call you back on *that number*"). */
  numberReference: RegExp;
  /** A meeting place said in the clause ("at our office"): captured as `location`. */
  location: RegExp;
  /** A message handle ("@sheila_k"). */
  handle: RegExp;
}
