import { and, eq } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { callArtifacts } from '../../infrastructure/database/schema.js';

export type ArtifactKind = 'transcript' | 'analysis';
export type ArtifactRecord = typeof callArtifacts.$inferSelect;

/** Index rows of a call's transcript and analysis documents (the JSON is in the object store). */
export class ArtifactRepository {
  constructor(private readonly db: Db) {}

  find(callId: string, kind: ArtifactKind): ArtifactRecord | undefined {
    return this.db.select().from(callArtifacts).where(and(eq(callArtifacts.callId, callId), eq(callArtifacts.kind, kind))).get();
  }

  /** Records (or, on reprocess, replaces) the document of a kind. */
  save(record: ArtifactRecord): void {
    this.db.insert(callArtifacts).values(record)
      .onConflictDoUpdate({
        target: [callArtifacts.callId, callArtifacts.kind],
        set: { schemaVersion: record.schemaVersion, objectKey: record.objectKey, producer: record.producer, createdAt: record.createdAt },
      })
      .run();
  }
}
