import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import type { ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import { ActionItemRepository } from '../actions/ActionItemRepository.js';
import { ArtifactRepository } from '../artifacts/ArtifactRepository.js';
import { readCallDocument } from '../artifacts/readCallDocument.js';
import type { CallRecord } from '../calls/callTypes.js';
import { searchDocumentsOf, type StoredDocument } from './searchDocumentsOf.js';
import { SearchIndex } from './SearchIndex.js';

export interface ReindexDependencies {
  database: SqlDatabase;
  store: ObjectStore;
}

/**
 * Rewrites a call's search rows from what is stored now (its title, transcript, analysis and
 * action items): after a change to the stored documents, such as a speaker correction. The
 * call's row is locked meanwhile (PostgreSQL `FOR UPDATE`; SQLite's write transaction), so a
 * concurrent reprocess or deletion waits. A call that is gone loses its rows; one that is not
 * COMPLETED keeps them (the search shows COMPLETED calls only, and completion rewrites them).
 */
export async function reindexCall(dependencies: ReindexDependencies, callId: string): Promise<'indexed' | 'removed' | 'not_completed'> {
  const { database, store } = dependencies;
  return database.transaction(async (tx) => {
    const index = new SearchIndex(tx);
    const call = await tx.get<Pick<CallRecord, 'id' | 'seq' | 'userId' | 'title' | 'status'>>(sql`SELECT id, seq, user_id AS "userId", title, status
      FROM calls WHERE id = ${callId} AND deleting_since IS NULL${tx.forUpdate}`);
    if (!call) {
      await index.removeCall(callId);
      return 'removed';
    }
    if (call.status !== 'COMPLETED') return 'not_completed';
    const artifacts = new ArtifactRepository(tx);
    const document = searchDocumentsOf(
      call,
      (await readCallDocument<StoredDocument>(artifacts, store, callId, 'transcript')).document,
      (await readCallDocument<StoredDocument>(artifacts, store, callId, 'analysis')).document,
      await new ActionItemRepository(tx).listForCall(callId),
    );
    await index.replaceCall(document);
    return 'indexed';
  });
}
