import type { AnalysisActionItem } from '../../../../domain/analysis/analysisSchema.js';
import type { CallMetadata } from '../../../../domain/calls/callTypes.js';
import type { Speaker } from '../../../../domain/transcripts/transcriptSchema.js';
import { actionKey, actionTitle } from './actionTitle.js';
import { ownerFieldsOf, type CallParties } from './callParties.js';
import type { ActionWords } from './ActionWords.js';
import { findActionCues, type ActionCue } from './findActionCues.js';
import type { DateMention } from './findDateMentions.js';
import { intentMetadataFor } from './intentMetadataFor.js';
import { clip } from '../../text/clip.js';
import type { SentenceFacts } from './sentenceFacts.js';
import { mergeActions, objectWordsOf, type FoundAction, type PlacedAction } from './mergeActions.js';
import { laterDateTime, turnsOf } from './nearbyEvidence.js';
import { anyOfWords, escapeRegExp } from '../../text/regexWords.js';
import { isContentWord, keyOf } from '../describe/words.js';

/**
 * The action items of a call, one per action cue (see `findActionCues`), merged where several
 * are one action (see `mergeActions`).
 *
 * Owner: a promise (and "remind me to …") is the speaker's; a request is the other party's
 * (null when the call has not exactly two speakers); a joint action ("let's …") and one a third
 * party takes on ("my colleague will ring you") have no owner. Due date: the first date said in
 * the cue's part of the sentence, else in the sentence when it holds one action only, else the
 * call's date (`callDate`) when the part says it is due as the call ends ("now", "straight after
 * this call"). Priority: high for the lexicon's urgency words ("urgent", "asap", "today"), low
 * for its no-hurry words, else medium. Intent: the first of the lexicon's intent rows matching
 * the clause, else `task`.
 */
export function buildActionItems(
  call: readonly SentenceFacts[], parties: CallParties, metadata: CallMetadata, words: ActionWords, callDate: string,
): FoundAction[] {
  const placed: PlacedAction[] = [];
  const ignoredInKeys = [...words.objectStopWords, ...parties.speakers.flatMap((speaker) => speaker.displayName.split(/\s+/))];
  for (const facts of call) {
    const cues = findActionCues(facts.sentence, words);
    for (const cue of cues) {
      const speaker = parties.speaker(facts.sentence.segment.speakerId);
      if (!speaker || !standsAfterTheReply(cue, facts, call, words) || isDoneOrAskedInTheCall(cue, facts, call, words)) continue;
      const { titleAsSaid, ...action } = actionOf(cue, cues.length, speaker, { facts, call, parties, metadata, words, callDate });
      placed.push({
        ...action,
        segmentIndex: facts.sentence.segmentIndex,
        // Merged by the title as said: "send it to …" still joins the action "it" points back to.
        key: `${action.item.ownerSpeakerId ?? '-'}|${actionKey(titleAsSaid, ignoredInKeys)}`,
        ...objectWordsOf(titleAsSaid, words),
      });
    }
  }
  return mergeActions(placed);
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
  const owner = cue.kind === 'commitment' || cue.kind === 'selfReminder' ? speaker : cue.kind === 'request' ? addressee : null;
  const said = dateOf(cue, facts.dates, cuesInSentence, facts.sentence.text, words);
  const listed = cue.kind === 'selfReminder' ? 'reminder' : words.intents.find((row) => row.pattern.test(cue.clause))?.intent ?? 'task';
  // "I'll move her to Tuesday at 2:30", "I'll put Biscuit down for Thursday at 5:30": a day and a
  // time put in a diary are an appointment, whatever the verb.
  const slotted = listed === 'task' && (cue.kind === 'commitment' || cue.kind === 'joint') && words.slotVerbs.test(cue.clause) && Boolean(said?.dateTime);
  const intent = slotted ? 'meeting' : listed;
  // "We should meet up" … "The 15th at noon?": a meeting takes the time agreed in the next turns.
  const agreed = intent === 'meeting' && !said?.dateTime ? laterDateTime(facts, context.call, turnsOf(context.call)) : null;
  const when = agreed?.when ?? said;
  const dueDate = when?.date ?? (words.immediacy.test(cue.part.text) ? context.callDate : null);
  // A window ("between eight and noon") is what the other party must plan around: it stays.
  const window = words.timeWindow.exec(cue.clause)?.[0].toLowerCase();
  const removable = [...facts.dates.map((mention) => mention.text), ...facts.amounts.filter((amount) => amount.kind === 'duration').map((amount) => amount.text)]
    .filter((said) => !window?.includes(said.toLowerCase()));
  const titleAsSaid = actionTitle(cue.clause, removable, {
    speakerName: speaker.displayName,
    addresseeName: addressee?.displayName ?? null,
    ownerIsSpeaker: owner === speaker,
    ownerIsAddressee: owner !== null && owner === addressee,
  }, words);
  const booked = intent === 'meeting' && !slotted && words.slotVerbs.test(cue.clause);
  const title = withRoles(slotted ? appointmentTitle(titleAsSaid, cue, facts, context.call, words)
    : booked ? withWhatIsBooked(titleAsSaid, cue, facts, context.call, words) : withAntecedent(titleAsSaid, facts, context.call, words), context.call);
  const sentence = facts.sentence.text;
  const priority = words.priority.high.test(sentence) ? 'high' : words.priority.low.test(sentence) ? 'low' : 'medium';
  const item: AnalysisActionItem = {
    title,
    description: clip(sentence, 1000),
    dueDate,
    priority,
    ...ownerFieldsOf(owner),
    sourceSegmentIds: [facts.sentence.segment.id],
    intent,
    intentMetadata: intentMetadataFor({
      intent, kind: cue.kind, title, clause: cue.clause, when, whenSaidIn: agreed?.facts ?? null, facts, call: context.call, speaker, addressee, parties,
      metadata: context.metadata, words,
    }),
  };
  return { item, kind: cue.kind, speakerId: speaker.speakerId, titleAsSaid };
}

/**
 * Whether an action still stands once the other party has answered: a "can we …?" proposal only
 * when the answer opens by accepting it ("Can we move it to next week?" – "Let me look…" is a
 * question, no action), and a request not when the answer turns it down ("Could you email me a
 * confirmation?" – "It has to go to the patient, though, so I'll post it": the post is the
 * action, not the email).
 */
function standsAfterTheReply(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): boolean {
  if (cue.kind !== 'request' && !(cue.kind === 'joint' && facts.sentence.isQuestion)) return true;
  const reply = replyTo(facts, call);
  if (cue.kind === 'joint') return reply !== null && words.acceptance.test(reply);
  return reply === null || words.acceptance.test(reply) || !words.refusal.test(reply);
}

/**
 * Things said as actions that the call itself settles: "Let me just check the evening slots.
 * Thursday at five thirty?" (the check is done on the line: the same turn goes on with its
 * result), and a need that explains why the caller asks ("I need to make a claim", "Can I still
 * print there? I need to print a form": the reason for the call or for the question, answered in
 * it, not a promise).
 */
function isDoneOrAskedInTheCall(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): boolean {
  if (cue.kind !== 'commitment') return false;
  const lead = cue.part.text.slice(0, cue.part.text.indexOf(cue.clause.split(/\s+/)[0]!));
  const turn = turnAround(facts, call);
  if (words.checkOnTheLine.lead.test(lead) && words.checkOnTheLine.verb.test(cue.clause)) return turn.indexOf(facts) < turn.length - 1;
  if (!words.statedNeedLead.test(lead)) return false;
  // The call's first two turns: the answer to the phone and why the caller rang.
  const opensTheCall = (turnsOf(call).get(facts.sentence.segmentIndex) ?? 0) <= 1;
  return opensTheCall || turn.some((other) => other.sentence.isQuestion);
}

/** The sentences of the speaker's turn that holds `facts` (until the speaker changes, either way). */
function turnAround(facts: SentenceFacts, call: readonly SentenceFacts[]): SentenceFacts[] {
  const at = call.indexOf(facts);
  const speaker = facts.sentence.segment.speakerId;
  let start = at;
  while (start > 0 && call[start - 1]!.sentence.segment.speakerId === speaker) start--;
  let end = at;
  while (end + 1 < call.length && call[end + 1]!.sentence.segment.speakerId === speaker) end++;
  return call.slice(start, end + 1);
}

/** The text of the other speaker's next turn (the sentences until the speaker changes again); null when nobody answers. */
function replyTo(facts: SentenceFacts, call: readonly SentenceFacts[]): string | null {
  const asker = facts.sentence.segment.speakerId;
  const after = call.slice(call.indexOf(facts) + 1);
  const start = after.findIndex((other) => other.sentence.segment.speakerId !== asker);
  if (start < 0) return null;
  const replier = after[start]!.sentence.segment.speakerId;
  const end = after.findIndex((other, index) => index > start && other.sentence.segment.speakerId !== replier);
  return after.slice(start, end < 0 ? undefined : end).map((other) => other.sentence.text).join(' ');
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

/** The latest meeting noun ("appointment", "hearing test") said in the cue's clause or before it; nouns naming no appointment of their own left out. */
function meetingNounBefore(cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string | undefined {
  const nounPattern = new RegExp(`\\b(${anyOfWords(words.appointmentNouns)})s?\\b`, 'i');
  return [cue.clause, ...textsBefore(cue, facts, call)].map((text) => nounPattern.exec(text)?.[1]).find(Boolean)?.toLowerCase();
}

/**
 * "Book dad Sal in with Dr. Nguyen" → "… for the hearing test": a booking that does not say what
 * it is for gets the latest meeting noun said before it.
 */
function withWhatIsBooked(title: string, cue: ActionCue, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const nounInTitle = new RegExp(`\\b(?:${anyOfWords(words.meetingNouns)})s?\\b`, 'i');
  if (nounInTitle.test(title)) return title;
  const noun = meetingNounBefore(cue, facts, call, words);
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

/** Sentences looked back over for what "it" stands for. */
const ANTECEDENT_LOOK_BACK = 5;
/**
 * "I'll pay it by the fifteenth" after "the bill comes down to eighty-four euro twenty" → "Pay the
 * bill by the fifteenth": an action whose object is "it" (or "them", "those": then a plural) takes the thing the call keeps talking
 * about among the noun phrases of the few sentences before (a determiner and up to three words
 * ending in a noun the call says at least twice, no person, place or time), with "the" for its
 * determiner; the most talked-about one, the latest on a tie. The title as said when none is.
 */
function withAntecedent(title: string, facts: SentenceFacts, call: readonly SentenceFacts[], words: ActionWords): string {
  const anaphor = /^(\S+)\s+(it|them|those|these)\b/i.exec(title);
  if (!anaphor) return title;
  // "them", "those": a plural thing ("the photos"); "it": a singular one.
  const plural = anaphor[2]!.toLowerCase() !== 'it';
  const counts = wordCountsOf(call);
  const at = call.indexOf(facts);
  const matchesNumber = (phrase: string[]) => (keyOf(phrase.at(-1)!) !== phrase.at(-1)!) === plural;
  // The sentence just before, in the same turn, names it: "What I need is photos of the damage.
  // Could you email those to …?"
  const previous = call[at - 1];
  if (previous && previous.sentence.segment.speakerId === facts.sentence.segment.speakerId) {
    const phrase = thingsNamed(previous, words, plural).filter(matchesNumber).at(-1);
    if (phrase) return `${anaphor[1]} the ${phrase.join(' ')}${title.slice(anaphor[0].length)}`;
  }
  let best: { phrase: string; count: number } | undefined;
  for (const earlier of call.slice(Math.max(0, at - ANTECEDENT_LOOK_BACK), at)) {
    for (const phrase of thingsNamed(earlier, words).filter(matchesNumber)) {
      const count = counts.get(keyOf(phrase.at(-1)!)) ?? 0;
      if (count >= 2 && (!best || count >= best.count)) best = { phrase: `the ${phrase.join(' ')}`, count };
    }
  }
  return best ? `${anaphor[1]} ${best.phrase}${title.slice(anaphor[0].length)}` : title;
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

/**
 * The noun phrases of a sentence outside its dates and amounts: words after a determiner, up to
 * three, the last a content word naming a thing (a phrase ending in a person, place or time is
 * none); with `bare`, also a plural noun said without a determiner ("photos of the damage").
 */
function thingsNamed(facts: SentenceFacts, words: ActionWords, bare = false): string[][] {
  let text = facts.sentence.text;
  for (const said of [...facts.dates.map((mention) => mention.text), ...facts.amounts.map((amount) => amount.text)]) text = text.replace(said, ' , ');
  const tokens = text.replace(/[’]/g, "'").split(/\s+/);
  const phrases: string[][] = [];
  tokens.forEach((token, index) => {
    if (!words.antecedentDeterminers.includes(token.toLowerCase())) return;
    const phrase: string[] = [];
    for (const next of tokens.slice(index + 1, index + 4)) {
      const word = next.replace(/[.,;:!?]+$/, '');
      if (!/^[a-z][a-z-]*$/.test(word) || words.objectStopWords.includes(word)) break;
      phrase.push(word);
      if (word !== next) break;
    }
    while (phrase.length > 0 && !isContentWord(phrase.at(-1)!)) phrase.pop();
    if (phrase.length > 0 && !words.notThings.has(phrase.at(-1)!) && !phrase.some((word) => /^(?:first|second|third|\w+(?:teenth|tieth|th))$/.test(word))) {
      phrases.push(phrase);
    }
  });
  if (bare) {
    tokens.forEach((token, index) => {
      const word = token.replace(/[.,;:!?]+$/, '');
      const before = (tokens[index - 1] ?? '').toLowerCase();
      if (/^[a-z][a-z-]*$/.test(word) && keyOf(word) !== word && isContentWord(word) && !words.notThings.has(keyOf(word))
        && !words.antecedentDeterminers.includes(before) && !words.anaphors.includes(before)) phrases.push([word]);
    });
  }
  return phrases;
}

/** The first dated mention in the cue's part; else in the sentence when the sentence holds this one action only. */
function dateOf(cue: ActionCue, dates: readonly DateMention[], cuesInSentence: number, sentence: string, words: ActionWords): DateMention | null {
  // "I'll post you the form, it should be with you early next week": when it arrives is not when it is done.
  const dated = dates.filter((mention) => mention.date !== null && !words.arrivalEstimate.test(sentence.slice(0, mention.index)));
  const inPart = dated.find((mention) => mention.index >= cue.part.index && mention.index < cue.part.index + cue.part.text.length);
  return inPart ?? (cuesInSentence === 1 ? dated[0] ?? null : null);
}
