import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Services } from '../../createServices.js';
import { callObjectKeys } from '../../infrastructure/storage/ObjectStore.js';

/**
 * Start-up repair after a crash or a partial failure: drops unfinished temp writes (cut uploads),
 * finishes deletions that removed files but not rows, and removes call folders that no row
 * refers to (the "orphaned objects" a failed deletion may leave). Logs counts only.
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
  const callFolders = await readdir(join(store.objectsDir, 'calls')).catch(() => [] as string[]);
  if (callFolders.length > 0) {
    const known = new Set(database.db.all<{ id: string }>(sql`SELECT id FROM calls`).map((row) => row.id));
    for (const folder of callFolders) {
      if (known.has(folder)) continue;
      await store.remove(callObjectKeys.prefix(folder));
      orphans += 1;
    }
  }
  if (interrupted.length > 0 || orphans > 0) log.info({ finishedDeletions: interrupted.length, orphanFolders: orphans }, 'storage recovered');
}
