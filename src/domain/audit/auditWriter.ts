import { Worker } from 'node:worker_threads';
import type { UnchainedAuditRecord } from './auditChain.js';

/**
 * Where the trail's batches go: `append` numbers, hashes and stores one batch (see
 * AccessAuditRepository.append); `close` frees what the writer holds.
 */
export interface AuditWriter {
  append(records: readonly UnchainedAuditRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** What the writer thread is sent: one batch, numbered so its answer finds its caller. */
export interface AuditWriterRequest {
  id: number;
  records: readonly UnchainedAuditRecord[];
}

/** What the writer thread answers for one batch. */
export type AuditWriterResponse = { id: number; ok: true } | { id: number; ok: false; message: string };

/** What the writer thread opens: the SQLite database in this folder (`<dataDir>/callscope.db`). */
export interface AuditWriterThreadData {
  dataDir: string;
}

/**
 * Writes the trail's batches on a thread of its own, with its own connection to the SQLite
 * database. better-sqlite3 runs statements on the calling thread, so written inline a batch
 * would hold the event loop for ~20 µs a record (the chain's sha256 and three indexed inserts,
 * measured: 2,000 audited reads a second cost the request thread ~4 %); here the request thread
 * only posts the records. WAL mode lets the server's reads go on while the thread writes; its
 * write transactions and the server's wait for each other through the busy timeout, as the CLI's do.
 *
 * The thread starts with the first batch and is started again after it dies (its batch fails
 * and the trail keeps the records for the next try). PostgreSQL needs none of this: there the
 * inserts are network round trips that do not hold the event loop.
 */
export class AuditWriterThread implements AuditWriter {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(private readonly threadData: AuditWriterThreadData) {}

  append(records: readonly UnchainedAuditRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // Keeps the process alive while a batch is out; an idle thread never does.
      worker.ref();
      worker.postMessage({ id, records } satisfies AuditWriterRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const runningFromSources = import.meta.url.endsWith('.ts');
    const entry = new URL(`./auditWriterThreadMain.${runningFromSources ? 'ts' : 'js'}`, import.meta.url);
    const workerData = this.threadData satisfies AuditWriterThreadData;
    // From TypeScript sources (tests, `tsx`) the thread registers tsx before loading its entry:
    // Node does not apply a parent's `--import tsx` to a worker's own entry file.
    const worker = runningFromSources
      ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, workerData })
      : new Worker(entry, { workerData });
    worker.unref();
    worker.on('message', (response: AuditWriterResponse) => {
      const caller = this.waiting.get(response.id);
      this.waiting.delete(response.id);
      if (this.waiting.size === 0) worker.unref();
      if (response.ok) caller?.resolve();
      else caller?.reject(new Error(`audit trail write failed: ${response.message}`));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const caller of this.waiting.values()) caller.reject(error);
      this.waiting.clear();
    };
    worker.on('error', (error) => failAll(new Error(`audit trail writer thread failed: ${error.message}`)));
    worker.on('exit', (code) => failAll(new Error(`audit trail writer thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
