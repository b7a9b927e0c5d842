import { ActionItemRepository, type NewActionItemRecord } from '../actions/ActionItemRepository.js';
import { ArtifactRepository } from '../artifacts/ArtifactRepository.js';
import type { Clock } from '../../infrastructure/clock.js';
import { holdPoint } from '../../infrastructure/faults/holdPoints.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { callObjectKeys, type ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import { searchDocumentsOf } from '../search/searchDocumentsOf.js';
import { SearchIndex } from '../search/SearchIndex.js';
import type { WebhookOutbox } from '../webhooks/WebhookOutbox.js';
import { CallRepository } from './CallRepository.js';

/** A document with the version it was written in (transcript v2, analysis v1 or v2). */
export interface VersionedDocument {
  schemaVersion: number;
  [field: string]: unknown;
}

export interface CallResults {
  callId: string;
  transcript: VersionedDocument;
  analysis: VersionedDocument;
  /** Items to insert as the call's action items (replacing any from an earlier run). */
  actionItems: readonly Omit<NewActionItemRecord, 'callId' | 'userId'>[];
  /** Provenance stored with the analysis (which analyser and model produced it). */
  analysisProducer?: Record<string, unknown>;
  /** Whole seconds of decoded audio, when measured. */
  durationSeconds?: number;
  /**
   * Marks the call COMPLETED inside the storing transaction and says whether it could (the
   * processing run still holds the call). Defaults to an unconditional update.
   */
  complete?: (tx: SqlDatabase, now: number) => Promise<boolean>;
}

/** The call was no longer the storing run's (deleted, failed as stale): nothing was committed. */
export class ResultsNotAccepted extends Error {
  constructor(callId: string) {
    super(`results for call ${callId} were not accepted`);
    this.name = 'ResultsNotAccepted';
  }
}

export interface StoreCallResultsDependencies {
  database: SqlDatabase;
  store: ObjectStore;
  clock: Clock;
  /** Records the `call.completed` webhook in the completing transaction. Defaults to none. */
  webhooks?: WebhookOutbox;
}

/**
 * Completes a call: writes its transcript and analysis documents, then in one transaction
 * indexes them, replaces its action items and sets it COMPLETED. Safe to repeat (reprocess):
 * documents are overwritten and action items deleted then recreated.
 */
export async function storeCallResults(dependencies: StoreCallResultsDependencies, userId: string, results: CallResults): Promise<void> {
  const { database, store, clock } = dependencies;
  const transcriptKey = callObjectKeys.artifact(results.callId, 'transcript');
  const analysisKey = callObjectKeys.artifact(results.callId, 'analysis');
  await store.writeJson(transcriptKey, results.transcript);
  await store.writeJson(analysisKey, results.analysis);
  // A crash here leaves documents without rows; the call is run again after the restart.
  await holdPoint('results.store');
  const now = clock();
  await database.transaction(async (tx) => {
    const artifacts = new ArtifactRepository(tx);
    await artifacts.save({ callId: results.callId, kind: 'transcript', schemaVersion: results.transcript.schemaVersion, objectKey: transcriptKey, producer: null, createdAt: now });
    await artifacts.save({
      callId: results.callId, kind: 'analysis', schemaVersion: results.analysis.schemaVersion, objectKey: analysisKey,
      producer: results.analysisProducer ? JSON.stringify(results.analysisProducer) : null, createdAt: now,
    });
    await new ActionItemRepository(tx).replaceForCall(results.callId, results.actionItems.map((item) => ({ ...item, callId: results.callId, userId })));
    const completed = results.complete
      ? await results.complete(tx, now)
      : (await new CallRepository(tx).update(results.callId, {
        status: 'COMPLETED', errorReason: null, updatedAt: now,
        ...(results.durationSeconds !== undefined ? { durationSeconds: results.durationSeconds } : {}),
      }), true);
    // Throwing rolls the whole transaction back: no artifacts, no action items.
    if (!completed) throw new ResultsNotAccepted(results.callId);
    // Searchable from the moment it is COMPLETED; a reprocess replaces the earlier run's rows.
    const call = await new CallRepository(tx).findOwned(userId, results.callId);
    if (call) await new SearchIndex(tx).replaceCall(searchDocumentsOf(call, results.transcript, results.analysis, results.actionItems));
    await dependencies.webhooks?.callCompleted(tx, {
      callId: results.callId, userId, actionItemIds: results.actionItems.map((item) => item.id),
      ...(typeof results.transcript.cleanText === 'string' ? { transcriptText: results.transcript.cleanText } : {}),
    }, now);
  });
  dependencies.webhooks?.wake();
}
