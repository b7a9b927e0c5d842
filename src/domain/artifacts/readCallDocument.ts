import type { ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import type { ArtifactKind, ArtifactRepository } from './ArtifactRepository.js';

/** A stored document of a completed call and where it lives (to write it back in place). */
export interface CallDocument<T> {
  objectKey: string;
  document: T;
}

/**
 * A completed call's transcript or analysis, read from the object store through its index row.
 * A completed call always has both: a missing one is a fault of the server, not of the request.
 */
export async function readCallDocument<T>(artifacts: Pick<ArtifactRepository, 'find'>, store: Pick<ObjectStore, 'readJson'>, callId: string, kind: ArtifactKind): Promise<CallDocument<T>> {
  const artifact = await artifacts.find(callId, kind);
  if (!artifact) throw new Error(`completed call ${callId} has no ${kind} document`);
  return { objectKey: artifact.objectKey, document: await store.readJson<T>(artifact.objectKey) };
}
