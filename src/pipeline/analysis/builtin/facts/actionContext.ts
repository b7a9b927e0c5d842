import type { ActionWords } from './ActionWords.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { isContentWord, keyOf } from '../describe/words.js';
import { thingsNamed } from './thingsNamed.js';
import { anyOfWords, escapeRegExp, oncePer } from '../../text/regexWords.js';
import { turnAnswered, turnAround, turnsOf } from './nearbyEvidence.js';

/** Sentences after an appointment's, in the same turn, that may hold its details ("With Dr Mensah, and it's a fifteen minute slot."). */
const APPOINTMENT_DETAIL_SENTENCES = 2;

/** What an appointment's description adds: who holds the booking, when it is the contact's organisation. */
export interface AppointmentContext {
  /** The metadata's organisation when the contact owns the booking; null otherwise. */
  bookedWith: string | null;
}

/**
 * An item's description: the sentence the action was said in, with what a reader needs to make
 * sense of it, quoted as said (nothing is paraphrased, so nothing can be invented):
 * - the other party's question the action answers ("When would you like to make the first
 *   payment?" – "I'll pay the first seventy-one ten online then": what is paid is in the question);
 * - for a payment whose title does not say what is paid ("Transfer the two hundred"), the sentence
 *   before that named it ("I'd need a deposit of two hundred quid to order the charger");
 * - for an appointment, the rest of the turn it was booked in (its details: with whom, how long, a
 *   correction), the need it was booked for, said before it ("I lost a filling last night" … "I'll
 *   put you down for Friday at 4:30": the title says who is put down, the need says for what), and
 *   the organisation that holds it when the contact books it;
 * - for a third party's action said by name alone ("Declan will come out Saturday"), who they
 *   are, as the call said it before ("our plumber Declan": `(Declan: plumber)`), and for one said
 *   as "he" or "she", the sentence before that named them.
 * `said` is the sentence as the description already has it (a sum of money said before may follow it).
 */
export function describedWithContext(
  said: string, title: string, facts: SentenceFacts, call: readonly SentenceFacts[], appointment: AppointmentContext | null, words: ActionWords, thirdParty = false,
): string {
  // A quoted condition ("if anything opens up earlier…") would read as the item's own.
  const unconditional = (sentence: string | null | undefined): sentence is string => typeof sentence === 'string' && !words.conditionAnywhere.test(sentence);
  const details = appointment ? restOfTurn(facts, call).slice(0, APPOINTMENT_DETAIL_SENTENCES).map((other) => other.sentence.text).filter(unconditional) : [];
  const needs = appointment ? [needBooked(facts, call, words)?.sentence.text, reasonForTheCall(facts, call, words)?.sentence.text] : [];
  // "He'll ring you this afternoon": who "he" is, as the sentence before said it ("my colleague Raj in scheduling can").
  const named = thirdParty && words.thirdPartyPronouns.test(facts.sentence.text) ? [call[call.indexOf(facts) - 1]?.sentence.text].filter(unconditional) : [];
  const context = [...named, questionAnswered(facts, call, words), ...needs, paymentNamed(title, facts, call, words)]
    .filter(unconditional).filter((sentence) => !said.includes(sentence));
  const bookedWith = appointment?.bookedWith ? [`(${words.bookedWithLabel}: ${appointment.bookedWith})`] : [];
  const who = thirdParty ? roleOfThePersonNamed(said, call) : [];
  return [said, ...details, ...[...new Set(context)].map((sentence) => `(${words.contextLabel}: "${sentence}")`), ...bookedWith, ...who].join(' ');
}

/** `(name: role)` for the person the sentence names whose role the call said with their name elsewhere, when the sentence does not say it; none otherwise. */
function roleOfThePersonNamed(said: string, call: readonly SentenceFacts[]): string[] {
  const saysWord = (word: string) => new RegExp(`\\b${escapeRegExp(word)}\\b`, 'i').test(said);
  const named = call.flatMap((facts) => facts.names).find((mention) => mention.role !== null && mention.name.split(/\s+/).some(saysWord));
  return named?.role && !saysWord(named.role) ? [`(${named.name}: ${named.role})`] : [];
}

/** Sentences looked back over for the thing a payment pays. */
const PAYMENT_LOOK_BACK = 5;

/**
 * Whether the sentence names a thing paid (one of `ActionWords.objectAffinities` of the
 * `paymentVerb`) as the head of a noun phrase: "a deposit of two hundred", not "that's fine",
 * nor "a payment link" (a link).
 */
function namesAThingPaid(facts: SentenceFacts, words: ActionWords): boolean {
  const paid = words.objectAffinities[words.paymentVerb] ?? [];
  return thingsNamed(facts, words, false, paid).some((phrase) => paid.includes(keyOf(phrase.at(-1)!)));
}

/** The latest of the few sentences before a payment that names a thing paid (see {@link namesAThingPaid}), when the title names none. */
function paymentNamed(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string | null {
  if (!words.paymentAction.test(title) || namesAThingPaid({ ...facts, sentence: { ...facts.sentence, text: title } }, words)) return null;
  const at = call.indexOf(facts);
  return call.slice(Math.max(0, at - PAYMENT_LOOK_BACK), at).reverse().find((other) => namesAThingPaid(other, words))?.sentence.text ?? null;
}

/** The sentences after `facts` until its speaker stops. */
function restOfTurn(facts: SentenceFacts, call: readonly SentenceFacts[]): SentenceFacts[] {
  const turn = turnAround(facts, call);
  return turn.slice(turn.indexOf(facts) + 1);
}

/**
 * The question the other party asked last in the turn just before the one that holds `facts`,
 * when `facts` opens its turn, after an acknowledgement at most ("Do you need photos?" – "Yes
 * please. Could you upload them to the portal?"): a promise said later in the turn answers something else. Null otherwise.
 */
function questionAnswered(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string | null {
  return turnAnswered(facts, call, words.acceptance).findLast((other) => other.sentence.isQuestion)?.sentence.text ?? null;
}

/**
 * The latest sentence before `facts` that states a need or a purpose (see `ActionWords.statedPurpose`):
 * what an appointment is for. Questions are offers or checks ("Do you want the service doing too?"), not the need.
 */
function needBooked(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): SentenceFacts | null {
  const earlier = call.slice(0, Math.max(0, call.indexOf(facts))).reverse();
  return earlier.find((other) => !other.sentence.isQuestion && words.statedPurpose.test(other.sentence.text)) ?? null;
}

/**
 * Turns at the start of a call in which the caller says why they call: a call answered with
 * "Hello?" spends three on who is who ("Is this Rachel? It's Denise from …" – "Yes, hi") before the reason.
 */
const OPENING_TURNS = 4;

/**
 * The first sentence stating a need in the call's opening turns (why the caller rang: "I'm just
 * ringing to book him in to get his stitches out"), when said before `facts`; null otherwise.
 * An appointment's latest need may be a detail ("Dr Kaur wants to see him ten days after"): the reason names it.
 */
function reasonForTheCall(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): SentenceFacts | null {
  const turns = turnsOf(call);
  return call.slice(0, Math.max(0, call.indexOf(facts)))
    .find((other) => (turns.get(other.sentence.segmentIndex) ?? 0) < OPENING_TURNS && !other.sentence.isQuestion && words.statedPurpose.test(other.sentence.text)) ?? null;
}

/** Words a thing needed may run to after its determiner ("her stitches", "the back door lock"). */
const MAX_THING_WORDS = 3;

/**
 * "Put Marcus Bell down" → "Put Marcus Bell down for the filling" after "I lost a filling last
 * night"; "Put Dev down for that" → "… for the MOT" after "I need to get the Golf in for its MOT":
 * an appointment's title that says only whom it books (it ends with the booking's particle, or
 * "for that") takes the thing the need said before it names (see {@link thingNeeded}). As said otherwise.
 */
export function withNeedNamed(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const bare = words.bareBooking.exec(title);
  if (!bare) return title;
  const need = needBooked(facts, call, words);
  const thing = need ? thingNeeded(need, words) : null;
  const particle = bare.groups!.particle;
  return thing ? `${title.slice(0, bare.index)}${particle ? ` ${particle}` : ''} for the ${thing.join(' ')}` : title;
}

/**
 * The thing a need names: the last noun phrase (a determiner and up to {@link MAX_THING_WORDS}
 * words, lower case or an acronym, ending in a content word) between the need's cue and the end of
 * its clause, its dates and amounts left out ("I lost a filling last night, bottom left" → `filling`).
 */
function thingNeeded(need: SentenceFacts, words: ActionWords): string[] | null {
  const cue = words.statedPurpose.exec(need.sentence.text);
  if (!cue) return null;
  let clause = need.sentence.text.slice(cue.index).split(/[,.;:!?]/)[0]!;
  for (const said of [...need.dates.map((mention) => mention.text), ...need.amounts.map((amount) => amount.text)]) clause = clause.replace(said, ' ');
  const tokens = clause.split(/\s+/).filter(Boolean);
  let found: string[] | null = null;
  tokens.forEach((token, index) => {
    if (!words.determiners.includes(token.toLowerCase()) && !words.possessives.includes(token.toLowerCase())) return;
    const phrase: string[] = [];
    for (const word of tokens.slice(index + 1, index + 1 + MAX_THING_WORDS)) {
      if (!/^(?:[a-z][a-z-]*|[A-Z]{2,})$/.test(word) || words.objectStopWords.includes(word) || words.determiners.includes(word)) break;
      phrase.push(word);
    }
    while (phrase.length > 0 && !isContentWord(phrase.at(-1)!.toLowerCase())) phrase.pop();
    if (phrase.length > 0) found = phrase;
  });
  return found;
}
