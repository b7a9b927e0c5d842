import type { CallRecord } from '../calls/callTypes.js';

export const searchPieceKinds = ['title', 'summary', 'action', 'segment'] as const;
export type SearchPieceKind = (typeof searchPieceKinds)[number];

/** One searchable piece of a call, with what a hit in it shows besides the snippet. */
export interface SearchPiece {
  kind: SearchPieceKind;
  text: string;
  /** `segment`: the transcript segment (`seg_NNNN`). */
  segmentId?: string;
  /** `segment`: where the segment starts in the recording, seconds. */
  startSeconds?: number;
  /** `segment`: who speaks, as the transcript names them now. */
  speakerDisplayName?: string;
  /** `action`: the action item's id. */
  actionItemId?: string;
}

/** What the search index holds of one completed call: its pieces in reading order (title, summary, action items, transcript). */
export interface SearchDocument {
  callId: string;
  /** The call's `seq`: on SQLite the index row's rowid; on both engines the "newest first" tie-break. */
  callSeq: number;
  userId: string;
  pieces: SearchPiece[];
}

/** A stored transcript or analysis document, read as JSON of any version. */
export type StoredDocument = Readonly<Record<string, unknown>>;

/**
 * The searchable pieces of a completed call: its title; the analysis's one-line summary and
 * executive-summary bullets (the prose summary instead when there are no bullets; a v1
 * analysis's `summary`); each action item's title and description; each transcript segment.
 * Documents are read defensively: a field of another shape is skipped, never fatal.
 */
export function searchDocumentsOf(
  call: Pick<CallRecord, 'id' | 'seq' | 'userId' | 'title'>,
  transcript: StoredDocument,
  analysis: StoredDocument,
  actionItems: readonly { id: string; title: string; description?: string | null }[],
): SearchDocument {
  const pieces: SearchPiece[] = [{ kind: 'title', text: call.title }];
  for (const text of summaryTextsOf(analysis)) pieces.push({ kind: 'summary', text });
  for (const item of actionItems) {
    pieces.push({ kind: 'action', text: item.description ? `${item.title}. ${item.description}` : item.title, actionItemId: item.id });
  }
  for (const segment of Array.isArray(transcript.segments) ? transcript.segments as unknown[] : []) {
    if (!isRecord(segment) || typeof segment.id !== 'string' || typeof segment.text !== 'string') continue;
    pieces.push({
      kind: 'segment', text: segment.text, segmentId: segment.id,
      ...(typeof segment.startSeconds === 'number' ? { startSeconds: segment.startSeconds } : {}),
      ...(typeof segment.speakerDisplayName === 'string' ? { speakerDisplayName: segment.speakerDisplayName } : {}),
    });
  }
  return { callId: call.id, callSeq: call.seq, userId: call.userId, pieces: pieces.filter((piece) => piece.text.trim().length > 0) };
}

function summaryTextsOf(analysis: StoredDocument): string[] {
  if (analysis.schemaVersion === 1) return typeof analysis.summary === 'string' ? [analysis.summary] : [];
  const bullets = (Array.isArray(analysis.executiveSummaryBullets) ? analysis.executiveSummaryBullets as unknown[] : [])
    .flatMap((bullet) => (isRecord(bullet) && typeof bullet.text === 'string' ? [bullet.text] : []));
  const prose = bullets.length === 0 && typeof analysis.executiveSummary === 'string' ? [analysis.executiveSummary] : [];
  return [...(typeof analysis.oneLineSummary === 'string' ? [analysis.oneLineSummary] : []), ...bullets, ...prose];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A piece as `search_calls.pieces` stores it, one JSON array each (half the size of objects
 * with field names, at tens of pieces per call): `[kind, text]`, `["action", text, actionItemId]`,
 * `["segment", text, segmentId, startSeconds|null, speakerDisplayName|null]`.
 */
type StoredPiece = [SearchPieceKind, string, ...(string | number | null)[]];

export function encodePieces(pieces: readonly SearchPiece[]): string {
  return JSON.stringify(pieces.map((piece): StoredPiece => {
    if (piece.kind === 'action') return [piece.kind, piece.text, piece.actionItemId ?? null];
    if (piece.kind === 'segment') return [piece.kind, piece.text, piece.segmentId ?? null, piece.startSeconds ?? null, piece.speakerDisplayName ?? null];
    return [piece.kind, piece.text];
  }));
}

export function decodePieces(stored: string): SearchPiece[] {
  return (JSON.parse(stored) as StoredPiece[]).map(([kind, text, ref, startSeconds, speakerDisplayName]) => ({
    kind, text,
    ...(kind === 'action' && typeof ref === 'string' ? { actionItemId: ref } : {}),
    ...(kind === 'segment' && typeof ref === 'string' ? { segmentId: ref } : {}),
    ...(typeof startSeconds === 'number' ? { startSeconds } : {}),
    ...(typeof speakerDisplayName === 'string' ? { speakerDisplayName } : {}),
  }));
}
