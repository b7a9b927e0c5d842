import { sql } from 'drizzle-orm';
import type { Clock } from '../../infrastructure/clock.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import type { ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import { ActionItemRepository, type ActionItemRecord } from '../actions/ActionItemRepository.js';
import { ArtifactRepository } from '../artifacts/ArtifactRepository.js';
import type { CallRecord, CallStatus } from '../calls/callTypes.js';
import type { Transcript } from '../transcripts/transcriptSchema.js';
import { applySpeakerCorrection, type CorrectionRefusal, type SpeakerCorrection } from './applySpeakerCorrection.js';
import { searchDocumentsOf } from '../search/searchDocumentsOf.js';
import { SearchIndex } from '../search/SearchIndex.js';
import { readCallDocument } from '../artifacts/readCallDocument.js';
import { SpeakerCorrectionRepository } from './SpeakerCorrectionRepository.js';

export interface CorrectCallSpeakersDependencies {
  database: SqlDatabase;
  store: ObjectStore;
  clock: Clock;
}

export type CorrectionOutcome =
  | { outcome: 'corrected'; transcript: Transcript }
  | { outcome: 'call_not_found' }
  | { outcome: 'not_completed'; status: CallStatus }
  | { outcome: CorrectionRefusal };

/**
 * Applies one speaker correction to a completed call of the user: the stored transcript and
 * analysis are rewritten, the action items' owners (and names in their text) updated, the
 * call's search rows rewritten, and the correction kept for a later reprocess; all while the
 * call's row is locked, so a concurrent correction, reprocess or deletion waits (PostgreSQL: `FOR UPDATE`; SQLite: the write
 * transaction). The documents are written before the rows commit: if the transaction then
 * fails, the documents hold the correction without its row, which only a reprocess would lose.
 */
export async function correctCallSpeakers(
  dependencies: CorrectCallSpeakersDependencies,
  userId: string,
  callId: string,
  correction: SpeakerCorrection,
): Promise<CorrectionOutcome> {
  const { database, store, clock } = dependencies;
  return database.transaction(async (tx): Promise<CorrectionOutcome> => {
    const call = await tx.get<Pick<CallRecord, 'id' | 'seq' | 'userId' | 'title' | 'status'>>(sql`SELECT id, seq, user_id AS "userId", title, status FROM calls
      WHERE id = ${callId} AND user_id = ${userId} AND deleting_since IS NULL${tx.forUpdate}`);
    if (!call) return { outcome: 'call_not_found' };
    if (call.status !== 'COMPLETED') return { outcome: 'not_completed', status: call.status };
    const artifacts = new ArtifactRepository(tx);
    const transcript = await readCallDocument<Transcript>(artifacts, store, callId, 'transcript');
    const analysis = await readCallDocument<Record<string, unknown>>(artifacts, store, callId, 'analysis');
    const actionItems = new ActionItemRepository(tx);
    const items = await actionItems.listForCall(callId);
    const corrected = applySpeakerCorrection({ transcript: transcript.document, analysis: analysis.document, actionItems: items }, correction);
    if (typeof corrected === 'string') return { outcome: corrected };
    const now = clock();
    await store.writeJson(transcript.objectKey, corrected.transcript);
    await store.writeJson(analysis.objectKey, corrected.analysis);
    for (const [index, item] of corrected.actionItems.entries()) {
      if (ownerOrTextChanged(items[index]!, item)) await actionItems.updateOwnerAndText(item, now);
    }
    await new SpeakerCorrectionRepository(tx).add(callId, correction, now);
    // Search hits show names and text as stored: the call's rows follow in the same transaction,
    // from the documents in hand (not read back from the store).
    await new SearchIndex(tx).replaceCall(searchDocumentsOf(call, corrected.transcript, corrected.analysis, corrected.actionItems));
    return { outcome: 'corrected', transcript: corrected.transcript };
  });
}

function ownerOrTextChanged(before: ActionItemRecord, after: ActionItemRecord): boolean {
  return before.title !== after.title || before.description !== after.description || before.intentMetadata !== after.intentMetadata
    || before.ownerSpeakerId !== after.ownerSpeakerId || before.ownerSpeakerLabel !== after.ownerSpeakerLabel
    || before.ownerDisplayName !== after.ownerDisplayName || before.ownerRole !== after.ownerRole;
}
