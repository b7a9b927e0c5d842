import type { AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import type { ActionWords } from './ActionWords.js';
import type { ActionKind } from './findActionCues.js';

/** An action item with how it was said: commitments are listed from it too. */
export interface FoundAction {
  item: AnalysisActionItem;
  kind: ActionKind;
  /** The sentence's speaker. */
  speakerId: string;
  /** The sentence as said (with a sum of money said before it): the item's description before its context is added. */
  said: string;
}

/** A found action with where it was said and what tells it apart from others, for merging. */
export interface PlacedAction extends FoundAction {
  segmentIndex: number;
  /** Owner, verb and first object word (see `actionKey`): the same action said twice has the same key. */
  key: string;
  verb: string;
  /** Words of the title after its verb that say what it acts on or whom it reaches (no pronoun, stop word or time word). */
  objectWords: string[];
  /** A generic verb whose object opens with a word pointing back ("send *it* to …", "put *that* in writing"). */
  anaphoric: boolean;
  /** The verb is a generic one ("get", "have"): a later action on the same thing with a verb of its own says how it is done. */
  generic: boolean;
  /** The object opens with a word pointing back ("text *it* to this number"): another title of the same action may say what it is. */
  pointsBack: boolean;
  /**
   * Said in a turn that opens by accepting what the other party just asked ("Yes, I can do that.
   * I'll come in for the peak flow on Monday"): the segment of the turn answered, else null.
   */
  acceptsTurnAt: number | null;
  /** Whether its verb puts something in a diary ("move you", "book you in": see `ActionWords.slotVerbs`), dated or not. */
  slots: boolean;
  /** Whether it finds something out from someone ("ask my manager", "check with the warehouse": `ActionWords.consultStep`). */
  consults: boolean;
  /** Whether it reports back to the other party ("let you know", "get back to you": `ActionWords.reportBack`). */
  reportsBack: boolean;
}

/**
 * A pronoun points at an action said about one exchange away: "I'll email you the photos" …
 * "Send them to the repairs address" is one action when within this many segments.
 */
export const ANAPHORA_WINDOW_SEGMENTS = 2;
/** A request and the promise answering it ("Could you send me a confirmation?" … "I'll email the confirmation") are this close at most. */
export const ANSWER_WINDOW_SEGMENTS = 3;
/** A report back joins the step that finds it out when said within this many segments after it (the same turn, mostly). */
const CONSULT_WINDOW_SEGMENTS = 1;
/**
 * "I need to get Colm, our gas engineer, in" … "I'll book Colm in for Friday between ten and two":
 * an action with a generic verb is the later one on the same thing within this many segments.
 */
export const SPELLED_OUT_WINDOW_SEGMENTS = 6;

const PRIORITY_RANK = { low: 0, medium: 1, high: 2 } as const;

/** The words after a title's verb that say what it acts on or whom it reaches ("Call Sheila": `sheila`). */
export function objectWordsOf(title: string, words: ActionWords): { verb: string; objectWords: string[]; anaphoric: boolean; generic: boolean; pointsBack: boolean } {
  const [verb = '', ...rest] = title.toLowerCase().replace(/[^\p{L}\p{N}\s'-]/gu, ' ').split(/\s+/).filter(Boolean);
  const empty = new Set([...words.emptyObjectWords, ...words.objectStopWords]);
  const objectWords = rest.map((word) => word.replace(/'s$/, '')).filter((word) => !empty.has(word));
  const generic = words.genericVerbs.includes(verb);
  const pointsBack = words.anaphors.includes(rest[0] ?? '');
  // "Have it made up", "get it fixed": the participle says what is done (an action of its own); "get it sorted" says nothing.
  const doneToIt = words.resultParticiple.test(rest[1] ?? '') && !empty.has(rest[1] ?? '');
  return { verb, objectWords, anaphoric: generic && pointsBack && !doneToIt, generic, pointsBack };
}

/**
 * The actions of a call with the ones that are one merged, in call order:
 * 1. the same owner, verb and object said twice ("send the contract" … "send the contract");
 * 2. a request answered by its owner's promise within {@link ANSWER_WINDOW_SEGMENTS}, with the
 *    same verb or object, or in the reply that opens by accepting it ("could you pop in and see
 *    the nurse?" … "Yes, I can do that. I'll come in on Monday"), or one of them saying nothing of its object ("can you fix it?" … "I'll
 *    replace the router"; "could you check the boiler pressure?" … "leave it with me, I'll sort
 *    it today"), and no other channel ("Could you call me back?" … "I'll call you back
 *    before five"; "send me a confirmation" … "I'll email the confirmation");
 * 3. an action with a generic verb ("get Colm in") joins a later action of its owner on the same
 *    thing with a verb of its own ("book Colm in for Friday") within {@link SPELLED_OUT_WINDOW_SEGMENTS},
 *    when neither says a different way of doing it (a booking "put you down for Friday" is no call);
 * 4. an action with a generic verb whose object points back ("send them to the repairs
 *    address", "put that in writing") joins the nearest action of its owner within
 *    {@link ANAPHORA_WINDOW_SEGMENTS}.
 * 5. a task followed by a meeting of its owner with the same verb ("we have to move your
 *    filling" … "I'll move you to Monday at three"), or any booking after a task that moves or
 *    books without a time ("so we have to move you" … "I'll book you in for ten past three"), within {@link SPELLED_OUT_WINDOW_SEGMENTS}
 *    joins it: the meeting is that action, put in the diary (titled by the saying naming more); so does
 *    a joint plan with no owner ("let's get together and walk through the rollout") followed within
 *    {@link ANSWER_WINDOW_SEGMENTS} by a meeting either party books on the same day or an unsaid one.
 * 6. a joint plan with a day and no owner ("Let's pick this up again tomorrow") followed within
 *    {@link ANSWER_WINDOW_SEGMENTS} by a promise to call or meet, undated or on that day ("Same
 *    time. I'll ring you"), is that call, on the plan's day;
 * 7. "I'll have to ask my manager. I'll let you know by Friday": a report back promised with a day
 *    by the one who promised an undated step that finds something out within {@link CONSULT_WINDOW_SEGMENTS}
 *    before it, is one action with that step ("Ask my manager and let Diane know", due Friday).
 * Then an action whose title says nothing after its verb ("Get it sorted", "Move it") is dropped
 * unless a due date makes it concrete ("sign it by Monday"): no reader could act on it.
 */
export function mergeActions(placed: readonly PlacedAction[]): FoundAction[] {
  const byKey = new Map<string, PlacedAction>();
  for (const action of placed) {
    const earlier = byKey.get(action.key);
    if (earlier) mergeInto(earlier, action);
    else byKey.set(action.key, { ...action });
  }
  const actions = [...byKey.values()];
  const merged = new Set<PlacedAction>();
  for (const request of actions) {
    if (request.kind !== 'request' || merged.has(request)) continue;
    const answer = actions.find((candidate) => candidate.kind === 'commitment' && !merged.has(candidate) && sameOwner(candidate, request)
      && candidate.segmentIndex > request.segmentIndex && candidate.segmentIndex - request.segmentIndex <= ANSWER_WINDOW_SEGMENTS
      && (candidate.verb === request.verb || sharesObject(candidate, request) || saysNothing(request) || saysNothing(candidate) || answersRightAway(candidate, request))
      && sameChannel(candidate, request));
    if (!answer) continue;
    mergeInto(request, answer);
    // "Just text it to this number" … "I'll text you the address": the answer says what "it" is.
    // "Could you pop in and see the nurse?" … "Yes. I'll come in for the peak flow": the promise says what will be done.
    const onlyAccepted = answer.verb !== request.verb && !sharesObject(answer, request) && !saysNothing(answer) && !answer.pointsBack
      && answersRightAway(answer, request);
    if (saysNothing(request) || onlyAccepted || (request.pointsBack && !answer.pointsBack && !saysNothing(answer))) request.item.title = answer.item.title;
    // "You need to pay the deposit by the 10th" – "I'll pay it tomorrow": the owner's own day is when it is done.
    if (answer.item.dueDate !== null) request.item.dueDate = answer.item.dueDate;
    // The owner promised what was asked: it is their commitment now.
    request.kind = 'commitment';
    request.speakerId = answer.speakerId;
    merged.add(answer);
  }
  for (const action of actions) {
    if (!action.generic || action.anaphoric || merged.has(action) || saysNothing(action)) continue;
    // "I'll put you down for Friday at 4:30" … "I'll give you a call": a booking already put in the
    // diary is no generic saying of the later call, though both reach the same person.
    const spelledOut = actions.find((candidate) => !candidate.generic && !merged.has(candidate) && sameOwner(candidate, action) && sharesObject(candidate, action)
      && sameChannel(candidate, action) && candidate.segmentIndex > action.segmentIndex && candidate.segmentIndex - action.segmentIndex <= SPELLED_OUT_WINDOW_SEGMENTS);
    if (!spelledOut) continue;
    // The later action says how and when: its due date and title stand.
    mergeInto(spelledOut, action);
    merged.add(action);
  }
  for (const action of actions) {
    if (action.item.intent !== 'task' || merged.has(action)) continue;
    // "We have to move your filling" … "I'll move you to a week on Monday at quarter past three":
    // the same move of one owner, put in the diary later: the booking's day and title stand.
    // "Let's get together and walk through the rollout" … "I'll send you an invite for Tuesday at 2": a joint plan one party then books.
    const jointPlan = action.kind === 'joint' && action.item.ownerSpeakerId === null;
    const booked = actions.find((candidate) => candidate.item.intent === 'meeting' && !merged.has(candidate)
      && (jointPlan ? candidate.segmentIndex - action.segmentIndex <= ANSWER_WINDOW_SEGMENTS && !otherDays(candidate, action)
        : sameOwner(candidate, action) && (candidate.verb === action.verb || (action.slots && candidate.slots)))
      && candidate.segmentIndex > action.segmentIndex && candidate.segmentIndex - action.segmentIndex <= SPELLED_OUT_WINDOW_SEGMENTS);
    if (!booked) continue;
    mergeInto(booked, action);
    // The first saying names what is moved ("Move Niamh's filling"), the booking only whom: a
    // thing (a word said in lower case) the booking's title lacks.
    const thingsOf = (title: string) => title.split(/\s+/).slice(1).filter((word) => /^\p{Ll}/u.test(word));
    if (action.objectWords.some((word) => thingsOf(action.item.title).includes(word) && !booked.objectWords.includes(word))) booked.item.title = action.item.title;
    merged.add(action);
  }
  for (const plan of actions) {
    if (plan.kind !== 'joint' || plan.item.ownerSpeakerId !== null || plan.item.dueDate === null || merged.has(plan)) continue;
    // "Let's pick this up again tomorrow." – "Same time?" – "Same time. I'll ring you.": the call is the plan, on its day.
    const call = actions.find((candidate) => candidate.kind === 'commitment' && MEETING_OR_CALL.has(candidate.item.intent) && !merged.has(candidate)
      && (candidate.item.dueDate === null || candidate.item.dueDate === plan.item.dueDate)
      && candidate.segmentIndex > plan.segmentIndex && candidate.segmentIndex - plan.segmentIndex <= ANSWER_WINDOW_SEGMENTS);
    if (!call) continue;
    mergeInto(call, plan);
    merged.add(plan);
  }
  for (const report of actions) {
    if (!report.reportsBack || report.kind !== 'commitment' || report.item.dueDate === null || merged.has(report)) continue;
    const step = actions.find((candidate) => candidate.consults && candidate.kind === 'commitment' && candidate.item.dueDate === null && !merged.has(candidate) && sameOwner(candidate, report)
      && report.segmentIndex >= candidate.segmentIndex && report.segmentIndex - candidate.segmentIndex <= CONSULT_WINDOW_SEGMENTS && candidate !== report);
    if (!step) continue;
    step.item.title = `${step.item.title} and ${report.item.title.charAt(0).toLowerCase()}${report.item.title.slice(1)}`;
    mergeInto(step, report);
    merged.add(report);
  }
  const remaining = actions.filter((action) => !merged.has(action));
  for (const action of remaining) {
    // Nobody's actions are no one person's: "our team will bring it out" is not "the driver will call you".
    if (!action.anaphoric || action.item.ownerSpeakerId === null) continue;
    // "Chase it up tomorrow" … "have it made up by Friday": another day is another step, not the same action said again.
    const otherDay = (candidate: PlacedAction) => candidate.item.dueDate !== null && action.item.dueDate !== null && candidate.item.dueDate !== action.item.dueDate;
    const neighbour = remaining
      // "I'll email them over today. Where should they go?" – "Send them to claims@…": an earlier neighbour said with a
      // pronoun whose thing was found ("Email the photos over") says what it acts on.
      .filter((candidate) => candidate !== action && !merged.has(candidate) && !candidate.anaphoric
        && (!saysNothing(candidate) || (!candidate.pointsBack && candidate.segmentIndex < action.segmentIndex))
        && sameOwner(candidate, action) && !otherDay(candidate)
        && Math.abs(candidate.segmentIndex - action.segmentIndex) <= ANAPHORA_WINDOW_SEGMENTS)
      .sort((first, second) => Math.abs(first.segmentIndex - action.segmentIndex) - Math.abs(second.segmentIndex - action.segmentIndex))[0];
    if (!neighbour) continue;
    mergeInto(neighbour, action);
    merged.add(action);
  }
  return remaining
    .filter((action) => !merged.has(action) && (!saysNothing(action) || action.item.dueDate !== null))
    .map(({ item, kind, speakerId, said }) => ({ item, kind, speakerId, said }));
}

/** Intents of an action that sets a time to talk: an agreed time is its `proposedAt`. */
export const MEETING_OR_CALL: ReadonlySet<string> = new Set(['meeting', 'call']);
const saysNothing = (action: PlacedAction) => action.objectWords.length === 0;
/** Both dated, on different days. */
const otherDays = (first: PlacedAction, second: PlacedAction) =>
  first.item.dueDate !== null && second.item.dueDate !== null && first.item.dueDate !== second.item.dueDate;
/** "Could you pop in and see the nurse?" – "Yes, I can do that. I'll come in on Monday": the promise in the accepting reply is the request's. */
const answersRightAway = (answer: PlacedAction, request: PlacedAction) => answer.acceptsTurnAt !== null && answer.acceptsTurnAt === request.segmentIndex;
const sameOwner = (first: PlacedAction, second: PlacedAction) => first.item.ownerSpeakerId === second.item.ownerSpeakerId;
/** Neither says a different way of doing it ("ask Nationwide … email me" is not "ring Nationwide"): a `task` says none. */
const sameChannel = (first: PlacedAction, second: PlacedAction) =>
  first.item.intent === second.item.intent || first.item.intent === 'task' || second.item.intent === 'task';
const sharesObject = (first: PlacedAction, second: PlacedAction) => first.objectWords[0] !== undefined && first.objectWords[0] === second.objectWords[0];

/**
 * `duplicate` merged into `kept`: cited segments joined, the first due date kept, the higher
 * priority kept, metadata fields filled from the repetition (or, when the first was only a
 * `task`, the repetition's more specific intent taken).
 */
function mergeInto(kept: PlacedAction, duplicate: PlacedAction): void {
  const [item, other] = [kept.item, duplicate.item];
  item.sourceSegmentIds = [...new Set([...item.sourceSegmentIds, ...other.sourceSegmentIds])];
  item.dueDate ??= other.dueDate;
  if (PRIORITY_RANK[other.priority] > PRIORITY_RANK[item.priority]) item.priority = other.priority;
  if (item.intent === other.intent) item.intentMetadata = { ...other.intentMetadata, ...item.intentMetadata };
  else if (item.intent === 'task') {
    // The repetition said how ("I'll send it" … "I'll email it"): the more specific intent wins,
    // and so does the sentence that says it (with its context: "we need to move you" … "I'll move you to Monday at 12:30").
    item.intent = other.intent;
    item.intentMetadata = other.intentMetadata;
    item.description = other.description;
  }
}
