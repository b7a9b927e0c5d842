import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../../infrastructure/database/sqlFragments.js';
import { callArtifacts } from '../../infrastructure/database/tables.js';

export type ArtifactKind = 'transcript' | 'analysis';
export type ArtifactRecord = typeof callArtifacts.$inferSelect;

/** Index rows of a call's transcript and analysis documents (the JSON is in the object store). */
export class ArtifactRepository {
  constructor(private readonly db: SqlDatabase) {}

  find(callId: string, kind: ArtifactKind): Promise<ArtifactRecord | undefined> {
    return this.db.get<ArtifactRecord>(sql`SELECT ${columnsOf(callArtifacts)} FROM call_artifacts WHERE call_id = ${callId} AND kind = ${kind}`);
  }

  /** Records (or, on reprocess, replaces) the document of a kind. */
  async save(record: ArtifactRecord): Promise<void> {
    await this.db.run(sql`${insertInto(callArtifacts, [record])} ON CONFLICT (call_id, kind) DO UPDATE SET
      schema_version = excluded.schema_version, object_key = excluded.object_key, producer = excluded.producer, created_at = excluded.created_at`);
  }
}
