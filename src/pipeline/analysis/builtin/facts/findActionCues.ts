import type { ActionWords } from './ActionWords.js';
import type { Sentence } from '../../text/sentences.js';
import { anyOfWords, escapeRegExp, oncePer } from '../../text/regexWords.js';
import { objectWordsOf } from './mergeActions.js';

/**
 * Who an action belongs to, by how it was said:
 * - `commitment`: the speaker promises it ("I'll send …", "let me check …");
 * - `request`: the speaker asks the other party ("could you send …", "please call …", "Send me …");
 * - `selfReminder`: the speaker asks to be reminded of something they will do ("remind me to …");
 * - `joint`: nobody in particular ("let's meet …", "we need to …");
 * - `thirdParty`: someone not on the call ("my colleague Priya Shah will ring you", or by a name
 *   the call gave them: "Declan will come out Saturday" after "our plumber Declan").
 */
export type ActionKind = 'commitment' | 'request' | 'selfReminder' | 'joint' | 'thirdParty';

/** An action cue in a sentence and the clause it governs. */
export interface ActionCue {
  kind: ActionKind;
  sentence: Sentence;
  /** What is to be done, as said after the cue, fillers dropped and rewrites applied ("send you the contract by Friday"). */
  clause: string;
  /** The part of the sentence the cue is in (sentences split at "…, and could you …"). */
  part: { index: number; text: string };
  /** The part's words before the clause, as said ("Let me ", "So I'll "). */
  lead: string;
  /** An offer ("shall I send you the form?"): a commitment only once the other party accepts it. */
  offered: boolean;
  /**
   * A promise whose verb is none of the lexicon's, taken as an action by grammar alone ("I'll deal
   * with the DMV on Tuesday"): an action only with a day said for it (see `buildActionItems`).
   */
  verbByGrammar: boolean;
  /** A proposal of the speaker's own deed (see `ActionWords.proposals`): it may stand on another day the other party asked for. */
  proposal: boolean;
}

/** A cue found in a part: where it starts and where its clause starts. */
interface CueMatch {
  kind: ActionKind;
  /** From `ActionWords.proposals`. */
  proposal: boolean;
  start: number;
  clauseStart: number;
  clause: string;
  offered: boolean;
}

/**
 * The action cues of a sentence, at most one per part. In a part, the earliest cue wins, and of
 * two starting together the longer ("I'll need you to …" is a request, not "I'll …"). A clause
 * counts only when it starts, after the lexicon's fillers, with one of its action verbs and is no
 * courtesy ("let me know if you have any questions"). None is an action:
 * - a promise inside a real question ("Do you think I'll need …?"), or one that is a condition ("if I
 *   have to pop out, …": what is promised comes after it);
 * - a request or joint action after a condition in its sentence ("if you feel unwell, please
 *   call 111": advice), and advice however said ("you could try …");
 * - a "let me …" done while still on the call ("let me find you", "let me look");
 * - "you should have it by Saturday": the other party receiving something is not asked of them.
 */
export function findActionCues(sentence: Sentence, words: ActionWords, byName: readonly RegExp[] = []): ActionCue[] {
  const patterns = compiledPatterns(words);
  const cues: ActionCue[] = [];
  for (const part of partsOf(sentence.text, patterns.splitter)) {
    const match = firstCue(part.text, words, patterns.imperative, byName);
    if (!match || words.advice.test(part.text)) continue;
    if (match.kind === 'commitment' && !match.offered && sentence.isQuestion && words.questionOpener.test(sentence.text)) continue;
    if (match.offered && !match.proposal && words.notOffered.includes(leadingVerb(match.clause) ?? '')) continue;
    if (match.kind === 'commitment' && words.conditionLead.test(part.text.slice(0, match.start))) continue;
    // "If there's any problem, I'll let you know": a contingency, not a promise.
    if ((match.kind === 'commitment' || match.kind === 'request') && underAContingency(sentence.text, part.index + match.start, words)) continue;
    const before = sentence.text.slice(0, part.index + match.start);
    if ((match.kind === 'request' || match.kind === 'joint') && words.condition.test(before)) continue;
    if (match.kind === 'commitment' && /\blet me\s*$/i.test(part.text.slice(0, match.clauseStart)) && words.inCall.test(match.clause.trim().replace(/[.!?]+$/, ''))) continue;
    if (match.kind === 'request' && words.receipt.test(match.clause.trim())) continue;
    // "How soon could you get here?": a question about when, not a favour asked.
    if (match.kind === 'request' && sentence.isQuestion && words.whQuestion.test(part.text.slice(0, match.start))) continue;
    const afterPromise = match.kind === 'commitment' && !match.offered && words.promiseLead.test(part.text.slice(0, match.clauseStart));
    // "I'll have to dig the torch out": a verb of the lexicon's own only after a filler.
    const clause = actionClause(match.clause, words, patterns.fillers, afterPromise && !patterns.fillers.test(match.clause.trim()));
    if (clause) {
      const verbByGrammar = !words.verbs.includes(leadingVerb(clause)!);
      cues.push({
        kind: match.kind, sentence, clause: match.offered ? clause.replace(/\?+$/, '') : clause, part, lead: part.text.slice(0, match.clauseStart),
        offered: match.offered, verbByGrammar, proposal: match.proposal,
      });
    }
  }
  return cues;
}

/**
 * "I'll email the floor plan tonight and ring the builder tomorrow": two deeds joined by "and",
 * each with a verb of the lexicon (or the first's, for a second thing said without one: "send the
 * draft on Friday and the final version on the 12th") and a thing of its own, are two actions when `apart` says so of
 * the two parts (each then keeps its own day); else, and for steps on one thing ("sign it and send
 * it back", "come in and pay for it") and an errand and what it is for ("go to the branch and ask
 * for a new card"), the one cue.
 */
export function twoDeedsOf(cue: ActionCue, words: ActionWords, apart: (first: ActionCue['part'], second: ActionCue['part']) => boolean): ActionCue[] {
  const joint = compiledPatterns(words).deedJoiner.exec(cue.clause);
  if (!joint) return [cue];
  const [first, saidSecond] = [cue.clause.slice(0, joint.index), cue.clause.slice(joint.index + joint[0].length)];
  // "I'll send the draft on Friday and the final version on the 12th": a second thing with no verb of its own takes the first's.
  const verbShared = words.determiners.includes(leadingVerb(saidSecond) ?? '');
  const second = verbShared ? `${leadingVerb(first) ?? ''} ${saidSecond}` : saidSecond;
  const names = (clause: string) => {
    const { objectWords, pointsBack } = objectWordsOf(clause, words);
    return objectWords.length > 0 && !pointsBack;
  };
  if (words.errandVerbs.includes(leadingVerb(first) ?? '') || !names(first) || !names(second)) return [cue];
  // Where the second deed starts in the part as said (the clause may be rewritten): its "and <verb>" (or "and <determiner>").
  const clauseStart = cue.lead.length;
  const said = new RegExp(`${words.deedJoiner.source}${escapeRegExp(leadingVerb(saidSecond) ?? '')}\\b`, 'i').exec(cue.part.text.slice(clauseStart));
  if (!said) return [cue];
  const split = clauseStart + said.index;
  const parts = [{ index: cue.part.index, text: cue.part.text.slice(0, split) }, { index: cue.part.index + split, text: cue.part.text.slice(split) }] as const;
  if (!apart(parts[0], parts[1])) return [cue];
  // The second deed's verb read as the first's was ("ring the builder" → "call the builder").
  const secondClause = rewritten(second, words);
  return [{ ...cue, clause: first, part: parts[0] }, { ...cue, clause: secondClause, part: parts[1] }];
}

/**
 * The cue of a third party the call named taking an action on by name ("Declan will come out
 * Saturday" after "our plumber Declan"), for {@link findActionCues}: built once per call, from the
 * names (and their single words) the call gave its third parties. None without names.
 */
export function namedPersonCues(names: readonly string[], words: ActionWords): RegExp[] {
  return names.length > 0 ? [new RegExp(`\\b(?:${names.map(escapeRegExp).join('|')}),?\\s+${words.namedPersonWill}\\s+(?<clause>.+)`, 'u')] : [];
}

/** The first word of a clause, lower case: its verb ("send the form" → `send`). */
export function leadingVerb(clause: string): string | undefined {
  return /^[\p{L}-]+/u.exec(clause.trim())?.[0]?.toLowerCase();
}

/** The patterns built from a lexicon's word lists, built once per lexicon. */
interface CompiledPatterns {
  splitter: RegExp;
  deedJoiner: RegExp;
  imperative: RegExp;
  fillers: RegExp;
}

const compiledPatterns = oncePer((words: ActionWords): CompiledPatterns => {
  const { clauseSplit } = words;
  return {
    // " and (then) <verb> …": where a second deed of the lexicon's may start.
    // "and ring the builder", or "and the final version" (the first deed's verb shared).
    deedJoiner: new RegExp(`${words.deedJoiner.source}(?=(?:${anyOfWords([...words.verbs, ...words.determiners])})\\b)`, 'i'),
    splitter: new RegExp(clauseSplit.source, clauseSplit.flags.includes('g') ? clauseSplit.flags : `${clauseSplit.flags}g`),
    // An imperative opens its part: "Send me the invoice", "So, email me the notes".
    imperative: new RegExp(
      `^\\s*(?:(?:${anyOfWords(words.imperativeLeads)})[,\\s]+)*(?<clause>(?:${anyOfWords(words.imperativeVerbs)})\\s+(?:${anyOfWords(words.imperativeObjects)})\\b.*)`,
      'i',
    ),
    fillers: new RegExp(`^(?:(?:${anyOfWords(words.leadingFillers)})\\s+)+`, 'i'),
  };
});

/** Where a sentence's clauses joined by ", and" (", but", ", so") start: "I'll send the form today, and if there are any problems, give me a ring" is two. */
const JOINED_CLAUSE = /,\s*(?:and|but|so)\s+/gi;

/**
 * Whether the cue at `start` is said under a contingency (`ActionWords.contingency`): one in the
 * clause that holds it, before or after it ("If there's any problem, I'll let you know", "I'll
 * call you back if anything changes"), not one in another clause of the sentence.
 */
function underAContingency(sentence: string, start: number, words: ActionWords): boolean {
  const starts = [0, ...[...sentence.matchAll(JOINED_CLAUSE)].map((joint) => joint.index + joint[0].length)];
  const from = starts.findLast((at) => at <= start) ?? 0;
  const to = starts.find((at) => at > start) ?? sentence.length;
  return words.contingency.test(sentence.slice(from, to));
}

/** The sentence cut where a new clause with its own subject or cue starts. */
function partsOf(text: string, splitter: RegExp): { index: number; text: string }[] {
  const parts: { index: number; text: string }[] = [];
  let start = 0;
  for (const boundary of text.matchAll(splitter)) {
    if (boundary.index > start) parts.push({ index: start, text: text.slice(start, boundary.index) });
    start = boundary.index + boundary[0].length;
  }
  parts.push({ index: start, text: text.slice(start) });
  return parts.filter((part) => part.text.trim() !== '');
}

function firstCue(text: string, words: ActionWords, imperativePattern: RegExp, byName: readonly RegExp[]): CueMatch | null {
  const tables: [ActionKind, readonly RegExp[], boolean, boolean?][] = [
    ['selfReminder', words.selfReminders, false], ['request', words.requests, false], ['commitment', words.offers, true], ['commitment', words.proposals, true, true],
    ['commitment', words.commitments, false], ['joint', words.joint, false], ['thirdParty', [...words.thirdParties, ...byName], false],
  ];
  const matches: CueMatch[] = [];
  for (const [kind, patterns, offered, proposal = false] of tables) {
    for (const pattern of patterns) {
      const match = pattern.exec(text);
      const clause = match?.groups?.clause;
      if (!match || clause === undefined) continue;
      // The clause ends the match, but for an offer closed by its condition ("I can text you a link if you like").
      const clauseAt = match[0].endsWith(clause) ? match[0].length - clause.length : match[0].lastIndexOf(clause);
      matches.push({ kind, start: match.index, clauseStart: match.index + clauseAt, clause, offered, proposal });
    }
  }
  const imperative = imperativePattern.exec(text);
  const imperativeClause = imperative?.groups?.clause;
  if (imperative && imperativeClause !== undefined) {
    const clauseStart = imperative[0].length - imperativeClause.length;
    matches.push({ kind: 'request', start: clauseStart, clauseStart, clause: imperativeClause, offered: false, proposal: false });
  }
  matches.sort((first, second) => first.start - second.start || second.clauseStart - first.clauseStart);
  return matches[0] ?? null;
}

/**
 * The clause with leading fillers dropped and rewrites applied, or null when it is no action: it
 * must open with one of the lexicon's verbs, or, `afterPromise` (see `ActionWords.promiseLead`),
 * with any word but the lexicon's `notDeeds`.
 */
function actionClause(said: string, words: ActionWords, fillers: RegExp, afterPromise: boolean): string | null {
  const clause = rewritten(withBaseVerb(said.trim().replace(fillers, '').replace(words.progressiveAuxiliary, ''), words), words);
  // "I'll do that tonight": a deed said before, named where the call is read (no action when none was).
  if (afterPromise && words.deedAnaphor.test(clause)) return clause;
  if (words.courtesies.test(clause)) return null;
  const verb = leadingVerb(clause);
  if (verb === undefined) return null;
  const anyDeed = afterPromise && /^\p{Ll}+$/u.test(verb) && !/ly$/.test(verb) && !words.notDeeds.includes(verb) && !words.stateForm.test(verb)
    && !words.determiners.includes(verb) && !words.objectStopWords.includes(verb);
  return words.verbs.includes(verb) || anyDeed ? clause : null;
}

/** The clause with the lexicon's rewrites applied ("ring" → "call", "be out to you" → a visit). */
function rewritten(clause: string, words: ActionWords): string {
  return words.rewrites.reduce((text, rewrite) => text.replace(rewrite.pattern, rewrite.replacement), clause);
}

/**
 * The clause with an opening -ing form written as the lexicon's verb it comes from ("sending the
 * form" → "send the form", "giving you a call" → "give you a call", "putting" → "put"), after
 * "would you mind" or "I'll be"; as said when it is no such form.
 */
function withBaseVerb(clause: string, words: ActionWords): string {
  const gerund = /^([\p{L}-]+?)ing\b/iu.exec(clause);
  if (!gerund || words.verbs.includes(gerund[0].toLowerCase())) return clause;
  const stem = gerund[1]!.toLowerCase();
  const doubled = stem.length > 2 && stem.at(-1) === stem.at(-2) ? stem.slice(0, -1) : null;
  const base = [stem, `${stem}e`, doubled].find((candidate) => candidate !== null && words.verbs.includes(candidate));
  return base ? `${base}${clause.slice(gerund[0].length)}` : clause;
}
