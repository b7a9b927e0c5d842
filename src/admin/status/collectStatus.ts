import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Services } from '../../createServices.js';
import type { CallStatus } from '../../domain/calls/callTypes.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { calls, processingEvents } from '../../infrastructure/database/schema.js';
import { runChecks } from '../../infrastructure/health/readinessChecks.js';

/** The period the processed counts and stage timings cover, ms. */
const periodMs = 24 * 60 * 60_000;
const recentFailureCount = 20;
const callStatuses = ['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'COMPLETED', 'FAILED'] as const satisfies readonly CallStatus[];

export interface StageTiming {
  stage: string;
  runs: number;
  failures: number;
  /** Over the runs that ended; null when none did. */
  p50Ms: number | null;
  p95Ms: number | null;
}

/**
 * What the status page shows: health, readiness, the queue, the last 24 hours' throughput and
 * stage timings, and the latest failures. Call ids, counts, durations and failure reasons only:
 * never titles, contact names, phone numbers, transcripts or user ids.
 */
export async function collectStatus(services: Pick<Services, 'database' | 'readinessChecks' | 'clock'>) {
  const { db } = services.database;
  const now = services.clock();
  const since = now - periodMs;
  const live = isNull(calls.deletingSince);

  const queueRows = db.select({ status: calls.status, count: sql<number>`count(*)` }).from(calls).where(live).groupBy(calls.status).all();
  const queue = Object.fromEntries(callStatuses.map((status) => [status, queueRows.find((row) => row.status === status)?.count ?? 0])) as Record<CallStatus, number>;

  const finished = db.select({ status: calls.status, count: sql<number>`count(*)` }).from(calls)
    .where(and(live, gte(calls.updatedAt, since), sql`${calls.status} IN ('COMPLETED', 'FAILED')`)).groupBy(calls.status).all();
  const finishedCount = (status: CallStatus) => finished.find((row) => row.status === status)?.count ?? 0;

  const events = db.select({ stage: processingEvents.stage, outcome: processingEvents.outcome, durationMs: processingEvents.durationMs })
    .from(processingEvents).where(gte(processingEvents.startedAt, since)).all();

  const failures = db.select({ callId: calls.id, failedAt: calls.updatedAt, errorReason: calls.errorReason }).from(calls)
    .where(and(live, eq(calls.status, 'FAILED'))).orderBy(desc(calls.updatedAt)).limit(recentFailureCount).all();

  return {
    health: { status: 'UP' as const },
    readiness: await runChecks(services.readinessChecks),
    queue,
    processedLast24h: { completed: finishedCount('COMPLETED'), failed: finishedCount('FAILED') },
    stageTimings: stageTimingsOf(events),
    recentFailures: failures.map((failure) => ({ callId: failure.callId, failedAt: toIsoTimestamp(failure.failedAt), errorReason: failure.errorReason })),
  };
}

/** Per stage, in the order stages first appear: runs, failed runs, and duration percentiles. */
export function stageTimingsOf(events: readonly { stage: string; outcome: string; durationMs: number | null }[]): StageTiming[] {
  const byStage = new Map<string, { runs: number; failures: number; durations: number[] }>();
  for (const event of events) {
    const entry = byStage.get(event.stage) ?? { runs: 0, failures: 0, durations: [] };
    entry.runs += 1;
    if (event.outcome === 'FAILED') entry.failures += 1;
    if (event.durationMs !== null) entry.durations.push(event.durationMs);
    byStage.set(event.stage, entry);
  }
  return [...byStage].map(([stage, { runs, failures, durations }]) => {
    durations.sort((a, b) => a - b);
    return { stage, runs, failures, p50Ms: percentile(durations, 0.5), p95Ms: percentile(durations, 0.95) };
  });
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
