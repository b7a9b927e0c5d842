import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import type { Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import { clip } from '../../text/clip.js';
import { anyOfWords } from '../../text/regexWords.js';
import type { ActionWords } from './ActionWords.js';
import { ownerFieldsOf, type CallParties } from './callParties.js';
import { isDayToCome, type DateMention } from './findDateMentions.js';
import { intentMetadataFor } from './intentMetadataFor.js';
import { MEETING_OR_CALL, type FoundAction } from './mergeActions.js';
import { turnsOf } from './nearbyEvidence.js';
import type { SentenceFacts } from './sentenceFacts.js';

/** A run of one speaker's sentences. */
interface Turn {
  speakerId: string;
  sentences: SentenceFacts[];
}

/** A day and time one party put forward in a turn, and the sentence it was said in. */
interface Slot {
  turn: number;
  when: DateMention;
  facts: SentenceFacts;
}

/** Sentences of a reply read for its answer to a slot: an acknowledgement and the sentence after it. */
const REPLY_SENTENCES = 2;
const DESCRIPTION_CHARACTERS = 1000;

/**
 * The call's actions with the days and times agreed across turns ("Can you do Thursday at
 * three?" – "Thursday's no good. How about Friday at eleven?" – "Friday at eleven works."; "Could
 * you move my appointment to Friday?" – "Yes, Friday at two is free. I've moved it for you."): a
 * day and a time put forward by one party (see {@link slotsOffered}) and accepted by the other in
 * the next turn (opening with a yes, or saying the same day and time back without turning it
 * down), or booked in the same turn ("I've moved it").
 * - An exchange whose turns already gave an action a date is that action's: nothing changes.
 * - Actions of the exchange with no date, to meet or to call, or with no owner ("Could we go
 *   through the draft on the phone?" … "Lovely, I'll ring you then"), are one action on the
 *   agreed day and time (the first, with the others' owner and sources; a meeting or a call gets the time as `proposedAt`).
 * - Else, when the slot was offered in so many words ("how about", "I can do", "is free"; see
 *   `ActionWords.slotOffer`), it is a `meeting` at that time, titled by the appointment the call
 *   talks about.
 * Owner where the call gives none: the party who first put a slot forward in the exchange (the
 * one whose diary it is).
 */
export function withAgreedSlots(
  found: readonly FoundAction[], call: readonly SentenceFacts[], parties: CallParties, metadata: CallMetadata, words: ActionWords, callDate: string,
): FoundAction[] {
  const turns = turnsIn(call);
  const turnOfSegment = new Map(turns.flatMap((turn, index) => turn.sentences.map((facts) => [facts.sentence.segment.id, index] as const)));
  const slots = slotsOffered(turns, words, callDate);
  let actions = found.map((action) => ({ ...action, item: { ...action.item } }));
  for (const offered of slots) {
    const reply = turns[offered.turn + 1];
    const bookedInTurn = turns[offered.turn]!.sentences.some((facts) => facts.sentence.segmentIndex >= offered.facts.sentence.segmentIndex && words.slotBookedOnTheLine.test(facts.sentence.text));
    const accepting = reply ? acceptingSentence(reply, offered, words) : null;
    if (!bookedInTurn && !accepting) continue;
    const slot = reply && accepting ? withTimeOfTheReply(offered, reply) : offered;
    const inExchange = actions.filter((action) => action.item.sourceSegmentIds.some((id) => {
      const turn = turnOfSegment.get(id);
      return turn !== undefined && turn >= slot.turn - 1 && turn <= slot.turn + 2;
    }));
    if (inExchange.some((action) => action.item.dueDate !== null)) continue;
    const owner = parties.speaker(diaryHolder(slot, slots, turns));
    // A promise under a condition ("And if he ends up in hospital that day, I'll call you") is not the agreed time's.
    const undated = inExchange.filter((action) => (MEETING_OR_CALL.has(action.item.intent) || action.item.ownerSpeakerId === null) && !words.conditionAnywhere.test(action.said));
    if (undated.length > 0) {
      const [first, ...rest] = undated;
      actions = actions.filter((action) => !rest.includes(action));
      datedBySlot(first!, rest, slot, owner);
    } else if (owner && words.slotOffer.test(offered.facts.sentence.text) && !actions.some((action) => action.item.dueDate === slot.when.date)) {
      // A day without a time makes an appointment only where the call names one ("the site visit").
      const noun = appointmentNounBefore(slot, accepting, call, words);
      if (slot.when.dateTime !== null || noun !== null) actions.push(slotAction(slot, accepting, owner, noun ?? words.agreedSlotNoun, { call, parties, metadata, words }));
    }
  }
  return actions;
}


/** `first` set on the slot's day (and time, for a meeting or a call), with `rest` folded into it: their sources, and an owner when it has none. */
function datedBySlot(first: FoundAction, rest: readonly FoundAction[], slot: Slot, diaryHolder: Speaker | null): void {
  const { item } = first;
  for (const other of rest) {
    item.sourceSegmentIds = [...new Set([...item.sourceSegmentIds, ...other.item.sourceSegmentIds])];
    if (item.ownerSpeakerId === null && other.item.ownerSpeakerId !== null) Object.assign(item, ownerOf(other.item));
    if (item.intent === 'task') item.intent = other.item.intent;
  }
  if (item.ownerSpeakerId === null && diaryHolder) Object.assign(item, ownerFieldsOf(diaryHolder));
  item.dueDate = slot.when.date;
  // A call at an agreed time is scheduled like a meeting: the time is its `proposedAt`.
  if (MEETING_OR_CALL.has(item.intent) && slot.when.dateTime) item.intentMetadata = { ...item.intentMetadata, proposedAt: slot.when.dateTime };
}

const ownerOf = (item: FoundAction['item']) => ({
  ownerSpeakerId: item.ownerSpeakerId, ownerSpeakerLabel: item.ownerSpeakerLabel, ownerDisplayName: item.ownerDisplayName, ownerRole: item.ownerRole,
});

interface SlotContext {
  call: readonly SentenceFacts[];
  parties: CallParties;
  metadata: CallMetadata;
  words: ActionWords;
}

function turnsIn(call: readonly SentenceFacts[]): Turn[] {
  const turnOf = turnsOf(call);
  const turns: Turn[] = [];
  for (const facts of call) {
    const index = turnOf.get(facts.sentence.segmentIndex) ?? 0;
    (turns[index] ??= { speakerId: facts.sentence.segment.speakerId, sentences: [] }).sentences.push(facts);
  }
  return turns.filter(Boolean);
}

/**
 * The slots put forward: in each turn, the last day with a time said from the call's day on, in a
 * sentence that asks or that one of the parties says of themselves ("I've got Friday at ten past
 * two", "Can you do Thursday at three?", "Friday at eleven works for me") and that neither turns
 * it down ("Thursday at three's no good"), nor names a window (a delivery), nor talks of the past.
 */
function slotsOffered(turns: readonly Turn[], words: ActionWords, callDate: string): Slot[] {
  const slots: Slot[] = [];
  turns.forEach((turn, index) => {
    for (const facts of [...turn.sentences].reverse()) {
      const text = facts.sentence.text;
      if (words.slotTurnedDown.test(text) || words.refusal.test(text) || words.timeWindow.test(text)) continue;
      if (!facts.sentence.isQuestion && !words.slotSaidByAParty.test(text)) continue;
      // A day without a time is a slot only when offered in so many words ("How about Friday?").
      const when = facts.dates.findLast((mention) => mention.dateTime !== null && isDayToCome(mention, callDate))
        ?? (words.slotOffer.test(text) ? facts.dates.findLast((mention) => isDayToCome(mention, callDate) && !mention.isVague) : undefined);
      if (when) {
        slots.push({ turn: index, when, facts });
        return;
      }
    }
  });
  return slots;
}

/** The reply's sentence that accepts the slot: one opening with a yes, or the same day and time said back; null when none does. */
function acceptingSentence(reply: Turn, slot: Slot, words: ActionWords): SentenceFacts | null {
  for (const facts of reply.sentences.slice(0, REPLY_SENTENCES)) {
    const text = facts.sentence.text;
    if (words.slotTurnedDown.test(text) || words.refusal.test(text)) return null;
    // A day offered without a time is taken with one too ("How about Friday?" – "Friday at ten's fine").
    const saysItBack = facts.dates.some((mention) => mention.date === slot.when.date && (mention.time === slot.when.time || slot.when.time === null));
    if (saysItBack && !facts.sentence.isQuestion) return facts;
    if (words.acceptance.test(text)) return facts;
    // Another day and time said back is a counter-proposal, not an acceptance.
    if (facts.dates.some((mention) => mention.dateTime !== null)) return null;
  }
  return null;
}

/** The speaker of the first slot of the exchange that ends with `slot`: the one whose diary the slots are in. */
function diaryHolder(slot: Slot, slots: readonly Slot[], turns: readonly Turn[]): string {
  let first = slot;
  for (let turn = slot.turn - 1; turn >= 0; turn--) {
    const earlier = slots.find((other) => other.turn === turn);
    if (!earlier) break;
    first = earlier;
  }
  return turns[first.turn]!.speakerId;
}

function slotAction(slot: Slot, accepting: SentenceFacts | null, owner: Speaker, noun: string, context: SlotContext): FoundAction {
  const { call, parties, metadata, words } = context;
  const title = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}: ${slot.when.text}`;
  const said = [slot.facts, ...(accepting ? [accepting] : [])].map((facts) => facts.sentence.text).join(' – ');
  return {
    item: {
      title,
      description: clip(said, DESCRIPTION_CHARACTERS),
      dueDate: slot.when.date,
      priority: 'medium',
      ...ownerFieldsOf(owner),
      sourceSegmentIds: [...new Set([slot.facts, ...(accepting ? [accepting] : [])].map((facts) => facts.sentence.segment.id))],
      intent: 'meeting',
      intentMetadata: intentMetadataFor({
        intent: 'meeting', kind: 'commitment', title, clause: slot.facts.sentence.text, when: slot.when, whenSaidIn: null, facts: slot.facts, call,
        speaker: owner, addressee: parties.other(owner.speakerId), parties, metadata, words,
      }),
    },
    kind: 'commitment',
    speakerId: owner.speakerId,
    said,
  };
}

/** The latest appointment noun said up to the acceptance ("my check-up", "the viewing"); null when the call has said none. */
function appointmentNounBefore(slot: Slot, accepting: SentenceFacts | null, call: readonly SentenceFacts[], words: ActionWords): string | null {
  const pattern = new RegExp(`\\b(${anyOfWords(words.appointmentNouns)})s?\\b`, 'i');
  const last = call.indexOf(accepting ?? slot.facts);
  for (const facts of call.slice(0, last + 1).reverse()) {
    const noun = pattern.exec(facts.sentence.text)?.[1];
    if (noun) return noun.toLowerCase();
  }
  return null;
}

/**
 * A day offered without a time, with the time the reply gives it ("How about Friday?" – "Friday's
 * fine. Let's say ten o'clock." is Friday at ten); the slot as offered when the reply says no time
 * on that day.
 */
function withTimeOfTheReply(slot: Slot, reply: Turn): Slot {
  if (slot.when.time !== null) return slot;
  const timed = reply.sentences.flatMap((facts) => facts.dates).find((mention) => mention.date === slot.when.date && mention.dateTime !== null);
  return timed ? { ...slot, when: { ...slot.when, time: timed.time, dateTime: timed.dateTime, text: timed.text } } : slot;
}
