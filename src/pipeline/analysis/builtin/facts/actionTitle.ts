import type { ActionWords } from './ActionWords.js';
import { clip } from '../../text/clip.js';
import { anyOfWords, escapeRegExp } from '../../text/regexWords.js';

/** An action item title is at most this long: it is shown in one line of a list. */
export const MAX_TITLE_LENGTH = 80;

/** Whom the pronouns of a clause point at, by display name; null when unclear (left as said). */
export interface PronounTargets {
  /** Who said the sentence: "me", "us", and "my" when the speaker does not own the action. */
  speakerName: string;
  /** The other party: "you", and "your" when the addressee does not own the action. */
  addresseeName: string | null;
  /** The owner is the speaker (a promise), so "my" stays; else "my" is the speaker's ("Diane's"). */
  ownerIsSpeaker: boolean;
  /** The owner is the addressee (a request), so "your" stays. */
  ownerIsAddressee: boolean;
}

/**
 * An imperative title from an action clause, from the owner's point of view: "send you the
 * revised contract by Friday" said by Diane to Sheila becomes "Send the revised contract to
 * Sheila". The clause is cut at its end words (see `ActionWords.clauseEnd`), the `removable`
 * phrases said in it (dates and durations: the due date and metadata carry them) are dropped
 * unless only the verb would remain, a recipient pronoun after a ditransitive verb moves
 * to the end ("send you X" → "send X to Sheila"), other pronouns become names, and the result is
 * capitalised and cut to {@link MAX_TITLE_LENGTH}. Names come only from the speakers.
 */
export function actionTitle(clause: string, removable: readonly string[], targets: PronounTargets, words: ActionWords): string {
  const end = words.clauseEnd.exec(clause);
  // A clause cut off after a determiner ("I'll send you the", where a segment ended mid-sentence)
  // has no object: without the dangling word it reads "send you", not "send the to Sheila". A
  // closing "that" or "this" is no such word but the object ("send that right after the call").
  // Nor is a closing "her" ("come and get her"): an object pronoun, not a determiner.
  const danglingDeterminer = new RegExp(`(?:\\s+(?:${anyOfWords(words.determiners.filter((word) => !words.anaphors.includes(word) && !words.personObject.test(`x ${word}`)))}))+[\\s.,;:?!]*$`, 'i');
  const action = (end && end.index > 0 ? clause.slice(0, end.index) : clause).replace(danglingDeterminer, '');
  const prepositions = anyOfWords(words.datePrepositions);
  const approximately = `(?:\\s+(?:${anyOfWords(words.approximators)}))?`;
  // A date said with its preposition ("on Thursday") takes no other one with it ("pop in on Thursday" keeps "in").
  const opensWithPreposition = new RegExp(`^(?:${prepositions})\\s`, 'i');
  const shortened = removable.reduce(
    // "pop in Friday after work": a particle right after the verb is the verb's, not the date's.
    (text, said) => text.replace(new RegExp(`${opensWithPreposition.test(said) ? '' : `(?:(?<!^\\S+)\\s+(?:${prepositions}))?`}${approximately}\\s*${escapeRegExp(said)}`, 'i'), ''),
    action,
  )
    // "ring you half an hour before" without its length: the "before" it leaves says nothing.
    .replace(danglingDeterminer, '').replace(words.danglingAfterDate, '');
  // "meet next Tuesday at 3" without its date is a bare verb: then the date stays.
  let text = shortened.trim().split(/\s+/).length > 1 ? shortened : action;
  const nameOf = (pronoun: string) => (pronoun.toLowerCase() === 'you' ? targets.addresseeName : targets.speakerName);
  text = movedRecipient(text.trim(), words, nameOf) ?? text;
  text = text
    // Not inside contractions: "whether you're in" stays as said.
    .replace(/\b(me|us)\b(?!['’])/gi, (pronoun) => nameOf(pronoun) ?? pronoun)
    .replace(/\byou\b(?!['’])/gi, (pronoun) => targets.addresseeName ?? pronoun)
    .replace(/\bmy\b/gi, (pronoun) => (targets.ownerIsSpeaker ? pronoun : `${targets.speakerName}'s`))
    .replace(/\byour\b/gi, (pronoun) => (targets.ownerIsAddressee || !targets.addresseeName ? pronoun : `${targets.addresseeName}'s`));
  // A closing "then" ("I'll make the first payment then") only ties the promise to what was said.
  const cleaned = text.replace(/\s+/g, ' ').replace(/^[\s,;:.-]+|[\s,;:.?!-]+$/g, '').replace(/[\s,]+then$/i, '').replace(words.danglingAfterDate, '');
  const capitalised = cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
  return clip(capitalised, MAX_TITLE_LENGTH);
}

/**
 * "send you the contract" → "send the contract to Sheila", "send Mark the figures" → "send the
 * figures to Mark": a ditransitive verb's recipient (a pronoun, or a capitalised name before a
 * determiner) moved behind the object. Null when the clause has none, or "you"/"me" has no name.
 * "text me on 555 0142" and "call you back" keep their order: no object follows.
 */
function movedRecipient(clause: string, words: ActionWords, nameOf: (pronoun: string) => string | null): string | null {
  const verbs = anyOfWords(words.ditransitiveVerbs);
  const determiners = anyOfWords(words.determiners);
  const pronoun = new RegExp(`^(?<verb>${verbs})\\s+(?<recipient>me|us|you)\\s+(?<rest>(?:${determiners})\\b.*|[\\d$€£].*)$`, 'i').exec(clause);
  const named = new RegExp(`^(?<verb>${verbs})\\s+(?<recipient>\\p{Lu}\\p{Ll}+)\\s+(?<rest>(?:${determiners})\\b.*)$`, 'u').exec(clause);
  const groups = pronoun?.groups ?? named?.groups;
  if (!groups) return null;
  const recipient = pronoun ? nameOf(groups.recipient ?? '') : groups.recipient;
  return recipient ? `${groups.verb} ${groups.rest} ${words.recipientPreposition} ${recipient}` : null;
}

/**
 * What tells two actions of one owner apart: the verb and the first word of its object that is
 * no stop word or party name ("Send the revised contract to Sheila" → `send contract`).
 */
export function actionKey(title: string, ignored: readonly string[]): string {
  const skip = new Set(ignored.map((word) => word.toLowerCase()));
  const [verb = '', ...rest] = title.toLowerCase().replace(/[^\p{L}\p{N}\s'-]/gu, ' ').split(/\s+/).filter(Boolean);
  const object = rest.find((word) => !skip.has(word) && !skip.has(word.replace(/'s$/, ''))) ?? '';
  return `${verb} ${object}`.trim();
}
