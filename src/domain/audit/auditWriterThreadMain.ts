import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteDatabase } from '../../infrastructure/database/sqlite/SqliteDatabase.js';
import { AccessAuditRepository } from './AccessAuditRepository.js';
import type { AuditWriterRequest, AuditWriterResponse, AuditWriterThreadData } from './auditWriter.js';

/**
 * The audit trail's writer thread (see AuditWriterThread): appends each batch it is sent with a
 * connection of its own, one batch after another (the trail sends the next only when this one
 * is answered, so the chain follows the order records were made).
 */
const { dataDir } = workerData as AuditWriterThreadData;
const database = openSqliteDatabase(dataDir);
const repository = new AccessAuditRepository(database.sql);

parentPort?.on('message', (request: AuditWriterRequest) => {
  repository.append(request.records).then(
    () => parentPort?.postMessage({ id: request.id, ok: true } satisfies AuditWriterResponse),
    (error: unknown) => parentPort?.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies AuditWriterResponse),
  );
});
