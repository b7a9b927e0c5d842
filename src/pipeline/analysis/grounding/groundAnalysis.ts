import { summaryBulletCount, type Analysis } from '../../../domain/analysis/analysisSchema.js';
import { digitsOf } from '../text/numberWords.js';
import type { GroundingCorpus } from './groundingCorpus.js';
import { analysisGroundingRules, fieldPatternOf, type GroundingRules } from './groundingRules.js';

export type GroundingKind = 'name' | 'email' | 'phone' | 'date' | 'amount' | 'segment' | 'speaker';

/** Something the analysis states that the transcript and metadata do not support. */
export interface GroundingViolation {
  /** JSON pointer into the analysis, e.g. `/actionItems/0/intentMetadata/toEmail`. */
  path: string;
  kind: GroundingKind;
  /** The unsupported value (kept in memory for the report; never logged). */
  value: string;
}

export interface GroundedAnalysis {
  analysis: Analysis;
  /** What the analyser stated without support, before the filter. */
  violationsBefore: GroundingViolation[];
  /** What is still unsupported after it: always empty unless the filter has a bug. */
  violationsAfter: GroundingViolation[];
}

/** Top-level prose, repaired sentence by sentence rather than dropped whole. */
const proseKeys = new Set(['executiveSummary', 'oneLineSummary', 'suggestedTitle', 'reason', 'notes', 'note']);

const emailPattern = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
/** Seven or more digits with phone punctuation between them. */
const phonePattern = /\+?\d[\d\s().-]{5,}\d/g;
/** An ISO date, with its time of day and offset when it is a date-time (their digits are no amounts). */
const isoDatePattern = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?\b/g;
/** Numbers of two or more digits (single digits are too common to carry a fact), with thousands separators. */
const numberPattern = /\d[\d,]*(?:\.\d+)?/g;
/**
 * A capitalised word: a name when it does not start a sentence. A whole word only: the letters of
 * a code said with digits ("1Z 999 AA1") are no name.
 */
const capitalisedWord = /(?<![\p{L}\p{N}])[\p{Lu}][\p{L}'’-]*(?![\p{L}\p{N}'’-])/gu;
/** Capitalised words that are never names. */
const notNames = new Set(['i', "i'll", "i'm", "i've", "i'd", 'ok', 'okay']);

/**
 * Removes from an analysis every name, email, phone number, date and amount that neither the
 * transcript nor the metadata contains, and every citation of a segment or speaker that does not
 * exist, in every field the schema has (`rules`, read from it: see groundingRules.ts). What is
 * removed depends on where it stands:
 * - a citation: the id is dropped;
 * - a speaker id: set to null;
 * - a date field: set to null;
 * - an intent-metadata field (`proposedAt`, `remindAt` too) or an attendee: removed;
 * - text of a list item (a bullet, a decision, an action item, a tag…): the item is dropped;
 * - prose (the summary, reasons, notes): the sentences that state it are dropped;
 * - a list left shorter than the schema allows (a key point without citations, a tone without
 *   descriptors): the object holding it is dropped from its list, or set to null.
 * Each removal adds to a `qualityWarnings` line that counts them by kind (without the values).
 */
export function groundAnalysis(analysis: Analysis, corpus: GroundingCorpus, rules: GroundingRules = analysisGroundingRules): GroundedAnalysis {
  const violationsBefore = findViolations(analysis, corpus, rules);
  let grounded = analysis;
  let remaining = violationsBefore;
  // A repair can only remove, so this ends; two rounds cover a dropped id emptying a key point.
  for (let round = 0; round < 3 && remaining.length > 0; round++) {
    grounded = repair(grounded, remaining, rules);
    remaining = findViolations(grounded, corpus, rules);
  }
  if (violationsBefore.length > 0) grounded = { ...grounded, qualityWarnings: [...grounded.qualityWarnings, groundingWarning(violationsBefore)] };
  // The schema's rule is 0 or 3 to 7 bullets: one or two left after the filter cannot pass for a summary.
  const bullets = grounded.executiveSummaryBullets ?? [];
  if (bullets.length > 0 && bullets.length < summaryBulletCount.min) {
    grounded = { ...grounded, executiveSummaryBullets: [], qualityWarnings: [...grounded.qualityWarnings, `summary_bullets_dropped: ${bullets.length} left after grounding, fewer than ${summaryBulletCount.min}`] };
  }
  return { analysis: grounded, violationsBefore, violationsAfter: remaining };
}

/**
 * Every unsupported statement in the analysis, with where it stands. Each field is checked by its
 * rule in `rules` (read from the schema, see groundingRules.ts); fields without one state
 * nothing to look up. Defaults to the rules of AnalysisSchema.
 */
export function findViolations(analysis: Analysis, corpus: GroundingCorpus, rules: GroundingRules = analysisGroundingRules): GroundingViolation[] {
  const violations: GroundingViolation[] = [];
  const visit = (value: unknown, path: string[]) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, String(index)]));
      return;
    }
    if (typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) visit(child, [...path, key]);
      return;
    }
    const pointer = `/${path.join('/')}`;
    const found = (kind: GroundingKind) => violations.push({ path: pointer, kind, value: String(value) });
    switch (rules.fields.get(fieldPatternOf(path))) {
      case 'amount': {
        if (typeof value !== 'number') return;
        // 23.5 was said as "23.50" or "twenty-three dollars fifty": its digits with the cents, 2350.
        const digits = Number.isInteger(value) ? String(Math.abs(value)) : Math.abs(value).toFixed(2).replace('.', '');
        if (!isGroundedNumber(digits, corpus)) found('amount');
        return;
      }
      case 'segment':
        if (!corpus.segmentIds.has(String(value))) found('segment');
        return;
      case 'speaker':
        if (!corpus.speakerIds.has(String(value))) found('speaker');
        return;
      case 'date':
        if (!corpus.dates.has(String(value).slice(0, 10))) found('date');
        return;
      case 'name':
        if (!isGroundedName(String(value), corpus)) found('name');
        return;
      case 'text':
        violations.push(...textViolations(String(value), corpus).map((violation) => ({ ...violation, path: pointer })));
        return;
      case undefined:
        return;
    }
  };
  visit(analysis, []);
  return violations;
}

/** Whether a free text states nothing the transcript and metadata do not support (the rule prose is held to). */
export function isGroundedText(text: string, corpus: GroundingCorpus): boolean {
  return textViolations(text, corpus).length === 0;
}

/** The unsupported emails, phone numbers, dates, amounts and names in a free text. */
function textViolations(text: string, corpus: GroundingCorpus): Omit<GroundingViolation, 'path'>[] {
  const found: Omit<GroundingViolation, 'path'>[] = [];
  let rest = text;
  for (const email of text.match(emailPattern) ?? []) {
    const lower = email.toLowerCase();
    if (!corpus.text.includes(lower) && !corpus.spelledEmails.includes(lower)) found.push({ kind: 'email', value: email });
    rest = rest.replace(email, ' ');
  }
  for (const date of rest.match(isoDatePattern) ?? []) {
    if (!corpus.dates.has(date.slice(0, 10))) found.push({ kind: 'date', value: date });
    rest = rest.replace(date, ' ');
  }
  for (const phone of rest.match(phonePattern) ?? []) {
    const digits = digitsOf(phone);
    if (digits.length >= 7) {
      if (!isGroundedNumber(digits, corpus)) found.push({ kind: 'phone', value: phone.trim() });
      rest = rest.replace(phone, ' ');
    }
  }
  for (const number of rest.match(numberPattern) ?? []) {
    const digits = digitsOf(number.split('.')[0]!);
    if (digits.length >= 2 && !isGroundedNumber(digits, corpus)) found.push({ kind: 'amount', value: number });
  }
  for (const name of namesIn(rest)) {
    if (!corpus.words.has(name.toLowerCase()) && !isLettersOfACode(name, corpus)) found.push({ kind: 'name', value: name });
  }
  return found;
}

/** Capitalised words that do not start a sentence (after `.`, `!`, `?`, `:`, a quote, or the text's start). */
function namesIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(capitalisedWord)) {
    const before = text.slice(0, match.index).trimEnd();
    const startsSentence = before.length === 0 || /[.!?:;"“(\n…-]$/.test(before);
    const word = match[0].replace(/['’]s$/, '');
    if (!startsSentence && !notNames.has(word.toLowerCase())) names.push(word);
  }
  return names;
}

/** Whether a capitalised word is the letters of a code the call said with digits ("AA" of "AA1"), written apart from them. */
function isLettersOfACode(word: string, corpus: GroundingCorpus): boolean {
  const letters = word.toLowerCase();
  for (const said of corpus.words) {
    if (said.startsWith(letters) && /^\d/.test(said.slice(letters.length))) return true;
  }
  return false;
}

function isGroundedName(name: string, corpus: GroundingCorpus): boolean {
  const words = name.toLowerCase().replace(/['’]s\b/g, '').match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.every((word) => corpus.words.has(word) || /^(?:dr|mr|mrs|ms)$/.test(word));
}

function isGroundedNumber(digits: string, corpus: GroundingCorpus): boolean {
  return digits.length === 0 || corpus.digitRuns.some((run) => run.includes(digits));
}

/** The analysis with each violation's statement removed (see {@link groundAnalysis}). */
function repair(analysis: Analysis, violations: readonly GroundingViolation[], rules: GroundingRules): Analysis {
  const copy = structuredClone(analysis) as unknown as Record<string, unknown>;
  const dropItems = new Map<unknown[], Set<number>>();
  for (const violation of violations) {
    const path = violation.path.split('/').slice(1);
    const key = path.at(-1)!;
    const parent = resolve(copy, path.slice(0, -1));
    if (parent === undefined) continue;
    if (violation.kind === 'segment' && Array.isArray(parent)) {
      markDrop(dropItems, parent, Number(key));
    } else if (violation.kind === 'speaker' || rules.fields.get(fieldPatternOf(path)) === 'date') {
      (parent as Record<string, unknown>)[key] = null;
    } else if (path.includes('intentMetadata')) {
      removeFromIntentMetadata(copy, path);
    } else if (proseKeys.has(key) && path.length <= 3) {
      (parent as Record<string, unknown>)[key] = withoutSentencesStating((parent as Record<string, unknown>)[key] as string, violation.value);
    } else {
      // A statement inside a list item: drop the item of the closest list.
      const listIndex = path.findLastIndex((segment, index) => index > 0 && Array.isArray(resolve(copy, path.slice(0, index))) && /^\d+$/.test(segment));
      if (listIndex > 0) markDrop(dropItems, resolve(copy, path.slice(0, listIndex)) as unknown[], Number(path[listIndex]));
      else (parent as Record<string, unknown>)[key] = withoutSentencesStating(String((parent as Record<string, unknown>)[key] ?? ''), violation.value);
    }
  }
  for (const [list, indexes] of dropItems) {
    for (const index of [...indexes].sort((a, b) => b - a)) list.splice(index, 1);
  }
  const repaired = withoutShortLists(copy, '', rules.minItems) as Record<string, unknown>;
  for (const field of ['suggestedTitle', 'oneLineSummary', 'executiveSummary'] as const) {
    if (repaired[field] === '') repaired[field] = null;
  }
  return repaired as unknown as Analysis;
}

/** What {@link withoutShortLists} returns for a value that must go as a whole. */
const gone = Symbol('gone');

/**
 * The value without what a list the filter left shorter than its schema's `minItems` (by list
 * pattern) belonged to: the object holding such a list is dropped from its own list, or set to
 * null where it is a property (every such object in AnalysisSchema is nullable).
 */
function withoutShortLists(value: unknown, pattern: string, minItems: ReadonlyMap<string, number>): unknown {
  if (Array.isArray(value)) {
    const kept = value.map((item) => withoutShortLists(item, `${pattern}/*`, minItems)).filter((item) => item !== gone);
    return kept.length < (minItems.get(pattern) ?? 0) ? gone : kept;
  }
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const keptChild = withoutShortLists(child, `${pattern}/${key}`, minItems);
    if (keptChild === gone && Array.isArray(child)) return gone;
    kept[key] = keptChild === gone ? null : keptChild;
  }
  return kept;
}

function resolve(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function markDrop(drops: Map<unknown[], Set<number>>, list: unknown[], index: number): void {
  const indexes = drops.get(list) ?? new Set<number>();
  indexes.add(index);
  drops.set(list, indexes);
}

/** Removes the unsupported intent-metadata field (an attendee as a whole). */
function removeFromIntentMetadata(root: Record<string, unknown>, path: readonly string[]): void {
  const at = path.indexOf('intentMetadata');
  const metadata = resolve(root, path.slice(0, at + 1)) as Record<string, unknown> | undefined;
  const field = path[at + 1];
  if (!metadata || field === undefined) return;
  if (field === 'attendees' && path[at + 2] !== undefined) {
    const attendees = metadata.attendees as unknown[];
    attendees[Number(path[at + 2])] = undefined;
    metadata.attendees = attendees.filter((attendee) => attendee !== undefined);
    if ((metadata.attendees as unknown[]).length === 0) delete metadata.attendees;
  } else {
    delete metadata[field];
  }
}

/**
 * The text without the sentences that state `value`: every sentence that overlaps one of its
 * occurrences. A value can run across a sentence end (digits with phone punctuation: "on the
 * 12. 555 0199 is the desk" reads as one phone number), so no sentence holds it whole.
 */
function withoutSentencesStating(text: string, value: string): string {
  const occurrences: Array<[start: number, end: number]> = [];
  for (let at = text.indexOf(value); at >= 0 && value !== ''; at = text.indexOf(value, at + 1)) occurrences.push([at, at + value.length]);
  const sentences = [...text.matchAll(/[^.!?]+[.!?]*\s*/g)];
  if (sentences.length === 0) return occurrences.length > 0 ? '' : text;
  return sentences
    .filter((sentence) => {
      const start = sentence.index;
      const end = start + sentence[0].length;
      return !occurrences.some(([from, to]) => from < end && to > start);
    })
    .map((sentence) => sentence[0])
    .join('')
    .trim();
}

function groundingWarning(violations: readonly GroundingViolation[]): string {
  const counts = new Map<GroundingKind, number>();
  for (const violation of violations) counts.set(violation.kind, (counts.get(violation.kind) ?? 0) + 1);
  const described = [...counts].map(([kind, count]) => `${count} ${kind}${count === 1 ? '' : 's'}`).join(', ');
  return `Removed statements the transcript does not support: ${described}`;
}
