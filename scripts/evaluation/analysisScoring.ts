/**
 * Matching and scoring for `npm run eval:analysis` (scripts/evalAnalysis.ts): pure functions
 * over the expected values of scripts/evaluation/analysisCalls.ts and the action items an
 * analysis produced, so they can be tested without an analyser.
 */
import type { ExpectedActionItem, ExpectedHeadline, ExpectedIntentMetadata, ExpectedOwnerRole } from './analysisCalls.js';

/** The fields of an extracted action item (`ActionItemDraft`, reconciled owners) that are scored. */
export interface ExtractedActionItem {
  title: string;
  description?: string | null;
  dueDate?: string | null;
  ownerRole?: string | null;
  intent?: string | null;
  intentMetadata?: object | null;
}

/** Lower case, accents dropped, every run of other than letters and digits one space: "Dr. Lim's check-up" → "dr lim s check up". */
export function normalizeText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Whether every keyword appears in the item's title or description: case-insensitive,
 * punctuation ignored, each at the start of a word (`escalat` matches "escalation", `lim`
 * matches "Dr. Lim" but not "climb"; a keyword of several words matches them in a row).
 */
export function matchesKeywords(item: Pick<ExtractedActionItem, 'title' | 'description'>, keywords: readonly string[]): boolean {
  const haystack = ` ${normalizeText(`${item.title} ${item.description ?? ''}`)}`;
  return keywords.every((keyword) => {
    const needle = normalizeText(keyword);
    return needle !== '' && haystack.includes(` ${needle}`);
  });
}

export interface ActionItemMatching {
  /** Expected index → extracted index. */
  pairs: Array<{ expected: number; extracted: number }>;
  /** Expected items nothing matched. */
  missing: number[];
  /** Extracted items matched to no expected one. */
  extra: number[];
}

/**
 * Greedy one-to-one matching: an extracted item can match an expected one when it contains all
 * of its `titleKeywords`. The expected items are taken most constrained first (fewest candidate
 * extracted items; ties in table order), and each takes the free candidate that agrees with it
 * best: same intent first, then right owner, then right due date, then extraction order. So an
 * item whose keywords only one extracted item carries is not left without a match because a
 * looser one took that item first, and of two duplicates the better one is scored (the other
 * counts as extra, against precision).
 */
export function matchActionItems(expected: readonly ExpectedActionItem[], extracted: readonly ExtractedActionItem[]): ActionItemMatching {
  const candidates = expected.map((item) => extracted.flatMap((candidate, index) => (matchesKeywords(candidate, item.titleKeywords) ? [index] : [])));
  const order = expected.map((_, index) => index).sort((first, second) => candidates[first]!.length - candidates[second]!.length || first - second);
  const taken = new Set<number>();
  const pairs: ActionItemMatching['pairs'] = [];
  for (const expectedIndex of order) {
    const free = candidates[expectedIndex]!.filter((index) => !taken.has(index));
    const item = expected[expectedIndex]!;
    const agreement = (index: number) => {
      const candidate = extracted[index]!;
      return (candidate.intent === item.intent ? 4 : 0) + (ownerRight(item.ownerRole, candidate.ownerRole) ? 2 : 0) + (dueDateRight(item.dueDate, candidate.dueDate) ? 1 : 0);
    };
    const chosen = free.reduce<number | undefined>((best, index) => (best === undefined || agreement(index) > agreement(best) ? index : best), undefined);
    if (chosen === undefined) continue;
    taken.add(chosen);
    pairs.push({ expected: expectedIndex, extracted: chosen });
  }
  pairs.sort((first, second) => first.expected - second.expected);
  const matched = new Set(pairs.map(({ expected: index }) => index));
  return {
    pairs,
    missing: expected.map((_, index) => index).filter((index) => !matched.has(index)),
    extra: extracted.map((_, index) => index).filter((index) => !taken.has(index)),
  };
}

/** The owner is right when the roles agree; an expected `null` (nobody in particular) also accepts `UNKNOWN`. */
export function ownerRight(expected: ExpectedOwnerRole, got: string | null | undefined): boolean {
  if (expected === null) return got === null || got === undefined || got === 'UNKNOWN';
  return got === expected;
}

/** The due date is right when it is the same `YYYY-MM-DD`, or both are null. */
export function dueDateRight(expected: string | null, got: string | null | undefined): boolean {
  return (got ?? null) === expected;
}

/**
 * Whether two phone numbers are the same: by their digits, formatting ignored; a national
 * number ("07700 900456") also matches its international form ("+44 7700 900456") when the
 * digits after the trunk 0 end the longer one.
 */
export function samePhoneNumber(expected: string, got: string): boolean {
  const a = expected.replace(/\D/g, '');
  const b = got.replace(/\D/g, '');
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const national = shorter.replace(/^0+/, '');
  return national.length >= 7 && longer.endsWith(national);
}

/**
 * The wall-clock time of an ISO date-time in a time zone, `YYYY-MM-DDTHH:MM:SS`: a value with an
 * offset (or `Z`) is converted; one without is already local and kept as written (a date alone
 * too). Undefined when the value is no date-time.
 */
export function localDateTime(value: string, timeZone: string): string | undefined {
  const text = value.trim();
  if (!/(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(text) || !text.includes('T')) return /^\d{4}-\d{2}-\d{2}/.test(text) ? text : undefined;
  const instant = Date.parse(text);
  if (Number.isNaN(instant)) return undefined;
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(instant).map(({ type, value: part }) => [type, part]));
  return `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}`;
}

export interface MetadataFieldCheck {
  field: string;
  expected: unknown;
  got: unknown;
  right: boolean;
}

const exactFields = new Set(['providerHint', 'channel', 'toEmail']);
const contains = (got: unknown, expected: string) => typeof got === 'string' && normalizeText(got).includes(normalizeText(expected));
/** Two names agree when one's words begin the other's ("Tom" and "Tom Reyes"), case and punctuation ignored. */
const namesAgree = (first: string, second: string) => {
  const [a, b] = [normalizeText(first), normalizeText(second)];
  return a !== '' && b !== '' && (`${a} `.startsWith(`${b} `) || `${b} `.startsWith(`${a} `));
};

/**
 * One check per field the call expects, against the extracted item's `intentMetadata`:
 * - `proposedAt`, `remindAt`: the local wall-clock time in the call's time zone (see
 *   {@link localDateTime}) starts with the expected prefix.
 * - `phoneNumber`: {@link samePhoneNumber}. `durationMinutes`: equal.
 * - `providerHint`, `channel`, `toEmail`: equal, case and surrounding blanks ignored.
 * - `attendees`: every expected attendee is among them (a first name matches a full name; an
 *   expected email must be equal).
 * - Any other text (`toName`, `contactName`, `subject`, `location`, `title`, `handle`): contains
 *   the expected text, case and punctuation ignored.
 */
export function metadataFieldChecks(expected: ExpectedIntentMetadata | undefined, got: object | null | undefined, timeZone: string): MetadataFieldCheck[] {
  const actual = (got ?? {}) as Record<string, unknown>;
  return Object.entries(expected ?? {}).filter(([, value]) => value !== undefined).map(([field, value]): MetadataFieldCheck => {
    const gotValue = actual[field];
    let right: boolean;
    if (field === 'proposedAt' || field === 'remindAt') {
      const local = typeof gotValue === 'string' ? localDateTime(gotValue, timeZone) : undefined;
      right = local !== undefined && local.startsWith(value as string);
    } else if (field === 'phoneNumber') {
      right = typeof gotValue === 'string' && samePhoneNumber(value as string, gotValue);
    } else if (field === 'durationMinutes') {
      right = gotValue === value;
    } else if (field === 'attendees') {
      const attendees = Array.isArray(gotValue) ? gotValue as Array<{ name?: unknown; email?: unknown }> : [];
      right = (value as NonNullable<ExpectedIntentMetadata['attendees']>).every((person) => attendees.some((attendee) =>
        typeof attendee?.name === 'string' && namesAgree(person.name, attendee.name)
        && (person.email === undefined || (typeof attendee.email === 'string' && attendee.email.trim().toLowerCase() === person.email.toLowerCase()))));
    } else if (exactFields.has(field)) {
      right = typeof gotValue === 'string' && gotValue.trim().toLowerCase() === String(value).trim().toLowerCase();
    } else {
      right = contains(gotValue, String(value));
    }
    return { field, expected: value, got: gotValue, right };
  });
}

export interface ItemScore {
  expected: ExpectedActionItem;
  /** The matched extracted item, if any. */
  extracted?: ExtractedActionItem;
  intentRight: boolean;
  ownerRight: boolean;
  dueDateRight: boolean;
  metadata: MetadataFieldCheck[];
  /** The expected `details` groups the matched item's title or description misses (empty when all are there). */
  detailsMissing: string[][];
  /** A conditional promise extracted without its condition. */
  conditionLost: boolean;
}

/** Words that say a promise hangs on a condition. */
const conditionWords = ['if', 'unless', 'in case', 'should'];

/** Whether the text matches at least one alternative of every group (each like a `titleKeywords` entry). */
export function matchesGroups(text: string, groups: readonly (readonly string[])[]): boolean {
  return groups.every((alternatives) => alternatives.some((alternative) => matchesKeywords({ title: text }, [alternative])));
}

/** The groups the text does not match. */
export function groupsMissing(text: string, groups: readonly (readonly string[])[]): string[][] {
  return groups.filter((alternatives) => !matchesGroups(text, [alternatives])).map((alternatives) => [...alternatives]);
}

export interface ActionItemScore {
  expectedCount: number;
  /** Expected items that must be found: all but the conditional ones (which may be dropped). */
  requiredCount: number;
  /** Required items found with the right intent, owner and due date: the headline figure. */
  fullyRight: number;
  /** Expected `details` groups over matched items, and those present. */
  detailsGroups: number;
  detailsRight: number;
  /** Conditional promises extracted, and of them those whose condition was lost. */
  conditionalExtracted: number;
  conditionsLost: number;
  extractedCount: number;
  matched: number;
  intentRight: number;
  ownerRight: number;
  dueDateRight: number;
  metadataFields: number;
  metadataRight: number;
  /** One per expected item, in table order. */
  items: ItemScore[];
  /** Extracted items that match no expected one. */
  extra: ExtractedActionItem[];
}

/** Matches a call's extracted action items to its expected ones and scores the pairs (intent, owner, due date, metadata over matched items). */
export function scoreActionItems(expected: readonly ExpectedActionItem[], extracted: readonly ExtractedActionItem[], timeZone: string): ActionItemScore {
  const matching = matchActionItems(expected, extracted);
  const partner = new Map(matching.pairs.map((pair) => [pair.expected, extracted[pair.extracted]!]));
  const items: ItemScore[] = expected.map((item, index) => {
    const found = partner.get(index);
    if (!found) return { expected: item, intentRight: false, ownerRight: false, dueDateRight: false, metadata: [], detailsMissing: [], conditionLost: false };
    const text = `${found.title} ${found.description ?? ''}`;
    return {
      expected: item,
      extracted: found,
      intentRight: found.intent === item.intent,
      ownerRight: ownerRight(item.ownerRole, found.ownerRole),
      dueDateRight: dueDateRight(item.dueDate, found.dueDate),
      metadata: metadataFieldChecks(item.intentMetadata, found.intentMetadata, timeZone),
      detailsMissing: groupsMissing(text, item.details ?? []),
      conditionLost: item.conditional === true && !matchesGroups(text, [conditionWords]),
    };
  });
  const matchedItems = items.filter((item) => item.extracted);
  const count = (test: (item: ItemScore) => boolean) => matchedItems.filter(test).length;
  return {
    expectedCount: expected.length,
    requiredCount: expected.filter((item) => !item.conditional).length,
    fullyRight: count((item) => !item.expected.conditional && item.intentRight && item.ownerRight && item.dueDateRight),
    detailsGroups: matchedItems.reduce((sum, item) => sum + (item.expected.details?.length ?? 0), 0),
    detailsRight: matchedItems.reduce((sum, item) => sum + (item.expected.details?.length ?? 0) - item.detailsMissing.length, 0),
    conditionalExtracted: count((item) => item.expected.conditional === true),
    conditionsLost: count((item) => item.conditionLost),
    extractedCount: extracted.length,
    matched: matchedItems.length,
    intentRight: count((item) => item.intentRight),
    ownerRight: count((item) => item.ownerRight),
    dueDateRight: count((item) => item.dueDateRight),
    metadataFields: matchedItems.reduce((sum, item) => sum + item.metadata.length, 0),
    metadataRight: matchedItems.reduce((sum, item) => sum + item.metadata.filter((check) => check.right).length, 0),
    items,
    extra: matching.extra.map((index) => extracted[index]!),
  };
}

/** The headline fields of an analysis that are scored. */
export interface AnalysedHeadline {
  suggestedTitle: string | null;
  oneLineSummary: string | null;
  executiveSummaryBullets: ReadonlyArray<{ text: string }> | null;
}

export interface HeadlineScore {
  /** Bullets number 0 or 3–7 (the schema's rule: never 1 or 2). Checked on every call. */
  bulletCountValid: boolean;
  bulletCount: number;
  /** Against the call's `headline`, when it has one; undefined otherwise. */
  titleRight?: boolean;
  summaryRight?: boolean;
  outcomeRight?: boolean;
  /** `avoid` words found in the title, the one-line summary or the first bullet. */
  avoidedWordsFound: string[];
}

/** Scores the title, one-line summary and bullets against the expected headline (see `ExpectedHeadline`). */
export function scoreHeadline(expected: ExpectedHeadline | undefined, analysis: AnalysedHeadline): HeadlineScore {
  const bullets = analysis.executiveSummaryBullets ?? [];
  const bulletCountValid = bullets.length === 0 || (bullets.length >= 3 && bullets.length <= 7);
  if (!expected) return { bulletCountValid, bulletCount: bullets.length, avoidedWordsFound: [] };
  const title = analysis.suggestedTitle ?? '';
  const summary = analysis.oneLineSummary ?? '';
  // The headline proper: title, one-line summary and the outcome bullet (the other bullets quote the call and may carry its numbers).
  const everything = [title, summary, bullets[0]?.text ?? ''].join(' ');
  return {
    bulletCountValid,
    bulletCount: bullets.length,
    titleRight: title !== '' && matchesGroups(title, expected.title),
    summaryRight: summary !== '' && matchesGroups(summary, expected.summary),
    ...(expected.outcome ? { outcomeRight: bullets.length > 0 && matchesGroups(bullets[0]!.text, expected.outcome) } : {}),
    avoidedWordsFound: (expected.avoid ?? []).filter((word) => matchesKeywords({ title: everything }, [word])),
  };
}

/** The expected amounts that no `numbersAndAmounts` entry carries, as its value or in its text (compared as numbers: "84.20" and 84.2 agree). */
export function amountsMissing(expected: readonly string[], found: ReadonlyArray<{ text: string; value: number | null }>): string[] {
  const asNumber = (text: string) => Number.parseFloat(text.replace(/,/g, '').replace(/[^\d.]/g, ''));
  const carried = found.flatMap((entry) => [entry.value ?? Number.NaN, asNumber(entry.text)]).filter((value) => Number.isFinite(value));
  return expected.filter((amount) => !carried.some((value) => Math.abs(value - asNumber(amount)) < 0.005));
}

/** A share: `right / total` as a fraction, null when there is nothing to count. */
export function ratio(right: number, total: number): number | null {
  return total === 0 ? null : right / total;
}

/** `87.5 % (7/8)`, or `— (0/0)`. */
export function percent(right: number, total: number): string {
  const share = ratio(right, total);
  return `${share === null ? '—' : `${(share * 100).toFixed(1)} %`} (${right}/${total})`;
}
