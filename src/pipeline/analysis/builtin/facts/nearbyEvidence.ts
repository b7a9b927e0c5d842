import type { DateMention } from './findDateMentions.js';
import type { SentenceFacts } from './sentenceFacts.js';

/**
 * Where an action's details are looked for when its own sentence does not hold them: numbers,
 * addresses and lengths are often said a turn later ("What's the best number?" – "It's …") or a
 * sentence later in the same turn ("I'll book you in. It's a thirty minute appointment.").
 * Distances count turns (runs of one speaker's segments), so a one-speaker voicemail is one turn.
 */

/** Details are looked for up to this many turns before or after the action's. */
export const EVIDENCE_WINDOW_TURNS = 2;
/** A length said with a meeting word ("a forty-five minute conversation") is looked for this far. */
export const MEETING_LENGTH_WINDOW_TURNS = 4;
/** A meeting proposed without a time ("we should meet up") takes one agreed within this many following turns. */
export const MEETING_TIME_WINDOW_TURNS = 3;

const turnsByCall = new WeakMap<readonly SentenceFacts[], Map<number, number>>();

/** The turn of each segment index of the call: a new turn starts where the speaker changes. Worked out once per call. */
export function turnsOf(call: readonly SentenceFacts[]): ReadonlyMap<number, number> {
  const known = turnsByCall.get(call);
  if (known) return known;
  const turns = new Map<number, number>();
  turnsByCall.set(call, turns);
  let turn = 0;
  let previousSpeaker: string | undefined;
  for (const facts of call) {
    if (turns.has(facts.sentence.segmentIndex)) continue;
    if (previousSpeaker !== undefined && facts.sentence.segment.speakerId !== previousSpeaker) turn++;
    previousSpeaker = facts.sentence.segment.speakerId;
    turns.set(facts.sentence.segmentIndex, turn);
  }
  return turns;
}

/**
 * The sentences within `windowTurns` turns of `own`, nearest first: `own` itself, the rest of its
 * segment, then by turn distance and segment distance (earlier first on a tie).
 */
export function sentencesNear(own: SentenceFacts, call: readonly SentenceFacts[], windowTurns: number, turns: ReadonlyMap<number, number>): SentenceFacts[] {
  const at = own.sentence.segmentIndex;
  const turnOf = (facts: SentenceFacts) => turns.get(facts.sentence.segmentIndex) ?? 0;
  const ownTurn = turnOf(own);
  const rank = (facts: SentenceFacts) => [
    facts === own ? 0 : facts.sentence.segmentIndex === at ? 1 : 2,
    Math.abs(turnOf(facts) - ownTurn),
    Math.abs(facts.sentence.segmentIndex - at),
    facts.sentence.segmentIndex - at,
  ];
  return call
    .filter((facts) => Math.abs(turnOf(facts) - ownTurn) <= windowTurns)
    .map((facts) => ({ facts, rank: rank(facts) }))
    .sort((first, second) => lexicographic(first.rank, second.rank))
    .map(({ facts }) => facts);
}

/** Orders number lists by their first differing value. */
function lexicographic(first: readonly number[], second: readonly number[]): number {
  for (let index = 0; index < first.length; index++) {
    if (first[index] !== second[index]) return (first[index] ?? 0) - (second[index] ?? 0);
  }
  return 0;
}

/** Turns looked back over for the slot offered at a time the action says again ("five fifteen on Monday" … "I'll pop her in for five fifteen"). */
const SLOT_LOOK_BACK_TURNS = 3;

/**
 * "Tuesday at eight, yeah, that works." – "Great, put me down for that.": the date with a day and
 * a time said last in the turn just before the action's (the slot the action takes), and its
 * sentence; when the action says the time again without its day (`time`, `HH:MM`), the latest
 * slot at that time in the {@link SLOT_LOOK_BACK_TURNS} turns before.
 */
export function acceptedDateTime(
  own: SentenceFacts, call: readonly SentenceFacts[], turns: ReadonlyMap<number, number>, time: string | null = null,
): { when: DateMention; facts: SentenceFacts } | null {
  const ownTurn = turns.get(own.sentence.segmentIndex) ?? 0;
  const lookBack = time === null ? 1 : SLOT_LOOK_BACK_TURNS;
  for (const facts of [...call].reverse()) {
    const turn = turns.get(facts.sentence.segmentIndex) ?? 0;
    if (turn >= ownTurn || ownTurn - turn > lookBack) continue;
    const when = facts.dates.findLast((mention) => mention.dateTime !== null && (time === null || mention.time === time));
    if (when) return { when, facts };
  }
  return null;
}

/** A date with a day and a time said within {@link MEETING_TIME_WINDOW_TURNS} turns after the action, and its sentence. */
export function laterDateTime(own: SentenceFacts, call: readonly SentenceFacts[], turns: ReadonlyMap<number, number>): { when: DateMention; facts: SentenceFacts } | null {
  const ownTurn = turns.get(own.sentence.segmentIndex) ?? 0;
  for (const facts of call) {
    const turn = turns.get(facts.sentence.segmentIndex) ?? 0;
    if (facts.sentence.segmentIndex <= own.sentence.segmentIndex || turn - ownTurn > MEETING_TIME_WINDOW_TURNS) continue;
    const when = facts.dates.find((mention) => mention.dateTime !== null);
    if (when) return { when, facts };
  }
  return null;
}

/** The sentences of the speaker's turn that holds `facts` (until the speaker changes, either way). */
export function turnAround(facts: SentenceFacts, call: readonly SentenceFacts[]): SentenceFacts[] {
  const at = call.indexOf(facts);
  const speaker = facts.sentence.segment.speakerId;
  let start = at;
  while (start > 0 && call[start - 1]!.sentence.segment.speakerId === speaker) start--;
  let end = at;
  while (end + 1 < call.length && call[end + 1]!.sentence.segment.speakerId === speaker) end++;
  return call.slice(start, end + 1);
}

/** An opening sentence this short ("Yes please.", "Okay.") before an answer is no answer of its own. */
const MAX_ACKNOWLEDGEMENT_WORDS = 3;

/**
 * Whether `facts` opens its speaker's turn, after a short acknowledgement at most ("Okay. I'll try
 * to get it filled in by Thursday"; `acknowledgement` tells one): what it says answers the turn before.
 */
function opensItsTurn(facts: SentenceFacts, call: readonly SentenceFacts[], acknowledgement: RegExp): boolean {
  const turn = turnAround(facts, call);
  return turn.slice(0, turn.indexOf(facts)).every((other) => acknowledgement.test(other.sentence.text) && other.sentence.text.split(/\s+/).length <= MAX_ACKNOWLEDGEMENT_WORDS);
}

/** The other party's turn `facts` answers: the one just before its own, when `facts` opens its turn (see {@link opensItsTurn}); empty otherwise. */
export function turnAnswered(facts: SentenceFacts, call: readonly SentenceFacts[], acknowledgement: RegExp): SentenceFacts[] {
  if (!opensItsTurn(facts, call, acknowledgement)) return [];
  const before = call[call.indexOf(turnAround(facts, call)[0]!) - 1];
  return before ? turnAround(before, call) : [];
}
