import { sql } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';

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
export function computeUserStats(db: Db, userId: string, now: number): UserStats {
  const today = new Date(now).toISOString().slice(0, 10);
  const callFigures = db.get<{ total: number; thisWeek: number; averageDuration: number | null }>(sql`
    SELECT count(*) AS total,
           coalesce(sum(created_at >= ${startOfIsoWeek(now)}), 0) AS thisWeek,
           avg(duration_seconds) AS averageDuration
    FROM calls WHERE user_id = ${userId} AND deleting_since IS NULL`);
  const itemFigures = db.get<{ open: number; overdue: number; completed: number }>(sql`
    SELECT coalesce(sum(status = 'PENDING'), 0) AS open,
           coalesce(sum(status = 'PENDING' AND due_date IS NOT NULL AND due_date < ${today}), 0) AS overdue,
           coalesce(sum(status = 'COMPLETED'), 0) AS completed
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
