import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Services } from '../../createServices.js';
import { callObjectKeys } from '../../infrastructure/storage/ObjectStore.js';

/**
 * Start-up repair after a crash or a partial failure: drops unfinished temp writes (cut uploads),
 * finishes deletions that removed files but not rows, removes call folders that no row refers to
 * (the "orphaned objects" a failed deletion or a crash during an upload may leave) and, inside the
 * others, every file no row names (killed runs' work folders; but an unfinished call's `pending/`,
 * what it keeps while it waits for a transcription callback). Runs before the processing engine
 * starts, so no run of this process is writing there. Logs counts only.
 */
export async function recoverStorage(services: Pick<Services, 'store' | 'calls' | 'database'>, log: FastifyBaseLogger): Promise<void> {
  const { store, calls, database } = services;
  await store.clearTemp();

  const interrupted = calls.interruptedDeletions();
  for (const { id } of interrupted) {
    await store.remove(callObjectKeys.prefix(id));
    calls.removeRow(id);
  }

  let orphans = 0;
  let strayEntries = 0;
  const callFolders = await readdir(join(store.objectsDir, 'calls')).catch(() => [] as string[]);
  if (callFolders.length > 0) {
    const referenced = referencedObjectKeys(database);
    const known = new Set(database.db.all<{ id: string }>(sql`SELECT id FROM calls`).map((row) => row.id));
    // What a call waiting for (or resuming after) a transcription callback keeps in `pending/`.
    const unfinished = new Set(database.db.all<{ id: string }>(sql`SELECT id FROM calls WHERE status IN ('QUEUED', 'TRANSCRIBING', 'ANALYZING')`).map((row) => row.id));
    for (const folder of callFolders) {
      const prefix = callObjectKeys.prefix(folder);
      if (!known.has(folder)) {
        await store.remove(prefix);
        orphans += 1;
        continue;
      }
      // Inside a live call's folder: what a killed run left (its `work/` folder, documents
      // written just before the crash whose rows were never committed).
      for (const entry of await readdir(store.pathOf(prefix)).catch(() => [] as string[])) {
        if (referenced.has(`${prefix}/${entry}`)) continue;
        if (entry === 'pending' && unfinished.has(folder)) continue;
        await store.remove(`${prefix}/${entry}`);
        strayEntries += 1;
      }
    }
  }
  if (interrupted.length > 0 || orphans > 0 || strayEntries > 0) {
    log.info({ finishedDeletions: interrupted.length, orphanFolders: orphans, strayEntries }, 'storage recovered');
  }
}

/** Every object key a row names: calls' original audio and their stored documents. */
function referencedObjectKeys(database: Services['database']): Set<string> {
  const rows = database.db.all<{ key: string }>(sql`
    SELECT audio_object_key AS key FROM calls WHERE audio_object_key IS NOT NULL
    UNION SELECT object_key AS key FROM call_artifacts`);
  return new Set(rows.map((row) => row.key));
}
