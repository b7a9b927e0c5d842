import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';

export interface UserStats {
  totalCalls: number;
  callsThisWeek: number;
  openActionItems: number;
  overdueActionItems: number;
  completedActionItems: number;
  averageCallDurationSeconds: number;
}

/** Monday 00:00 UTC of the ISO week containing `now`, milliseconds. */
export function startOfIsoWeek(now: number): number {
  const date = new Date(now);
  const daysSinceMonday = (date.getUTCDay() + 6) % 7;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - daysSinceMonday);
}

/** The statistics of `GET /api/users/me/stats`; definitions are in docs/api.md and the schema. */
export async function computeUserStats(db: SqlDatabase, userId: string, now: number): Promise<UserStats> {
  const today = new Date(now).toISOString().slice(0, 10);
  const callFigures = await db.get<{ total: number; thisWeek: number; averageDuration: number | null }>(sql`
    SELECT count(*) AS total,
           count(CASE WHEN created_at >= ${startOfIsoWeek(now)} THEN 1 END) AS "thisWeek",
           avg(duration_seconds) AS "averageDuration"
    FROM calls WHERE user_id = ${userId} AND deleting_since IS NULL`);
  const itemFigures = await db.get<{ open: number; overdue: number; completed: number }>(sql`
    SELECT count(CASE WHEN status = 'PENDING' THEN 1 END) AS open,
           count(CASE WHEN status = 'PENDING' AND due_date IS NOT NULL AND due_date < ${today} THEN 1 END) AS overdue,
           count(CASE WHEN status = 'COMPLETED' THEN 1 END) AS completed
    FROM action_items WHERE user_id = ${userId}`);
  return {
    totalCalls: callFigures?.total ?? 0,
    callsThisWeek: callFigures?.thisWeek ?? 0,
    openActionItems: itemFigures?.open ?? 0,
    overdueActionItems: itemFigures?.overdue ?? 0,
    completedActionItems: itemFigures?.completed ?? 0,
    averageCallDurationSeconds: Math.round((callFigures?.averageDuration ?? 0) * 10) / 10,
  };
}
