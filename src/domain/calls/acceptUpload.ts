import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Clock } from '../../infrastructure/clock.js';
import { holdPoint } from '../../infrastructure/faults/holdPoints.js';
import { callObjectKeys, type ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { IdempotencyRepository, type StoredResponse } from '../idempotency/IdempotencyRepository.js';
import { CallRepository } from './CallRepository.js';
import type { CallMetadata } from './callTypes.js';

export interface UploadToAccept {
  userId: string;
  /** The received file, already on disk; consumed (moved or removed) by {@link acceptUpload}. */
  tempPath: string;
  sizeBytes: number;
  format: string;
  fileName?: string;
  metadata: CallMetadata;
  idempotency?: { key: string; fingerprint: string };
}

export type AcceptOutcome =
  | { kind: 'accepted'; response: StoredResponse & { callId: string } }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' };

export interface AcceptUploadDependencies {
  database: SqlDatabase;
  store: ObjectStore;
  clock: Clock;
}

/**
 * Stores an upload as a QUEUED call. The audio is moved into place first and the call row and
 * the idempotency record are then committed in one transaction, so a 202 means both exist, and
 * of concurrent uploads with one Idempotency-Key exactly one creates a call (the others replay
 * its response and drop their copy of the file).
 */
export async function acceptUpload(dependencies: AcceptUploadDependencies, upload: UploadToAccept): Promise<AcceptOutcome> {
  const { database, store, clock } = dependencies;
  const callId = randomUUID();
  const audioKey = callObjectKeys.audio(callId, upload.format);
  try {
    await store.adoptTempFile(upload.tempPath, audioKey);
  } finally {
    await rm(upload.tempPath, { force: true });
  }
  // A crash here leaves audio that no row names: start-up recovery removes it (recoverStorage).
  await holdPoint('upload.accept');

  const now = clock();
  const response: StoredResponse = { statusCode: 202, body: JSON.stringify({ callId, status: 'QUEUED' }) };
  const commit = () => database.transaction(async (tx): Promise<AcceptOutcome> => {
    if (upload.idempotency) {
      // The key's record is inserted first: of concurrent uploads with one key (on any node), the insert picks one.
      const claim = await new IdempotencyRepository(tx).claimCompleted(upload.userId, upload.idempotency.key, upload.idempotency.fingerprint, response, now);
      if (!claim.claimed) {
        const { existing } = claim;
        if (existing.fingerprint !== upload.idempotency.fingerprint) return { kind: 'conflict' };
        if (existing.state === 'COMPLETE' && existing.statusCode !== null) {
          return { kind: 'replay', response: { statusCode: existing.statusCode, body: existing.responseBody } };
        }
        return { kind: 'conflict' };
      }
    }
    const { metadata } = upload;
    await new CallRepository(tx).insert({
      id: callId,
      userId: upload.userId,
      title: deriveTitle(metadata, upload.fileName, now),
      fileName: upload.fileName ?? null,
      contactName: metadata.contactName ?? null,
      contactId: metadata.contactId ?? null,
      phoneNumber: metadata.phoneNumber ?? null,
      organization: metadata.organization ?? null,
      direction: metadata.direction ?? 'UNKNOWN',
      status: 'QUEUED',
      durationSeconds: metadata.durationSeconds ?? null,
      recordedAt: metadata.recordedAt ? Date.parse(metadata.recordedAt) : null,
      audioFormat: upload.format,
      audioSizeBytes: upload.sizeBytes,
      audioObjectKey: audioKey,
      queuedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    return { kind: 'accepted', response: { ...response, callId } };
  });
  let outcome: AcceptOutcome;
  try {
    outcome = await commit();
  } catch (error) {
    await store.remove(callObjectKeys.prefix(callId));
    throw error;
  }

  // The folder was made for this request's fresh call id: remove it whole, not just the audio.
  if (outcome.kind !== 'accepted') await store.remove(callObjectKeys.prefix(callId));
  return outcome;
}

/**
 * The title shown for a call: the client's, else "Call with <contact>", else the file name
 * without its extension, else "Call on <date>" (UTC). Always non-empty.
 */
export function deriveTitle(metadata: CallMetadata, fileName: string | undefined, now: number): string {
  if (metadata.title) return metadata.title;
  if (metadata.contactName) return `Call with ${metadata.contactName}`;
  const baseName = fileName?.replace(/\.[^.]*$/, '').trim();
  if (baseName) return baseName.slice(0, 200);
  const date = metadata.recordedAt ? new Date(metadata.recordedAt) : new Date(now);
  return `Call on ${date.toISOString().slice(0, 10)}`;
}
