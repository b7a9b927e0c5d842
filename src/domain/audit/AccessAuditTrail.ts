import type { Clock } from '../../infrastructure/clock.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { AccessAuditRepository } from './AccessAuditRepository.js';
import { canonicalDetail, type AuditActorKind, type AuditDetail, type UnchainedAuditRecord } from './auditChain.js';
import type { AuditWriter } from './auditWriter.js';

/** One access to record: who, what, which call (or other target), from where. */
export interface AccessAuditEntry {
  actorKind: AuditActorKind;
  /** The user's id, `admin`, or the system job's name. */
  actorId: string;
  /** dotted, e.g. `transcript.read`, `call.export`, `admin.settings_change`. */
  action: string;
  callId?: string;
  /** What else was touched (an action item, a user, a setting), when not the call. */
  target?: string;
  clientIp?: string;
  /** Counts, formats, statuses: never transcript text, names, phone numbers or secrets. */
  detail?: AuditDetail;
}

/** Who did something, for functions that record on their caller's behalf (a deletion, say). */
export type AuditActor = Pick<AccessAuditEntry, 'actorKind' | 'actorId' | 'clientIp'>;

export interface AccessAuditTrailOptions {
  database: SqlDatabase;
  clock: Clock;
  /** Records are written this long after the first one of a batch arrives, ms. Defaults to `200`. */
  flushIntervalMs?: number;
  /** A batch this big is written at once, without waiting for the interval. Defaults to `100`. */
  batchSize?: number;
  /** Whether records are kept at all; off only to measure what the trail costs. Defaults to `true`. */
  enabled?: boolean;
  /**
   * What writes the batches: on SQLite the server passes an AuditWriterThread, so the writes
   * leave the request thread. Defaults to appending through `database` on the calling thread.
   */
  writer?: AuditWriter;
}

/** Told when a batch could not be written; `pending` records (it included) wait for the next try. */
export type AuditWriteErrorHandler = (error: unknown, pending: number) => void;

/**
 * The access audit trail: `record` is synchronous and costs the request an object in memory; the
 * records are written in batches, each in one transaction that chains them to the newest record
 * (see AccessAuditRepository.append). A batch that fails stays buffered and is tried again.
 */
export class AccessAuditTrail {
  readonly repository: AccessAuditRepository;
  private readonly writer: AuditWriter;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly enabled: boolean;
  private pending: UnchainedAuditRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The write under way, if any: writes go one after another, so the buffer's order is the chain's. */
  private writing: Promise<void> | undefined;
  private closed = false;
  private writeErrorHandler: AuditWriteErrorHandler | undefined;

  constructor(private readonly options: AccessAuditTrailOptions) {
    this.repository = new AccessAuditRepository(options.database);
    this.writer = options.writer ?? { append: (records) => this.repository.append(records), close: () => Promise.resolve() };
    this.flushIntervalMs = options.flushIntervalMs ?? 200;
    this.batchSize = options.batchSize ?? 100;
    this.enabled = options.enabled ?? true;
  }

  record(entry: AccessAuditEntry): void {
    if (!this.enabled) return;
    this.pending.push({
      at: this.options.clock(),
      actorKind: entry.actorKind,
      actorId: entry.actorId,
      action: entry.action,
      callId: entry.callId ?? null,
      target: entry.target ?? null,
      clientIp: entry.clientIp ?? null,
      detail: canonicalDetail(entry.detail),
    });
    if (this.pending.length >= this.batchSize) this.startWrite();
    else this.timer ??= this.schedule();
  }

  /** Where failed batch writes are reported (the node's log); unreported until set. */
  reportWriteErrorsTo(handler: AuditWriteErrorHandler): void {
    this.writeErrorHandler = handler;
  }

  /** Writes everything recorded so far; rejects when the database refuses it (it stays buffered). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.pending.length === 0) return;
    await this.writeBatch();
  }

  /**
   * Writes what is buffered, stops the timer and frees the writer; later records are written
   * by `flush` only (on the calling thread: a writer thread is not started again).
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      await this.flush();
    } finally {
      await this.writer.close();
    }
  }

  private schedule(): NodeJS.Timeout | undefined {
    if (this.closed) return undefined;
    const timer = setTimeout(() => {
      this.timer = undefined;
      this.startWrite();
    }, this.flushIntervalMs);
    timer.unref();
    return timer;
  }

  private startWrite(): void {
    if (this.writing || this.pending.length === 0) return;
    this.writeBatch().catch((error: unknown) => {
      this.writeErrorHandler?.(error, this.pending.length);
      this.timer ??= this.schedule();
    });
  }

  private writerNow(): Pick<AuditWriter, 'append'> {
    return this.closed ? this.repository : this.writer;
  }

  /** Writes the buffer as it stands; records arriving meanwhile wait for the next batch. */
  private writeBatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writerNow().append(batch).then(
      () => {
        this.writing = undefined;
        // What arrived during the write goes next (the timer may have fired while this one ran).
        if (this.pending.length >= this.batchSize) this.startWrite();
        else if (this.pending.length > 0) this.timer ??= this.schedule();
      },
      (error: unknown) => {
        this.writing = undefined;
        this.pending = [...batch, ...this.pending];
        throw error;
      },
    );
    return this.writing;
  }
}
