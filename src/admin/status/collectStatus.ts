import { sql } from 'drizzle-orm';
import type { Services } from '../../createServices.js';
import type { CallStatus } from '../../domain/calls/callTypes.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { runChecks } from '../../infrastructure/health/readinessChecks.js';
import { NodeRegistry } from '../../node/NodeRegistry.js';

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
 * stage timings, the latest failures, and every node of the site (from the shared database). Call ids, counts, durations and failure reasons only:
 * never titles, contact names, phone numbers, transcripts or user ids.
 */
export async function collectStatus(services: Pick<Services, 'database' | 'readinessChecks' | 'clock' | 'config'>) {
  const db = services.database.sql;
  const now = services.clock();
  const since = now - periodMs;

  const queueRows = await db.all<{ status: CallStatus; count: number }>(sql`SELECT status, count(*) AS count FROM calls
    WHERE deleting_since IS NULL GROUP BY status`);
  const queue = Object.fromEntries(callStatuses.map((status) => [status, queueRows.find((row) => row.status === status)?.count ?? 0])) as Record<CallStatus, number>;

  const finished = await db.all<{ status: CallStatus; count: number }>(sql`SELECT status, count(*) AS count FROM calls
    WHERE deleting_since IS NULL AND updated_at >= ${since} AND status IN ('COMPLETED', 'FAILED') GROUP BY status`);
  const finishedCount = (status: CallStatus) => finished.find((row) => row.status === status)?.count ?? 0;

  const events = await db.all<{ stage: string; outcome: string; durationMs: number | null }>(sql`SELECT stage, outcome, duration_ms AS "durationMs"
    FROM processing_events WHERE started_at >= ${since}`);

  const failures = await db.all<{ callId: string; failedAt: number; errorReason: string | null }>(sql`SELECT id AS "callId", updated_at AS "failedAt",
    error_reason AS "errorReason" FROM calls WHERE deleting_since IS NULL AND status = 'FAILED' ORDER BY updated_at DESC LIMIT ${recentFailureCount}`);

  return {
    health: { status: 'UP' as const },
    readiness: await runChecks(services.readinessChecks),
    queue,
    processedLast24h: { completed: finishedCount('COMPLETED'), failed: finishedCount('FAILED') },
    stageTimings: stageTimingsOf(events),
    recentFailures: failures.map((failure) => ({ callId: failure.callId, failedAt: toIsoTimestamp(failure.failedAt), errorReason: failure.errorReason })),
    nodes: (await new NodeRegistry(db).list(now, services.config.LEASE_TIMEOUT_SECONDS * 1000)).map((node) => ({
      id: node.id, host: node.host, role: node.role, version: node.version, processes: node.processes, state: node.state,
      startedAt: toIsoTimestamp(node.startedAt), lastHeartbeatAt: toIsoTimestamp(node.heartbeatAt), callsInFlight: node.callsInFlight, models: node.models,
    })),
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
