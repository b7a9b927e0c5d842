import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { stat } from 'node:fs/promises';
import type { Services } from '../../createServices.js';
import { callObjectKeys } from '../../infrastructure/storage/ObjectStore.js';

/**
 * How old a file on shared storage must be before a starting node may treat it as left over:
 * another node's upload, run or deletion may be writing it right now. An hour is far beyond any
 * write's duration (uploads and stored documents take seconds; a run's files are guarded by its
 * call being in flight).
 */
export const sharedLeftoverAgeMs = 60 * 60_000;

export interface StorageRecoveryOptions {
  /**
   * Since when no other node can be writing (ms since the epoch): everything unfinished before it
   * is a dead process's, calls in flight included. `Infinity` for the holder of the embedded
   * database's lock (no other node at all); the moment of the look for a node that found no other
   * live node of the site (a node started after it writes only newer files). Unset: other nodes
   * share the storage, and only what is {@link sharedLeftoverAgeMs} old (and not of a call in
   * flight) is removed.
   */
  aloneSince?: number;
  now?: number;
}

/**
 * Start-up repair after a crash or a partial failure: drops unfinished temp writes (cut uploads),
 * finishes deletions that removed files but not rows, removes call folders that no row refers to
 * (the "orphaned objects" a failed deletion or a crash during an upload may leave) and, inside the
 * others, every file no row names (killed runs' work folders; but an unfinished call's `pending/`,
 * what it keeps while it waits for a transcription callback). Runs before the processing engine
 * starts, so no run of this process is writing there. Logs counts only.
 */
export async function recoverStorage(services: Pick<Services, 'store' | 'calls' | 'database'>, log: FastifyBaseLogger, options: StorageRecoveryOptions): Promise<void> {
  const { store, calls, database } = services;
  const { aloneSince, now = Date.now() } = options;
  const alone = aloneSince !== undefined;
  // Files last changed (and deletions claimed) before this moment are leftovers.
  const leftoverBefore = aloneSince ?? now - sharedLeftoverAgeMs;
  const oldEnough = async (key: string) => ((await stat(store.pathOf(key)).catch(() => undefined))?.mtimeMs ?? 0) < leftoverBefore;
  const clearedTemp = await store.clearTemp({ changedBefore: leftoverBefore });

  // A deletion another node is doing now is not interrupted: only claims older than that are finished here.
  const interrupted = (await calls.interruptedDeletions()).filter((call) => call.deletingSince < leftoverBefore);
  for (const { id } of interrupted) {
    await store.remove(callObjectKeys.prefix(id));
    await calls.removeRow(id);
  }

  let orphans = 0;
  let strayEntries = 0;
  const callFolders = await readdir(join(store.objectsDir, 'calls')).catch(() => [] as string[]);
  if (callFolders.length > 0) {
    const db = database.sql;
    const referenced = await referencedObjectKeys(db);
    const known = new Set((await db.all<{ id: string }>(sql`SELECT id FROM calls`)).map((row) => row.id));
    // What a call waiting for (or resuming after) a transcription callback keeps in `pending/`;
    // with other nodes, everything of a call that is queued or in flight (its run may be elsewhere).
    const unfinished = new Set((await db.all<{ id: string }>(sql`SELECT id FROM calls WHERE status IN ('QUEUED', 'TRANSCRIBING', 'ANALYZING')`)).map((row) => row.id));
    for (const folder of callFolders) {
      const prefix = callObjectKeys.prefix(folder);
      if (!known.has(folder)) {
        if (!(await oldEnough(prefix))) continue;
        await store.remove(prefix);
        orphans += 1;
        continue;
      }
      if (!alone && unfinished.has(folder)) continue;
      // Inside a live call's folder: what a killed run left (its `work/` folder, documents
      // written just before the crash whose rows were never committed).
      for (const entry of await readdir(store.pathOf(prefix)).catch(() => [] as string[])) {
        if (referenced.has(`${prefix}/${entry}`)) continue;
        if (entry === 'pending' && unfinished.has(folder)) continue;
        if (!(await oldEnough(`${prefix}/${entry}`))) continue;
        await store.remove(`${prefix}/${entry}`);
        strayEntries += 1;
      }
    }
  }
  if (interrupted.length > 0 || orphans > 0 || strayEntries > 0 || clearedTemp > 0) {
    log.info({ finishedDeletions: interrupted.length, orphanFolders: orphans, strayEntries, unfinishedTempFiles: clearedTemp }, 'storage recovered');
  }
}

/** Every object key a row names: calls' original audio and their stored documents. */
async function referencedObjectKeys(db: Services['database']['sql']): Promise<Set<string>> {
  const rows = await db.all<{ key: string }>(sql`
    SELECT audio_object_key AS key FROM calls WHERE audio_object_key IS NOT NULL
    UNION SELECT object_key AS key FROM call_artifacts`);
  return new Set(rows.map((row) => row.key));
}
