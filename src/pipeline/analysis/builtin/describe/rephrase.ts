import { innerFillers, leadingFillers, leadingLabel } from './cues.js';
import { capitalise } from '../../text/clip.js';

/**
 * The sentence with its leading fillers ("So, um, yeah, …") and labels ("the next steps: …"),
 * hesitations and comma-framed hedges removed, first letter capitalised. Nothing is added: the result is the sentence, shortened.
 */
export function compressSentence(text: string): string {
  let result = text.trim().replace(leadingFillers, '').replace(leadingLabel, '');
  for (const [pattern, replacement] of innerFillers) result = result.replace(pattern, replacement);
  result = result.replace(/\s{2,}/g, ' ').replace(/\s+([,.!?])/g, '$1').replace(/^[,;:\s]+/, '').trim();
  return capitalise(result || text.trim());
}

/** One rewrite of a person's words to name them: `{N}` stands for the name. */
type Rewrite = [pattern: RegExp, replacement: string];

/** Irregular past forms that keep their shape after any subject ("I sent" → "Diane sent"). */
const irregularPast = 'sent|got|made|paid|spoke|told|said|took|gave|left|found|bought|saw|heard|thought|knew|went|came|put|ran|forgot|meant|brought|wrote|read|spent|lost';
/** Modals and past auxiliaries: the same after any subject. */
const sameForEverySubject = "was|wasn't|can|can't|cannot|could|couldn't|should|shouldn't|would|wouldn't|will|won't|might|must|did|didn't|had|hadn't";
/** Present-tense verbs common in calls that take -s after a name ("I need" → "Diane needs"). */
const presentVerbs = 'need|want|agree|think|know|understand|hope|expect|prefer|suggest|promise|guess|feel|like|love|appreciate|mean|believe|remember|see|send|call|check|plan|work|pay|owe';

/** The speaker's own first person made third person. Order matters: longer forms first. */
const firstPersonRewrites: readonly Rewrite[] = [
  [/\bI(?:'m| am)\b/g, '{N} is'],
  [/\bI(?:'ll| will)\b/g, '{N} will'],
  [/\bI(?:'ve| have)\b/g, '{N} has'],
  [/\bI'd\b/g, '{N} would'],
  [/\bI don't\b/g, "{N} doesn't"],
  [/\bI do\b/g, '{N} does'],
  [new RegExp(`\\bI (${sameForEverySubject}|${irregularPast}|\\w+ed)\\b`, 'g'), '{N} $1'],
  [new RegExp(`\\bI (${presentVerbs})\\b`, 'g'), '{N} $1+s'],
  [/\bmy\b/gi, "{N}'s"],
  [/\bmine\b/gi, "{N}'s"],
  [/\bme\b/gi, '{N}'],
];

/** The other party's "you" in a two-party call: subject forms with their verbs, possessives, objects of common verbs. */
const secondPersonRewrites: readonly Rewrite[] = [
  [/\byou(?:'re| are)\b/gi, '{N} is'],
  [/\bare you\b/gi, 'is {N}'],
  [/\byou were\b/gi, '{N} was'],
  [/\bwere you\b/gi, 'was {N}'],
  [/\byou(?:'ve| have)\b/gi, '{N} has'],
  [/\bhave you\b/gi, 'has {N}'],
  [/\byou(?:'ll)\b/gi, '{N} will'],
  [/\byou'd\b/gi, '{N} would'],
  [/\byou don't\b/gi, "{N} doesn't"],
  [/\bdo you\b/gi, 'does {N}'],
  [new RegExp(`\\byou (${sameForEverySubject}|${irregularPast}|\\w+ed)\\b`, 'gi'), '{N} $1'],
  [new RegExp(`\\b(${sameForEverySubject}) you\\b`, 'gi'), '$1 {N}'],
  [/\byou need\b/gi, '{N} needs'],
  [/\byour(?:s|self)?\b/gi, "{N}'s"],
  [/\b(send|sent|email|emailed|call|give|gave|tell|told|show|get|bring|text|ring|owe|pay|help|remind|update|thank) you\b/gi, '$1 {N}'],
];

/** "you" phrases that name nobody and must stay as said. */
const fixedYouPhrases = /\b(?:thank you|you know|see you|you're welcome|bless you|if you like|mind you|you see)\b/gi;

/** Verb + "s" as English spells it: "needs", "wishes", "tries", "goes". */
function thirdPersonSingular(verb: string): string {
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function applyRewrites(text: string, rewrites: readonly Rewrite[], name: string): string {
  let result = text;
  for (const [pattern, replacement] of rewrites) {
    result = result.replace(pattern, (...match: unknown[]) => {
      const group = typeof match[1] === 'string' ? match[1] : '';
      return replacement.replace('$1+s', thirdPersonSingular(group)).replace('$1', group).replace('{N}', name);
    });
  }
  return result;
}

/**
 * The sentence told about its speaker rather than by them: "I'll send you the contract" said by
 * Diane to Sheila becomes "Diane will send Sheila the contract". Only forms whose rewrite is
 * certain are changed (see the rewrite tables); `otherName` is given only when the call has
 * exactly two parties, so "you" is unambiguous. Returns null when a first-person "I" or "myself"
 * would remain (the rewrite would not be safe), so the caller can quote instead.
 */
export function inThirdPerson(text: string, speakerName: string, otherName: string | null): string | null {
  const kept: string[] = [];
  // Shield the fixed phrases from the "you" rewrites; restored at the end.
  let result = text.replace(fixedYouPhrases, (phrase) => `\u0000${kept.push(phrase) - 1}\u0000`);
  result = applyRewrites(result, firstPersonRewrites, speakerName);
  if (otherName) result = applyRewrites(result, secondPersonRewrites, otherName);
  result = result.replace(/\u0000(\d+)\u0000/g, (_, index: string) => kept[Number(index)] ?? '');
  if (/\b(?:I|myself)\b/.test(result)) return null;
  return capitalise(result);
}
