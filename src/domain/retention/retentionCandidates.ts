import { sql, type SQL } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { coveredByActiveHold } from '../legalHolds/heldCalls.js';

const dayMs = 24 * 60 * 60_000;

/** Calls (or audio) older than this are past a retention of `days` days at `now`, ms; undefined when `days` is 0 (kept). */
export function retentionCutoff(now: number, days: number): number | undefined {
  return days > 0 ? now - days * dayMs : undefined;
}

/**
 * The two retentions, each as the rows of `calls` it applies to (held or not: the holds are
 * asked separately, so the preview can count what they keep).
 *
 * - `call`: CALL_RETENTION_DAYS deletes whole finished calls, counted from their upload
 *   (`created_at`, the server's own clock: the phone's recording time may be missing or wrong).
 * - `audio`: AUDIO_RETENTION_DAYS removes the audio of finished calls, counted from when they
 *   finished (`updated_at`, as before).
 */
export type RetentionKind = 'call' | 'audio';

const ageColumn: Record<RetentionKind, SQL> = { call: sql.raw('created_at'), audio: sql.raw('updated_at') };

/** `WHERE` condition (on `calls`) of what a retention with this cutoff applies to, held calls included. */
export function pastRetention(kind: RetentionKind, cutoff: number): SQL {
  const finished = sql`status IN ('COMPLETED', 'FAILED') AND deleting_since IS NULL AND ${ageColumn[kind]} < ${cutoff}`;
  return kind === 'audio' ? sql`${finished} AND audio_object_key IS NOT NULL` : finished;
}

/** One call a retention run would act on. */
export interface RetentionCandidate {
  callId: string;
  userId: string;
  /** The time its age is counted from (upload for calls, finish for audio), ms. */
  since: number;
}

/** How many calls a retention applies to now: `due` it will act on, `held` it skips for legal holds. */
export interface RetentionCounts {
  due: number;
  held: number;
}

export async function countPastRetention(db: SqlDatabase, kind: RetentionKind, cutoff: number): Promise<RetentionCounts> {
  const row = await db.get<RetentionCounts>(sql`SELECT count(CASE WHEN ${coveredByActiveHold} THEN NULL ELSE 1 END) AS due,
    count(CASE WHEN ${coveredByActiveHold} THEN 1 END) AS held FROM calls WHERE ${pastRetention(kind, cutoff)}`);
  return row ?? { due: 0, held: 0 };
}

/**
 * The unheld calls a retention acts on, oldest first, `limit` at a time; `after` continues
 * behind the last one of the previous page (keyset on the age column and id, so a call that
 * could not be deleted is passed over rather than asked for again).
 */
export function duePastRetention(db: SqlDatabase, kind: RetentionKind, cutoff: number, limit: number, after?: { since: number; callId: string }): Promise<RetentionCandidate[]> {
  const age = ageColumn[kind];
  const behind = after ? sql` AND (${age} > ${after.since} OR (${age} = ${after.since} AND id > ${after.callId}))` : sql``;
  return db.all<RetentionCandidate>(sql`SELECT id AS "callId", user_id AS "userId", ${age} AS since FROM calls
    WHERE ${pastRetention(kind, cutoff)} AND NOT ${coveredByActiveHold}${behind}
    ORDER BY ${age}, id LIMIT ${limit}`);
}
