import type { AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import type { Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import { describedWithContext, withNeedNamed } from './actionContext.js';
import { actionKey, actionTitle } from './actionTitle.js';
import { withAgreedSlots } from './agreedSlots.js';
import { ownerFieldsOf, proseNameOf, type CallParties } from './callParties.js';
import type { ActionWords } from './ActionWords.js';
import { findActionCues, leadingVerb, namedPersonCues, twoDeedsOf, type ActionCue } from './findActionCues.js';
import { isDayToCome, type DateMention } from './findDateMentions.js';
import { intentMetadataFor } from './intentMetadataFor.js';
import { clip } from '../../text/clip.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { mergeActions, objectWordsOf, type FoundAction, type PlacedAction } from './mergeActions.js';
import { thingsNamed } from './thingsNamed.js';
import { acceptedDateTime, laterDateTime, turnAnswered, turnAround, turnsOf } from './nearbyEvidence.js';
import { anyOfWords, escapeRegExp, oncePer } from '../../text/regexWords.js';
import { isContentWord, keyOf } from '../describe/words.js';

/**
 * The action items of a call, one per action cue (see `findActionCues`), merged where several
 * are one action (see `mergeActions`), and the appointments agreed across turns with no cue of
 * their own (see `withAgreedSlots`).
 *
 * Owner: a promise (and "remind me to …") is the speaker's; a request is the other party's
 * (null when the call has not exactly two speakers); a joint action ("let's …") and one a third
 * party takes on ("my colleague will ring you") have no owner; an offer ("shall I …?") is its
 * speaker's once accepted. Due date: the first date said in the cue's part of the sentence (the
 * latest when the part joins steps, each with its day), else in the sentence when it holds one
 * action only (not a day said in a condition before it, nor a day talked about), else the call's
 * date (`callDate`) when the part says it is due as the call ends or later that day ("now",
 * "straight after this call", "by end of day"), else for a request the day its answer gives ("I'll
 * do that tonight"). Priority: high for the lexicon's urgency words ("urgent", "asap", "today"), low
 * for its no-hurry words, else medium. Intent: the first of the lexicon's intent rows matching
 * the clause, else `task`.
 */
export function buildActionItems(
  call: readonly SentenceFacts[], parties: CallParties, metadata: CallMetadata, words: ActionWords, callDate: string,
): FoundAction[] {
  const placed: PlacedAction[] = [];
  const ignoredInKeys = [...words.objectStopWords, ...parties.speakers.flatMap((speaker) => speaker.displayName.split(/\s+/))];
  // Third parties the call names ("our plumber Declan"): by any word of their name, they may take an action on.
  const byName = namedPersonCues([...new Set(call.flatMap((facts) => facts.names.flatMap((mention) => [mention.name, ...mention.name.split(/\s+/).filter((word) => /^\p{Lu}\p{Ll}+$/u.test(word))])))], words);
  for (const [at, facts] of call.entries()) {
    // "My colleague Raj in scheduling can. He'll ring you this afternoon": "he" is the third party just named.
    const before = call[at - 1];
    const afterAName = before !== undefined && before.sentence.segment.speakerId === facts.sentence.segment.speakerId && before.names.length > 0;
    // Two deeds of one promise, each on its own day ("email the plan tonight and ring the builder tomorrow"), are two actions.
    const daysIn = (part: ActionCue['part']) => facts.dates.filter((mention) => mention.date !== null && mention.index >= part.index && mention.index < part.index + part.text.length).map((mention) => mention.date);
    const onTheirOwnDays = (first: ActionCue['part'], second: ActionCue['part']) => {
      const [firstDays, secondDays] = [daysIn(first), daysIn(second)];
      return firstDays.length > 0 && secondDays.length > 0 && firstDays.every((day) => !secondDays.includes(day));
    };
    const cues = findActionCues(facts.sentence, words, afterAName ? [...byName, words.thirdPartyPronouns] : byName).flatMap((cue) => twoDeedsOf(cue, words, onTheirOwnDays));
    for (const saidCue of cues) {
      const speaker = parties.speaker(facts.sentence.segment.speakerId);
      if (!speaker || !standsAfterTheReply(saidCue, facts, call, words) || isDoneOrAskedInTheCall(saidCue, facts, call, words)) continue;
      // "I'll do that tonight" is the deed the speaker asked or promised before; with none, it is
      // merged into what the other party asked, or nothing.
      const deed = withDeedNamed(saidCue, facts, call, words);
      if (words.deedAnaphor.test(saidCue.clause) && deed === saidCue.clause) continue;
      const cue = { ...saidCue, clause: deed };
      const { titleAsSaid, ...action } = actionOf(cue, cues.length, speaker, { facts, call, parties, metadata, words, callDate });
      // "I'll stick with what I have", "I'll grab an Uber": a verb outside the lexicon makes an action only done on a day said.
      if (cue.verbByGrammar && action.item.dueDate === null) continue;
      // "We should get together for a coffee sometime", "maybe I'll give them a ring": a wish or a maybe, with no day, is no action.
      // "I'll probably leave them till the spring": a "probably" with no day is a maybe too.
      if (action.item.dueDate === null && (words.vagueWhen.test(cue.clause) || words.hedgedLead.test(facts.sentence.text.slice(0, cue.part.index + cue.lead.length))
        || words.hedgedClause.test(cue.part.text.slice(cue.lead.length)))) continue;
      placed.push({
        ...action,
        segmentIndex: facts.sentence.segmentIndex,
        // Merged by the title as said: "send it to …" still joins the action "it" points back to.
        key: `${action.item.ownerSpeakerId ?? '-'}|${actionKey(titleAsSaid, ignoredInKeys)}`,
        ...objectWordsOf(titleAsSaid, words),
        // Whether "it" is still in the title once its antecedent was looked for.
        pointsBack: objectWordsOf(action.item.title, words).pointsBack,
        acceptsTurnAt: acceptedTurn(facts, call, words),
        slots: words.slotVerbs.test(cue.clause),
        consults: words.consultStep.test(action.item.title),
        reportsBack: words.reportBack.test(action.item.title),
      });
    }
  }
  return withAgreedSlots(mergeActions(placed), call, parties, metadata, words, callDate);
}

interface ActionContext {
  facts: SentenceFacts;
  call: readonly SentenceFacts[];
  parties: CallParties;
  metadata: CallMetadata;
  words: ActionWords;
  callDate: string;
}

function actionOf(cue: ActionCue, cuesInSentence: number, speaker: Speaker, context: ActionContext): FoundAction & { titleAsSaid: string } {
  const { facts, parties, words } = context;
  const addressee = parties.other(speaker.speakerId);
  // "We have to move your filling": the speaker's side, not both parties.
  const kind = cue.kind === 'joint' && words.exclusiveWe.test(cue.part.text) ? 'commitment' : cue.kind;
  const owner = kind === 'commitment' || kind === 'selfReminder' ? speaker : kind === 'request' ? addressee : null;
  const saidHere = dateOf(cue, facts.dates, cuesInSentence, facts.sentence.text, words);
  // "Put me down for that": a slot taken without its time said is the one offered just before.
  // "I'll pop her in for five fifteen" after "I can do five fifteen on Monday": the slot said before at that time.
  const accepted = !saidHere?.dateTime && words.slotVerbs.test(cue.clause)
    ? acceptedDateTime(facts, context.call, turnsOf(context.call), saidHere ? null : timeSaidAlone(cue, facts)?.time ?? null) : null;
  // "I could fit it on Wednesday?" … "Thursday, yeah, I can do that": the day agreed instead.
  const instead = cue.proposal ? dayAgreedInstead(facts, context.call, words) : null;
  const said = instead ?? accepted?.when ?? saidHere;
  const listed = cue.kind === 'selfReminder' ? 'reminder' : words.intents.find((row) => row.pattern.test(cue.clause))?.intent ?? 'task';
  // "I'll move her to Tuesday at 2:30", "I'll put Biscuit down for Thursday at 5:30": a day and a
  // time put in a diary are an appointment, whatever the verb.
  // A window ("between eight and noon") is what the other party must plan around: it stays.
  const window = words.timeWindow.exec(cue.clause)?.[0].toLowerCase();
  // "I'll book Gary in for Friday between eight and twelve": a visit in a window (someone comes
  // round, a delivery) is a task to plan around, not an appointment at a time.
  // "Put me down for that" asks the other side to put the slot in their diary: an appointment too.
  const slotted = !window && listed === 'task' && cue.kind !== 'thirdParty' && words.slotVerbs.test(cue.clause) && Boolean(said?.dateTime);
  // "I'll reserve the family room for Walter's birthday visit on Sunday at eleven": an
  // appointment named with its day and time is a meeting, whatever is done to set it up.
  // "I'll come out and inspect the kitchen Thursday at ten", "could you come in on Monday at two?": a visit at a time agreed is one too.
  // "Pop in after three and pick it up": a time bounding when, not one agreed, makes no appointment.
  const openBound = said === saidHere && saidHere !== null && saidHere !== undefined
    && (words.openTimeBound.test(saidHere.text) || words.openTimeBound.test(facts.sentence.text.slice(Math.max(0, saidHere.index - OPEN_BOUND_CHARACTERS), saidHere.index)));
  const appointmentAtATime = !window && listed === 'task' && Boolean(said?.dateTime) && !openBound
    && (appointmentNounIn(cue.clause, words) || words.reservedThing.test(cue.clause) || ((cue.kind === 'commitment' || cue.kind === 'request') && words.visitAtATime.test(cue.clause)));
  const intent = slotted || appointmentAtATime ? 'meeting' : listed === 'meeting' && window && !words.meetingIntentNoun.test(cue.clause) ? 'task' : listed;
  // "We should meet up" … "The 15th at noon?": a meeting takes the time agreed in the next turns.
  const agreed = intent === 'meeting' && !said?.dateTime ? laterDateTime(facts, context.call, turnsOf(context.call)) : null;
  const when = agreed?.when ?? said;
  // "I'll come and get her, I'll be there in about half an hour": the sentence's one action is due when it says.
  const dueWhen = cuesInSentence === 1 ? facts.sentence.text : cue.part.text;
  // "If it comes in, I'll ring you straight away": straight away once the condition holds, not today.
  const afterACondition = cue.part.index > 0 && words.conditionOpener.test(facts.sentence.text);
  const dueToday = !afterACondition && (words.immediacy.test(dueWhen) || words.laterToday.test(dueWhen));
  const dueDate = when?.date ?? (dueToday ? context.callDate : null)
    ?? dayOfATimeSaidAlone(cue, facts, context.call, context.callDate)
    ?? (afterACondition ? null : dayTheAwaitedThingComes(cue.clause, facts, context.call, words, context.callDate))
    ?? (cue.kind === 'request' ? dueDateOfTheAnswer(facts, context.call, words, context.callDate) : null)
    ?? dayOfTheVisitTalkedAbout(facts, context.call, words, context.callDate)
    ?? (words.thenAtTheEnd.test(cue.part.text) && facts.dates.length === 0 ? daySaidInTheTurnBefore(facts, context.call) : null);
  // "right after we hang up", "by end of day" say when, like a date: the due date carries it, the title need not.
  const immediately = (words.immediacy.exec(cue.clause) ?? words.laterToday.exec(cue.clause))?.[0];
  const removable = [
    // A day talked about is what the action is about: it stays in the title.
    ...facts.dates.filter((mention) => !isTopic(mention, facts.sentence.text, words)).map((mention) => mention.text),
    ...facts.amounts.filter((amount) => amount.kind === 'duration').map((amount) => amount.text),
    ...(immediately ? [immediately] : []),
  ].filter((said) => !window?.includes(said.toLowerCase()));
  // "book the tech for Tuesday the twelfth, between noon and four": the window said after a comma
  // still belongs to the action (the title is cut at commas).
  const clauseForTitle = window ? cue.clause.replace(new RegExp(`,\\s*(${words.timeWindow.source})(?:\\s*,)?`, 'i'), ' $1') : cue.clause;
  const titleAsSaid = actionTitle(clauseForTitle, removable, {
    speakerName: proseNameOf(speaker, context.metadata.direction),
    addresseeName: addressee ? proseNameOf(addressee, context.metadata.direction) : null,
    ownerIsSpeaker: owner === speaker,
    ownerIsAddressee: owner !== null && owner === addressee,
  }, words);
  // "If it comes in, I'll ring you straight away": the title says what the promise waits for (its "it" named below).
  const awaited = cue.kind === 'commitment' ? words.awaitedCondition.exec(facts.sentence.text) : null;
  const titleWaiting = awaited && cue.part.index >= awaited[0].length ? `${titleAsSaid} ${awaited.groups!.event!.toLowerCase()}` : titleAsSaid;
  const booked = intent === 'meeting' && !slotted && words.slotVerbs.test(cue.clause);
  // "I'll book the tech for Tuesday, between noon and four": a visit in a window, titled by the job it is for.
  const visitBooked = intent === 'task' && Boolean(window) && words.bookingVerb.test(cue.clause);
  const named = withPersonNamed(withRoles(slotted ? appointmentTitle(titleAsSaid, cue, facts, context.call, words)
    : booked ? withWhatIsBooked(titleAsSaid, cue, facts, context.call, words, words.meetingNouns, words.appointmentNouns)
      : visitBooked ? withWhatIsBooked(titleAsSaid, cue, facts, context.call, words, words.visitNouns, words.visitNouns)
        : withAwaitedThing(withAntecedent(titleWaiting, facts, context.call, words), facts, context.call, words), context.call), facts, context.call, parties, words);
  const title = intent === 'meeting' ? withNeedNamed(named, facts, context.call, words) : named;
  const sentence = facts.sentence.text;
  const priority = words.priority.high.test(sentence) ? 'high' : words.priority.low.test(sentence) ? 'low' : 'medium';
  const sentenceSaid = withAmountSaidBefore(titleAsSaid, facts, context.call, words);
  // An appointment, or a visit booked in a window ("I'll pencil you in for Monday between two and four").
  const booking = intent === 'meeting' || visitBooked || (Boolean(window) && words.slotVerbs.test(cue.clause)) || words.arrangesAppointment.test(cue.clause);
  const item: AnalysisActionItem = {
    title,
    description: clip(describedWithContext(sentenceSaid, title, facts, context.call, booking ? { bookedWith: owner?.role === 'CONTACT' ? context.metadata.organization?.trim() || null : null } : null, words, cue.kind === 'thirdParty'), 1000),
    dueDate,
    priority,
    ...ownerFieldsOf(owner),
    sourceSegmentIds: [facts.sentence.segment.id],
    intent,
    intentMetadata: intentMetadataFor({
      intent, kind: cue.kind, title, clause: cue.clause, when, whenSaidIn: agreed?.facts ?? accepted?.facts ?? null, facts, call: context.call, speaker, addressee, parties,
      metadata: context.metadata, words,
    }),
  };
  return { item, kind, speakerId: speaker.speakerId, said: sentenceSaid, titleAsSaid };
}

/** Characters before a date mention read for the word that makes its time a bound ("after", "by"). */
const OPEN_BOUND_CHARACTERS = 12;

/** Sentences looked back over for a day a time said alone may be on ("Thursday, then?" … "I'll be there by ten"). */
const DAY_FOR_A_TIME_LOOK_BACK = 3;

/** The time said with no day in the cue's part ("I'll have it out by seven"), if one is. */
function timeSaidAlone(cue: ActionCue, facts: SentenceFacts): DateMention | undefined {
  return facts.dates.find((mention) => mention.date === null && mention.time !== null
    && mention.index >= cue.part.index && mention.index < cue.part.index + cue.part.text.length);
}

/**
 * The day of a time said with no day (see {@link timeSaidAlone}): the day said last in the few
 * sentences before ("We'll collect the sofa that day …" – "I'll have it out by seven"), else the
 * call's day ("I'll come and get her by half eleven"), unless the action's own sentence names
 * another day it was not given (one in a condition: which day is meant is unclear). Null without such a time.
 */
function dayOfATimeSaidAlone(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], callDate: string): string | null {
  if (!timeSaidAlone(cue, facts)) return null;
  const at = call.indexOf(facts);
  const dayBefore = call.slice(Math.max(0, at - DAY_FOR_A_TIME_LOOK_BACK), at).flatMap((earlier) => earlier.dates).findLast((mention) => mention.date !== null);
  if (dayBefore) return dayBefore.date;
  return facts.dates.some((mention) => mention.date !== null && mention.date !== callDate) ? null : callDate;
}

/**
 * Whether an action still stands once the other party has answered: an offer answered by a
 * request to do the same (see {@link answeredWithTheSameRequest}) never; a "can we …?" proposal and an
 * offer ("shall I send you the form?") only when the answer opens by accepting it ("Can we move it
 * to next week?" – "Let me look…" is a question, no action), and a request not when the answer
 * turns it down ("Could you email me a confirmation?" – "It has to go to the patient, though, so
 * I'll post it": the post is the action, not the email) or says it is done already ("Could you
 * take me off your list?" – "Of course. I've taken your number off just now").
 */
function standsAfterTheReply(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): boolean {
  if (cue.kind !== 'request' && !cue.offered && !(cue.kind === 'joint' && facts.sentence.isQuestion)) return true;
  const replying = replySentences(facts, call);
  const reply = replying.length === 0 ? null : replying.map((other) => other.sentence.text).join(' ');
  // The reply's first sentences: an acknowledgement, then what it says ("Sure thing. I've removed it just now").
  const opening = replying.slice(0, REPLY_OPENING_SENTENCES);
  if (cue.offered && answeredWithTheSameRequest(cue, opening, words)) return false;
  // "Can we replace the old order?" – "Yes. I've cancelled the old order": done as it was asked.
  if (!cue.offered && opening.some((other) => words.doneInTheReply.test(other.sentence.text))) return false;
  if (cue.kind === 'joint' || cue.offered) return (reply !== null && words.acceptance.test(reply)) || (cue.proposal && dayAgreedInstead(facts, call, words) !== null);
  // "Can you check whether our payment has arrived?" – "Let me just check. Yes, it's there".
  if (cue.kind === 'request' && replying.length > 1 && words.checkedInTheReply.test(replying[0]!.sentence.text)) return false;
  if (reply !== null && !words.acceptance.test(reply) && resignedTo(facts, replying, call, words)) return false;
  return reply === null || words.acceptance.test(reply) || !words.refusal.test(reply);
}

/**
 * "Could you order one in from another branch?" – "We've only the one shop, and it's gone from the
 * brand's website too." – "Fair enough.": a reply that promises nothing, which the asker then
 * accepts as a no ("fair enough", "never mind", "ah well"), turned the request down.
 */
function resignedTo(facts: SentenceFacts, replying: readonly SentenceFacts[], call: readonly SentenceFacts[], words: ActionWords): boolean {
  const last = replying.at(-1);
  if (!last || replying.some((other) => findActionCues(other.sentence, words).some((cue) => cue.kind === 'commitment'))) return false;
  const next = call[call.indexOf(last) + 1];
  return next !== undefined && next.sentence.segment.speakerId === facts.sentence.segment.speakerId && words.resignation.test(next.sentence.text);
}

/** Sentences of a reply read for what it says at once: an acknowledgement and the sentence after it. */
const REPLY_OPENING_SENTENCES = 2;

/**
 * "Can I just email the note to you?" – "Yes, email it to the front desk": an offer answered by a
 * request with the same verb is that request (what to do, and to whom, as the answer says).
 */
function answeredWithTheSameRequest(cue: ActionCue, opening: readonly SentenceFacts[], words: ActionWords): boolean {
  const verb = leadingVerb(cue.clause);
  return opening.some((other) => findActionCues(other.sentence, words).some((answer) => answer.kind === 'request' && leadingVerb(answer.clause) === verb));
}

/**
 * Things said as actions that the call itself settles: "Let me just check the evening slots.
 * Thursday at five thirty?" (the check is done on the line: the same turn goes on with its
 * result), and a need that explains why the caller asks ("I need to make a claim", "Can I still
 * print there? I need to print a form": the reason for the call or for the question, answered in
 * it, not a promise), a record kept or changed as the call goes on ("I'll log that for you now"),
 * and a "let me …" the other party is asked to hold for ("Let me run a line test while you're on").
 */
function isDoneOrAskedInTheCall(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): boolean {
  if (cue.kind !== 'commitment') return false;
  if (words.recordedOnTheLine.test(cue.clause)) return true;
  const { lead } = cue;
  const turn = turnAround(facts, call);
  if (words.checkOnTheLine.lead.test(lead)) {
    const at = turn.indexOf(facts);
    // "Let me ring him quickly. Bear with me a second.": the other party holds while it is done.
    if (turn.slice(at, at + 2).some((other) => words.holdOnTheLine.test(other.sentence.text))) return true;
    // "Let me check... no, you've got a prepayment certificate": the result follows the pause.
    if (words.checkOnTheLine.verb.test(cue.clause)) return at < turn.length - 1 || words.checkOnTheLine.resultAfterPause.test(facts.sentence.text.slice(cue.part.index + lead.length));
  }
  if (!words.statedNeedLead.test(lead)) return false;
  // The call's first two turns: the answer to the phone and why the caller rang.
  const opensTheCall = (turnsOf(call).get(facts.sentence.segmentIndex) ?? 0) <= 1;
  return opensTheCall || turn.some((other) => other.sentence.isQuestion);
}

/**
 * "I could get it fitted on Wednesday the sixteenth?" – "Wednesday I'm away. Could you do the
 * Thursday instead?" – "Thursday the seventeenth, yeah, I can do that.": an offer answered with
 * another day, which the one who offered then accepts, stands on that day. The day the acceptance
 * says, else the last the answer said; null when the answer says no day or the acceptance does not follow.
 */
function dayAgreedInstead(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): DateMention | null {
  const reply = replySentences(facts, call);
  const asked = reply.flatMap((other) => other.dates).filter((mention) => mention.date !== null).at(-1);
  const answer = reply.length > 0 ? replySentences(reply.at(-1)!, call)[0] : undefined;
  if (!asked || !answer || answer.sentence.segment.speakerId !== facts.sentence.segment.speakerId) return null;
  // "Thursday the seventeenth, yeah, …": the day said back, then the yes.
  const said = answer.dates.find((mention) => mention.date !== null && mention.index === 0);
  const rest = said ? answer.sentence.text.slice(said.text.length).replace(/^[\s,.;:-]+/, '') : answer.sentence.text;
  return words.acceptance.test(rest) ? said ?? asked : null;
}

/** The last segment of the other speaker's turn just before `facts`'s turn, when `facts`'s turn opens by accepting (see `ActionWords.acceptance`); else null. */
function acceptedTurn(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): number | null {
  const opening = turnAround(facts, call)[0]!;
  const before = call[call.indexOf(opening) - 1];
  return before && words.acceptance.test(opening.sentence.text) ? before.sentence.segmentIndex : null;
}

/** The sentences of the other speaker's next turn; empty when nobody answers. */
function replySentences(facts: SentenceFacts, call: readonly SentenceFacts[]): SentenceFacts[] {
  const asker = facts.sentence.segment.speakerId;
  const after = call.slice(call.indexOf(facts) + 1);
  const start = after.findIndex((other) => other.sentence.segment.speakerId !== asker);
  if (start < 0) return [];
  const replier = after[start]!.sentence.segment.speakerId;
  const end = after.findIndex((other, index) => index > start && other.sentence.segment.speakerId !== replier);
  return after.slice(start, end < 0 ? undefined : end);
}

/**
 * "I'm back in the office on Monday." – "Okay, I'll call you then.": the day the other party said
 * last in the turn just before the action's (the one "then" points back to); null when it said none.
 */
function daySaidInTheTurnBefore(facts: SentenceFacts, call: readonly SentenceFacts[]): string | null {
  const turns = turnsOf(call);
  const ownTurn = turns.get(facts.sentence.segmentIndex) ?? 0;
  const before = call.filter((other) => turns.get(other.sentence.segmentIndex) === ownTurn - 1 && other.sentence.segment.speakerId !== facts.sentence.segment.speakerId);
  return before.flatMap((other) => other.dates).findLast((mention) => mention.date !== null)?.date ?? null;
}

/**
 * "Could you send me the photos?" – "Sure, I'll do that tonight": when the request says no day,
 * the day its answer promises it for (a date said, or "now", "as soon as I'm off the phone").
 */
function dueDateOfTheAnswer(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, callDate: string): string | null {
  for (const answer of replySentences(facts, call)) {
    if (!words.doneAsAsked.test(answer.sentence.text)) continue;
    const said = answer.dates.find((mention) => mention.date !== null)?.date;
    if (said) return said;
    if (words.immediacy.test(answer.sentence.text) || words.laterToday.test(answer.sentence.text)) return callDate;
  }
  return null;
}

/** The sentences before the cue, latest first: the cue's own sentence up to the cue, then every sentence before it. */
function textsBefore(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[]): string[] {
  const earlier = call.slice(0, Math.max(0, call.indexOf(facts))).map((other) => other.sentence.text).reverse();
  return [facts.sentence.text.slice(0, cue.part.index), ...earlier];
}

/**
 * A slot put in a diary, titled by what it is: "Appointment with Dr. Patel" for "I'll move her to
 * Tuesday the first at two thirty with Dr. Patel" when the call named the appointment before
 * (the latest meeting noun said); the title as said when it did not.
 */
function appointmentTitle(title: string, cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const noun = meetingNounBefore(cue, facts, call, words);
  if (!noun) return title;
  const withWhom = /\bwith\s+((?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)/u.exec(cue.clause)?.[1];
  return `${noun.charAt(0).toUpperCase()}${noun.slice(1).toLowerCase()}${withWhom ? ` with ${withWhom}` : ''}`;
}

/**
 * Whether a clause names an appointment as a noun ("his birthday *visit*", "the *inspection*"),
 * not as a verb with its object ("visit the site", "review the contract").
 */
function appointmentNounIn(clause: string, words: ActionWords): boolean {
  const objectAfter = anyOfWords([...words.determiners, ...words.anaphors, 'you', 'him', 'her', 'us', 'me']);
  return new RegExp(`(?<=\\S\\s)(?<!\\bto\\s)(?:${anyOfWords(words.appointmentNouns)})s?\\b(?!\\s+(?:${objectAfter})\\b)`, 'i').test(clause);
}

/** The latest meeting noun ("appointment", "hearing test") said in the cue's clause or before it; nouns naming no appointment of their own left out. */
function meetingNounBefore(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, nouns: readonly string[] = words.appointmentNouns): string | undefined {
  const nounPattern = new RegExp(`\\b(${anyOfWords(nouns)})s?\\b`, 'i');
  return [cue.clause, ...textsBefore(cue, facts, call)].map((text) => nounPattern.exec(text)?.[1]).find(Boolean)?.toLowerCase();
}

/**
 * "Book dad Sal in with Dr. Nguyen" → "… for the hearing test": a booking that does not say what
 * it is for gets the latest of `nounsBefore` said before it (meeting nouns for an appointment, job
 * nouns for a visit: "Book the tech" → "… for the tune-up"), unless one of `nounsInTitle` is in it.
 */
function withWhatIsBooked(
  title: string, cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, nounsInTitle: readonly string[], nounsBefore: readonly string[],
): string {
  const nounInTitle = new RegExp(`\\b(?:${anyOfWords(nounsInTitle)})s?\\b`, 'i');
  if (nounInTitle.test(title)) return title;
  const noun = meetingNounBefore(cue, facts, call, words, nounsBefore);
  return noun ? `${title} for the ${noun}` : title;
}

/**
 * "Book Gary in" → "Book plumber Gary in" when the call said who Gary is ("our plumber, Gary"):
 * a person named in the title gets the role the call gave them, so the title says who comes.
 */
function withRoles(title: string, call: readonly SentenceFacts[]): string {
  let text = title;
  for (const facts of call) {
    for (const { name, role } of facts.names) {
      if (!role || new RegExp(`\\b${escapeRegExp(role)}\\b`, 'i').test(text)) continue;
      const first = name.split(/\s+/)[0]!;
      const said = new RegExp(`\\b(?<!\\S\\s${escapeRegExp(role)}\\s)${escapeRegExp(first)}\\b`).exec(text);
      if (said) text = `${text.slice(0, said.index)}${role} ${text.slice(said.index)}`;
    }
  }
  return text;
}

/** Sentences looked back over for the person "her" or "him" stands for: the one a call is about is often named once, at its start ("I'm Pepper's owner"), and then only "her". */
const PERSON_LOOK_BACK = 20;

/**
 * "I'll come and get her now" after "is that Ellie's mum?" → "Come and get Ellie": a third person
 * the action is done to, said as a pronoun, is the one the call named last in the sentences before
 * (a speaker is no third person: their own pronouns are "me" and "you"). As said when none was named.
 */
function withPersonNamed(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], parties: CallParties, words: ActionWords): string {
  if (!words.personObject.test(title)) return title;
  const speakerWords = new Set(parties.speakers.flatMap((speaker) => speaker.displayName.toLowerCase().split(/\s+/)));
  const notNames = new Set(words.notNames.map((word) => word.toLowerCase()));
  const isParty = (name: string) => name.toLowerCase().split(/\s+/).some((word) => speakerWords.has(word));
  const at = call.indexOf(facts);
  // Someone named with a title ("Dr. Patel", "Mrs Daly") is a professional the call talks about,
  // seldom the one picked up or brought in ("move her to Tuesday with Dr. Patel": the patient).
  const named = call.slice(Math.max(0, at - PERSON_LOOK_BACK), at).flatMap((earlier) => namesIn(earlier, words))
    .filter((name) => !isParty(name) && !words.personTitle.test(name) && !notNames.has(name.toLowerCase())).at(-1);
  return named ? title.replace(words.personObject, named) : title;
}

/**
 * The people a sentence names, in the order said: its third parties, and a capitalised word
 * said with "'s" ("Ruby's not feeling well", "Ellie's mum"), which only a name is mid-sentence
 * or at its start (a title before it makes it a professional's: "Dr. Patel's office").
 */
function namesIn(facts: SentenceFacts, words: ActionWords): string[] {
  const notNames = new Set(words.notNames.map((word) => word.toLowerCase()));
  const text = facts.sentence.text;
  // After a lower-case word (or "I'm": "I'm Pepper's owner"): not at the sentence's start, where any word is capitalised ("What's
  // happened?"), nor inside a longer proper name ("St Aidan's", "Dr. Patel's office").
  const possessives = [...text.matchAll(/(?<=(?:^|\s)(?:\p{Ll}+|I['’]m|I am),?\s)(\p{Lu}\p{Ll}+)['’]s\b/gu)]
    .filter((match) => !notNames.has(match[1]!.toLowerCase()))
    .map((match) => ({ name: match[1]!, index: match.index }));
  const mentions = facts.names.map((mention) => ({ name: mention.name, index: text.indexOf(mention.name) }));
  return [...mentions, ...possessives].sort((first, second) => first.index - second.index).map((mention) => mention.name);
}

/**
 * A title's verb and the pronoun standing for its object ("Pay *it* on the portal", "Email *those*
 * over"); a demonstrative only where no noun follows it ("email that form": a determiner).
 */
const verbAndThingPronoun = oncePer((words: ActionWords) => {
  const { singular, plural, demonstrative, demonstrativeFollowers } = words.thingPronouns;
  return new RegExp(`^(\\S+)\\s+(${anyOfWords([...singular, ...plural])}|(?:${anyOfWords(demonstrative)})(?=${demonstrativeFollowers.source}))\\b`, 'i');
});

/** Whether a noun phrase is of the number asked for: its last word plural (its key differs, "photos" → "photo") or not. */
const ofNumber = (plural: boolean) => (phrase: readonly string[]) => (keyOf(phrase.at(-1)!) !== phrase.at(-1)!) === plural;

/** Sentences looked back over for what "it" stands for. */
const ANTECEDENT_LOOK_BACK = 5;
/** Sentences looked back over for a thing the action's verb is typically done to ("pay it": a fee, a bill): such a noun is a surer antecedent. */
const TYPICAL_OBJECT_LOOK_BACK = 12;
/**
 * "I'll pay it by the fifteenth" after "the bill comes down to eighty-four euro twenty" → "Pay the
 * bill by the fifteenth": an action whose object is "it" (or "them", "those": then a plural) takes the thing the call keeps talking
 * about among the noun phrases of the few sentences before (a determiner and up to three words
 * ending in a noun the call says at least twice, no person, place or time), with "the" for its
 * determiner; the most talked-about one, the latest on a tie. The title as said when none is.
 */
function withAntecedent(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const one = words.oneAnaphor.exec(title);
  if (one) return withOneNamed(title, one, facts, call, words);
  // "I'll order the replacement today" after talk of the card: the replacement card.
  const elliptical = words.ellipticalThing.exec(title);
  if (elliptical) {
    const head = talkedAboutThing(facts, call, words, false)?.at(-1);
    const end = elliptical.index + elliptical[0].length;
    return head ? `${title.slice(0, end)} ${head}${title.slice(end)}` : title;
  }
  const anaphor = verbAndThingPronoun(words).exec(title);
  const pronoun = anaphor?.[2]?.toLowerCase() ?? '';
  // "Pay that", "sign this": a demonstrative stands for a thing after a verb typically done to one,
  // or for the thing the sentence just before, in the same turn, named.
  const demonstrative = anaphor && words.thingPronouns.demonstrative.includes(pronoun) && !words.objectAffinities[anaphor[1]!.toLowerCase()];
  if (!anaphor) return withLaterStepAntecedent(title, facts, call, words);
  const at = call.indexOf(facts);
  const plural = words.thingPronouns.plural.includes(pronoun);
  const matchesNumber = ofNumber(plural);
  const named = (phrase: readonly string[]) => `${anaphor[1]} the ${phrase.join(' ')}${title.slice(anaphor[0].length)}`;
  // The sentence itself, before the verb, names it ("You asked about a receipt, so I'll mail that
  // out"); else the sentence just before, in the same turn: "What I need is photos of the damage.
  // Could you email those to …?"; "We haven't had her consent slip back. Could you send that in by Friday?"
  const verbAt = facts.sentence.text.search(new RegExp(`\\b${escapeRegExp(anaphor[1]!)}\\b`, 'i'));
  const before = verbAt > 0 ? thingsNamed({ ...facts, sentence: { ...facts.sentence, text: facts.sentence.text.slice(0, verbAt) } }, words, plural).filter(matchesNumber).at(-1) : undefined;
  const previous = call[at - 1];
  const sameTurnThing = before ?? (previous && previous.sentence.segment.speakerId === facts.sentence.segment.speakerId && !isAboutThePronoun(previous, words)
    ? thingHandled(previous, words, plural, matchesNumber) : undefined);
  if (demonstrative) return sameTurnThing ? named(sameTurnThing) : withLaterStepAntecedent(title, facts, call, words);
  // "Bring the inhaler along on Thursday" – "I'll bring it with me": the thing of the request the
  // promise answers with the same verb.
  const asked = thingAskedWithTheVerb(anaphor[1]!, facts, call, words);
  if (asked) return named(asked);
  // "Pay it on the portal" after "there's a fifteen dollar fee for the bus": the latest thing the
  // verb is typically done to, said once or more, number aside ("pay them" may be the fees or the bill).
  // "Have it made up": the participle says what is done to the thing, so its things are the typical ones.
  const participle = /^\s+(\p{L}+)/u.exec(title.slice(anaphor[0].length))?.[1]?.toLowerCase() ?? '';
  // "filled" → "fill", "signed" → "sign", "completed" → "complete".
  const participleVerbs = words.resultParticiple.test(participle) ? [participle, participle.replace(/ed$/, ''), participle.replace(/d$/, '')] : [];
  const typical = words.objectAffinities[anaphor[1]!.toLowerCase()] ?? participleVerbs.map((verb) => words.objectAffinities[verb]).find(Boolean);
  if (typical) {
    for (const earlier of call.slice(Math.max(0, at - TYPICAL_OBJECT_LOOK_BACK), at).reverse()) {
      const phrase = typicalThingsNamed(earlier, words, typical, plural).at(-1);
      if (phrase) return named(phrase);
    }
  }
  if (sameTurnThing) return named(sameTurnThing);
  // "I'll text you a link to our intake form." – "I'll try to get it filled in by Thursday": at the
  // start of an answer, "it" is what the other party's turn named last (not for a verb whose
  // typical things were looked for and not said: "sign it" is no bucket).
  const best = talkedAboutThing(facts, call, words, plural) ?? (typical ? undefined : lastThingOfTheTurnAnswered(facts, call, words, matchesNumber));
  return best ? named(best) : title;
}

/**
 * "I'll pay the first one on the twenty-second" after "three payments of a hundred and thirty-seven
 * pounds sixty" → "Pay the first payment on the twenty-second"; "Could you drop one into our
 * office?" after "We'd need a spare key" → "Drop a spare key into our office": "one" takes the
 * noun of the thing the few sentences before name that the call says most (the latest on a tie),
 * either number (its singular is meant; a plural said without a determiner only when the call
 * says it again); said with a modifier ("the first one", "a new one"),
 * the noun alone, else the whole phrase. As said when the sentences name no thing.
 */
function withOneNamed(title: string, one: RegExpExecArray, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const counts = wordCountsOf(call);
  const at = call.indexOf(facts);
  let best: { phrase: string[]; count: number } | undefined;
  for (const earlier of call.slice(Math.max(0, at - ANTECEDENT_LOOK_BACK), at)) {
    const withDeterminer = thingsNamed(earlier, words).map((phrase) => phrase.join(' '));
    for (const phrase of thingsNamed(earlier, words, true)) {
      const count = counts.get(keyOf(phrase.at(-1)!)) ?? 0;
      // A plural said bare may be a verb ("Friday suits me"): only one the call says again.
      if (!withDeterminer.includes(phrase.join(' ')) && count < 2) continue;
      if (!best || count >= best.count) best = { phrase, count };
    }
  }
  if (!best) return title;
  const { verb, determiner, modifier } = one.groups!;
  const thing = [...best.phrase.slice(0, -1), keyOf(best.phrase.at(-1)!)];
  const named = modifier ? `${determiner} ${modifier} ${thing.at(-1)}` : `${determiner ?? 'a'} ${thing.join(' ')}`;
  return `${verb} ${named}${title.slice(one[0].length)}`;
}

/**
 * The thing named right after `verb` in the turn `facts` answers (see `turnAnswered`), when that
 * turn says the verb with a noun phrase: what was asked for, promised back with a pronoun. Undefined otherwise.
 */
function thingAskedWithTheVerb(verb: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string[] | undefined {
  const saysVerb = new RegExp(`\\b${escapeRegExp(verb)}\\b`, 'i');
  for (const other of turnAnswered(facts, call, words.acceptance)) {
    const at = other.sentence.text.search(saysVerb);
    if (at < 0) continue;
    const after = other.sentence.text.slice(at + verb.length);
    // Only a thing said right after the verb ("bring the inhaler"), not "leave it in the glovebox".
    const determiner = /^\s+(\S+)/.exec(after)?.[1]?.toLowerCase() ?? '';
    if (!words.antecedentDeterminers.includes(determiner)) continue;
    const phrase = thingsNamed({ ...other, sentence: { ...other.sentence, text: after } }, words)[0];
    if (phrase) return phrase;
  }
  return undefined;
}

/**
 * The last thing (of the number asked for) the other party's turn just before named, when `facts`
 * opens its own turn, or when what its own turn said before it names no thing of that number
 * ("Can you email me the signed deed?" – "I'm afraid not, originals have to go by post. I'll post
 * it to you tomorrow": the deed); undefined otherwise.
 */
function lastThingOfTheTurnAnswered(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, matchesNumber: (phrase: string[]) => boolean): string[] | undefined {
  const lastOf = (turn: readonly SentenceFacts[]) => turn.flatMap((other) => thingsNamed(other, words)).filter(matchesNumber).at(-1);
  const answered = turnAnswered(facts, call, words.acceptance);
  if (answered.length > 0) return lastOf(answered);
  const ownTurn = turnAround(facts, call);
  const saidBefore = ownTurn.slice(0, ownTurn.indexOf(facts));
  if (lastOf(saidBefore)) return undefined;
  const before = call[call.indexOf(ownTurn[0]!) - 1];
  return before ? lastOf(turnAround(before, call)) : undefined;
}

/**
 * "Yes, sorry, it's on the fridge. I'll put it in her book bag": a sentence whose clause says
 * something of "it" ("it's", "it was") names no new thing for the next "it" to stand for.
 */
function isAboutThePronoun(facts: SentenceFacts, words: ActionWords): boolean {
  return pronounSaidOf(words).test(facts.sentence.text);
}

/** "it's", "it was" opening a clause (see {@link isAboutThePronoun}), compiled once per lexicon. */
const pronounSaidOf = oncePer((words: ActionWords) =>
  new RegExp(`(?:^|,\\s*)(?:${anyOfWords(words.thingPronouns.singular)})(?:['’]s|\\s+(?:${anyOfWords(words.auxiliaries)}))\\b`, 'i'));

/**
 * The last thing (of the number asked for) a sentence names, unless that one only says what an
 * earlier one is for ("her consent slip back for the museum trip": the slip).
 */
function thingHandled(facts: SentenceFacts, words: ActionWords, plural: boolean, matchesNumber: (phrase: string[]) => boolean): string[] | undefined {
  const named = thingsNamed(facts, words, plural).filter(matchesNumber);
  const last = named.at(-1);
  const purpose = last && new RegExp(`\\bfor\\s+\\S+\\s+${last.map(escapeRegExp).join('\\s+')}\\b`, 'i').test(facts.sentence.text);
  return purpose && named.length > 1 ? named.at(-2) : last;
}

/** Sentences looked back over for the thing an action waits for ("… as soon as they arrive"). */
const AWAITED_THING_LOOK_BACK = 3;

/**
 * "I'll give you a call as soon as they arrive" after "your prescription sunglasses are still on
 * back order" → "Call you as soon as the prescription sunglasses arrive": the thing the action
 * waits for, said as a pronoun, is the first thing of its number named in the nearest of the few
 * sentences before (the subject, mostly, of what was said about it). As said when none is.
 */
function withAwaitedThing(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const awaited = words.awaitedThing.exec(title);
  if (!awaited) return title;
  const pronoun = awaited.groups!.pronoun!;
  const plural = pronoun.toLowerCase() === 'they';
  const matchesNumber = ofNumber(plural);
  // "I'll fax a refill request over … I'll text you as soon as it's ready": the thing the call
  // keeps talking about (the prescription) first, else the first thing named nearest before.
  const phrase = talkedAboutThing(facts, call, words, plural) ?? awaitedThingSaid(facts, call, words, plural)?.phrase;
  if (phrase) {
    const start = awaited.index + awaited[0].length - pronoun.length;
    // "when it's ready" → "when the prescription's ready"; "when they're in" → "when the glasses are in".
    const rest = title.slice(start + pronoun.length).replace(/^['’]re\b/, ' are');
    return `${title.slice(0, start)}the ${phrase.join(' ')}${rest}`;
  }
  return title;
}

/**
 * "Can you update my direct debit details?" – "I'm not able to do that from here, …" – "Right,
 * I'll do that tonight then": "do that" (it, this) is the deed last asked or promised in the few
 * sentences before, when the speaker said it; the clause as said when the other party did (a
 * request taken on) or nobody did.
 */
function withDeedNamed(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const doThat = words.deedAnaphor.exec(cue.clause);
  if (!doThat) return cue.clause;
  const at = call.indexOf(facts);
  for (const earlier of call.slice(Math.max(0, at - ANTECEDENT_LOOK_BACK), at).reverse()) {
    const deed = findActionCues(earlier.sentence, words).find((other) => !words.deedAnaphor.test(other.clause));
    if (!deed) continue;
    // "Could you clear out the cabinet?" – "Yep, I'll do that Tuesday night": the other party's request, taken on (merged with it).
    if (earlier.sentence.segment.speakerId !== facts.sentence.segment.speakerId) return cue.clause;
    const end = words.clauseEnd.exec(deed.clause);
    const said = (end && end.index > 0 ? deed.clause.slice(0, end.index) : deed.clause).replace(/[.!?]+$/, '');
    return `${said}${cue.clause.slice(doThat[0].length)}`;
  }
  return cue.clause;
}

/** Sentences looked back over for the day of a visit an action is tied to ("before they come"). */
const VISIT_DAY_LOOK_BACK = 8;

/**
 * "Monday the fourteenth, noon to four" … "I'll make sure the hallway's cleared before they
 * come": an action tied to the visit or job talked about ("before they come", "before we touch
 * it", "on the day") is due on the last day said in the few sentences before (from the call's
 * day on, no deadline); null when the sentence says no such tie or no day was said.
 */
function dayOfTheVisitTalkedAbout(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, callDate: string): string | null {
  if (!words.tiedToTheVisit.test(facts.sentence.text)) return null;
  const at = call.indexOf(facts);
  return call.slice(Math.max(0, at - VISIT_DAY_LOOK_BACK), at).flatMap((earlier) => earlier.dates)
    .findLast((mention) => isDayToCome(mention, callDate))?.date ?? null;
}

/**
 * "The new stock arrives on the 12th." – "Could you email me as soon as it's in?": an action that
 * waits for a thing said as a pronoun is due the day the nearest of the few sentences before says
 * that thing comes (a day from the call's on, no deadline); null when none says one.
 */
function dayTheAwaitedThingComes(clause: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, callDate: string): string | null {
  const awaited = words.awaitedThing.exec(clause);
  if (!awaited) return null;
  const said = awaitedThingSaid(facts, call, words, awaited.groups!.pronoun!.toLowerCase() === 'they');
  return said?.sentence.dates.find((mention) => isDayToCome(mention, callDate))?.date ?? null;
}

/**
 * The nearest of the {@link AWAITED_THING_LOOK_BACK} sentences before `facts` that names a thing
 * of the number asked for, with the first such thing it names: what an awaited "it" ("they") is.
 */
function awaitedThingSaid(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, plural: boolean): { sentence: SentenceFacts; phrase: string[] } | undefined {
  const at = call.indexOf(facts);
  for (const earlier of call.slice(Math.max(0, at - AWAITED_THING_LOOK_BACK), at).reverse()) {
    const phrase = thingsNamed(earlier, words, plural).find(ofNumber(plural));
    if (phrase) return { sentence: earlier, phrase };
  }
  return undefined;
}

/**
 * "Pop in after three and pick it all up together" → "… and pick up the prescription together": a
 * later step whose verb is typically done to a thing ("pick", "collect", "sign") and whose object
 * is "it" takes the latest such thing said before, a particle moved before it; as said otherwise.
 */
function withLaterStepAntecedent(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  for (const step of title.matchAll(words.laterStepAnaphor)) {
    const typical = words.objectAffinities[step.groups!.verb!.toLowerCase()];
    if (!typical || step.index === 0) continue;
    const at = call.indexOf(facts);
    for (const earlier of call.slice(Math.max(0, at - TYPICAL_OBJECT_LOOK_BACK), at + 1).reverse()) {
      const phrase = typicalThingsNamed(earlier, words, typical).at(-1);
      if (!phrase) continue;
      // "Sign the form and send it back": the title already says what "it" is.
      if (new RegExp(`\\b${escapeRegExp(phrase.at(-1)!)}\\b`, 'i').test(title.slice(0, step.index))) return title;
      const particle = step.groups!.particle ? `${step.groups!.particle} ` : '';
      return `${title.slice(0, step.index)}${step.groups!.verb} ${particle}the ${phrase.join(' ')}${title.slice(step.index + step[0].length)}`;
    }
  }
  return title;
}

/**
 * The thing the call keeps talking about in the few sentences before `facts`: among their noun
 * phrases of the number asked for, the one whose noun the call says most (twice at least), the
 * latest on a tie.
 */
function talkedAboutThing(facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords, plural: boolean): string[] | undefined {
  const counts = wordCountsOf(call);
  const at = call.indexOf(facts);
  const matchesNumber = ofNumber(plural);
  let best: { phrase: string[]; count: number } | undefined;
  for (const earlier of call.slice(Math.max(0, at - ANTECEDENT_LOOK_BACK), at)) {
    for (const phrase of thingsNamed(earlier, words).filter(matchesNumber)) {
      const count = counts.get(keyOf(phrase.at(-1)!)) ?? 0;
      if (count >= 2 && (!best || count >= best.count)) best = { phrase, count };
    }
  }
  return best?.phrase;
}

/**
 * The action's sentence, and for a payment that says no sum ("I'll pay it by the fifteenth") the
 * latest sum of money said in the few sentences before, as said ("… by the fifteenth, then.
 * (eighty-four euro twenty)"), so the item keeps how much is to be paid. Only the sum: the rest
 * of its sentence may be about something else.
 */
function withAmountSaidBefore(titleAsSaid: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const sentence = facts.sentence.text;
  const moneyIn = (other: SentenceFacts) => other.amounts.filter((amount) => amount.kind === 'money').at(-1);
  if (!words.paymentAction.test(titleAsSaid) || moneyIn(facts)) return sentence;
  const at = call.indexOf(facts);
  const said = call.slice(Math.max(0, at - ANTECEDENT_LOOK_BACK), at).reverse().map(moneyIn).find(Boolean);
  return said ? `${sentence} (${said.text})` : sentence;
}

/**
 * The noun phrases of a sentence that end in (or run on past) one of the `typical` nouns, cut after
 * it ("your prescription is ready" → `prescription`); not where the noun only qualifies the next
 * one ("a payment link" is a link, not a payment to make).
 */
function typicalThingsNamed(facts: SentenceFacts, words: ActionWords, typical: readonly string[], plural = false): string[][] {
  const isTypical = (word: string) => typical.includes(word) || typical.includes(keyOf(word));
  return thingsNamed(facts, words, plural, typical)
    .filter((phrase) => {
      const next = phrase[phrase.findIndex(isTypical) + 1];
      return next === undefined || !isContentWord(next) || words.notThings.has(next);
    })
    .map((phrase) => phrase.slice(0, phrase.findIndex(isTypical) + 1))
    .filter((phrase) => phrase.length > 0)
    .map((phrase) => [...phrase, ...whatItIsFor(phrase, facts.sentence.text)]);
}

/**
 * "the money for the Science Museum trip": what a thing said is for, as said after it (a
 * determiner and up to three words), so "pay it" says which money; empty when nothing follows.
 */
function whatItIsFor(phrase: readonly string[], sentence: string): string[] {
  const said = new RegExp(`\\b${phrase.map(escapeRegExp).join('\\s+')}\\s+(for\\s+(?:the|a|an|his|her|their|your|my|our)(?:\\s+[\\p{L}'’-]+){1,3}?)(?=[.,;:!?]|\\s+(?:yet|now|too|today|tomorrow|by|on|and|but|so|please)\\b|$)`, 'iu').exec(sentence);
  return said ? said[1]!.split(/\s+/) : [];
}

/** How often the call says each word (by its key: "photos" counts as "photo"), counted once per call. */
const wordCounts = new WeakMap<readonly SentenceFacts[], Map<string, number>>();
function wordCountsOf(call: readonly SentenceFacts[]): Map<string, number> {
  let counts = wordCounts.get(call);
  if (!counts) {
    counts = new Map();
    for (const facts of call) for (const word of facts.sentence.text.toLowerCase().match(/[a-z]+/g) ?? []) counts.set(keyOf(word), (counts.get(keyOf(word)) ?? 0) + 1);
    wordCounts.set(call, counts);
  }
  return counts;
}

/** "let you know about Thursday", "cancel Thursday's delivery": the day talked about, not the day the action is done by (a time said stays one: "about three"). */
function isTopic(mention: DateMention, sentence: string, words: ActionWords): boolean {
  return mention.time === null && (words.topicPreposition.test(sentence.slice(0, mention.index))
    || words.dayOfAThing.test(sentence.slice(mention.index + mention.text.length)));
}

/**
 * The first dated mention in the cue's part (the latest when the part joins steps, each with its
 * day); else in the sentence when the sentence holds this one action only, leaving out a day said
 * in a condition before the cue's part.
 */
function dateOf(cue: ActionCue, dates: readonly DateMention[], cuesInSentence: number, sentence: string, words: ActionWords): DateMention | null {
  // "I'll post you the form, it should be with you early next week": when it arrives is not when it is done.
  // "And if he's in hospital that day, I'll call you": that day is the condition's, not the call's.
  const inCondition = (mention: DateMention) => !mention.isDeadline && mention.index < cue.part.index && words.conditionOpener.test(sentence);
  const dated = dates.filter((mention) => mention.date !== null && !words.arrivalEstimate.test(sentence.slice(0, mention.index)) && !inCondition(mention)
    && !isTopic(mention, sentence, words));
  const inPart = dated.filter((mention) => mention.index >= cue.part.index && mention.index < cue.part.index + cue.part.text.length);
  // "I'll sign it tonight and send it in with him tomorrow": steps of one action, done when the last one is.
  const [first, ...later] = inPart;
  if (first && later.length > 0 && words.stepJoiner.test(sentence.slice(first.index + first.text.length, later.at(-1)!.index))) {
    return inPart.reduce((latest, mention) => (mention.date! > latest.date! ? mention : latest));
  }
  return first ?? (cuesInSentence === 1 ? dated[0] ?? null : null);
}
