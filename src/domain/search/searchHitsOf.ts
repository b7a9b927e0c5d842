import type { SearchClause, SearchQuery } from './parseSearchQuery.js';
import type { SearchPiece, SearchPieceKind } from './searchDocumentsOf.js';
import { isAscii, searchTermsOf, type SearchTerm } from './searchTerms.js';

/** A piece of a call that the query matched, as the API shows it. */
export interface SearchHit {
  kind: SearchPieceKind;
  segmentId?: string;
  startSeconds?: number;
  speakerDisplayName?: string;
  actionItemId?: string;
  /** The piece's text (or a window of it) HTML-escaped, every match inside `<mark>…</mark>`. */
  snippet: string;
}

/** Characters of a piece shown whole in a snippet; a longer one is cut to a window around its first match. */
export const snippetMaxChars = 240;
/** Characters of context kept before the first match when a piece is cut. */
const snippetLeadChars = 60;

/** A stretch of the original text that matched (UTF-16 offsets, end exclusive). */
interface Span {
  start: number;
  end: number;
}

/**
 * The pieces of a call that match any clause of the query, best first (those matching more of
 * the query's clauses, then reading order: title, summary, action items, transcript), at most
 * `maxHits` of them, and how many pieces matched in all. Matching follows the index's rules
 * (same words, phrases inside one piece, prefixes), so a call the engine found has hits here.
 */
export function searchHitsOf(pieces: readonly SearchPiece[], query: SearchQuery, maxHits: number): { hits: SearchHit[]; hitCount: number } {
  const asciiPatterns = query.clauses.map(asciiPatternOf);
  const matched = pieces.flatMap((piece, order) => {
    const clausesMatched = clausesIn(piece.text, query.clauses, asciiPatterns);
    return clausesMatched > 0 ? [{ piece, order, clausesMatched }] : [];
  });
  matched.sort((a, b) => b.clausesMatched - a.clausesMatched || a.order - b.order);
  const hits = matched.slice(0, maxHits).map(({ piece }): SearchHit => {
    const words = searchTermsOf(piece.text);
    return {
      kind: piece.kind,
      ...(piece.segmentId !== undefined ? { segmentId: piece.segmentId } : {}),
      ...(piece.startSeconds !== undefined ? { startSeconds: piece.startSeconds } : {}),
      ...(piece.speakerDisplayName !== undefined ? { speakerDisplayName: piece.speakerDisplayName } : {}),
      ...(piece.actionItemId !== undefined ? { actionItemId: piece.actionItemId } : {}),
      snippet: snippetOf(piece.text, matchesIn(words, query.clauses).spans, words),
    };
  });
  return { hits, hitCount: matched.length };
}

/**
 * How many clauses occur in a text. ASCII text (most of it) is tested with one regular
 * expression per clause over the lower-cased text, where a word is `[a-z0-9]+` exactly as
 * searchTerms.ts cuts it; other text is cut into words.
 */
function clausesIn(text: string, clauses: readonly SearchClause[], asciiPatterns: readonly (RegExp | undefined)[]): number {
  if (!isAscii(text)) return matchesIn(searchTermsOf(text), clauses).clausesMatched;
  const lowered = text.toLowerCase();
  return asciiPatterns.reduce((count, pattern) => count + (pattern?.test(lowered) ? 1 : 0), 0);
}

/** The clause over lower-cased ASCII text; undefined when a word of it is not ASCII (it cannot occur there). */
function asciiPatternOf(clause: SearchClause): RegExp | undefined {
  if (!clause.terms.every((term) => /^[a-z0-9]+$/.test(term))) return undefined;
  return new RegExp(`(?<![a-z0-9])${clause.terms.join('[^a-z0-9]+')}${clause.prefix ? '' : '(?![a-z0-9])'}`);
}

function matchesIn(words: readonly SearchTerm[], clauses: readonly SearchClause[]): { spans: Span[]; clausesMatched: number } {
  const spans: Span[] = [];
  let clausesMatched = 0;
  for (const clause of clauses) {
    const before = spans.length;
    for (let first = 0; first + clause.terms.length <= words.length; first += 1) {
      if (clause.terms.every((term, offset) => termMatches(words[first + offset]!.term, term, clause.prefix && offset === clause.terms.length - 1))) {
        spans.push({ start: words[first]!.start, end: words[first + clause.terms.length - 1]!.end });
      }
    }
    if (spans.length > before) clausesMatched += 1;
  }
  return { spans: mergeSpans(spans), clausesMatched };
}

function termMatches(word: string, term: string, prefix: boolean): boolean {
  return prefix ? word.startsWith(term) : word === term;
}

/** Sorted, with overlapping or touching spans joined. */
function mergeSpans(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * The text HTML-escaped with its matches marked. A text longer than {@link snippetMaxChars} is
 * cut to a window that starts a little before the first match, on word boundaries, with `…`
 * where text was left out.
 */
export function snippetOf(text: string, spans: readonly Span[], words: readonly SearchTerm[]): string {
  let from = 0;
  let to = text.length;
  if (text.length > snippetMaxChars) {
    const first = spans[0] ?? { start: 0, end: 0 };
    from = words.find((word) => word.end > first.start - snippetLeadChars)?.start ?? 0;
    if (from > first.start) from = first.start;
    const limit = Math.max(from + snippetMaxChars, first.end);
    to = words.filter((word) => word.end <= limit).at(-1)?.end ?? limit;
    if (to < first.end) to = first.end;
  }
  let snippet = from > 0 ? '…' : '';
  let at = from;
  for (const span of spans) {
    if (span.end <= from || span.start >= to) continue;
    const start = Math.max(span.start, from);
    const end = Math.min(span.end, to);
    snippet += `${escapeHtml(text.slice(at, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    at = end;
  }
  snippet += escapeHtml(text.slice(at, to));
  return to < text.length ? `${snippet}…` : snippet;
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEntities[character]!);
}
