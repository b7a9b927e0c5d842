import type { AccessAuditTrail } from '../audit/AccessAuditTrail.js';
import { deleteCall, type CallDeletionDependencies } from '../calls/deleteCall.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { duePastRetention, retentionCutoff, type RetentionCandidate } from './retentionCandidates.js';

export interface CallRetentionDependencies extends CallDeletionDependencies {
  database: { sql: SqlDatabase };
  accessAudit: Pick<AccessAuditTrail, 'record'>;
}

/** The audit trail's name for this job (`actorId` of its records). */
export const callRetentionActor = 'call-retention';

/** Calls asked for per page while a run goes through what is due. */
const pageSize = 100;

/**
 * Call retention: deletes every finished call uploaded more than `days` days ago (0: none)
 * through the owner's deletion (claim, files, then the row; the `call.deleted` webhook), skipping
 * calls under a legal hold (the claim asks again, so a hold placed meanwhile is honoured). Each
 * deletion is audited. Safe on several nodes at once: each call's claim is exclusive, and a call
 * another node deleted first is simply gone. Resolves to the ids deleted, oldest first.
 */
export async function runCallRetention(dependencies: CallRetentionDependencies, days: number): Promise<string[]> {
  const cutoff = retentionCutoff(dependencies.clock(), days);
  if (cutoff === undefined) return [];
  const deleted: string[] = [];
  let after: RetentionCandidate | undefined;
  for (;;) {
    const page = await duePastRetention(dependencies.database.sql, 'call', cutoff, pageSize, after);
    for (const call of page) {
      const deletion = await deleteCall(dependencies, call.userId, call.callId);
      if (deletion.outcome !== 'deleted') continue;
      dependencies.accessAudit.record({ actorKind: 'system', actorId: callRetentionActor, action: 'call.delete', callId: call.callId, detail: { reason: 'retention', retentionDays: days } });
      deleted.push(call.callId);
    }
    if (page.length < pageSize) return deleted;
    after = page.at(-1);
  }
}
