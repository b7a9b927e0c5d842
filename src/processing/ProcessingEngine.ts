import { randomUUID } from 'node:crypto';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { effectiveConcurrency } from '../config/effectiveConcurrency.js';
import type { Services } from '../createServices.js';
import type { CallRecord } from '../domain/calls/callTypes.js';
import { ResultsNotAccepted, storeCallResults } from '../domain/calls/storeCallResults.js';
import { maskPhoneNumber } from '../infrastructure/logging/maskPhoneNumber.js';
import { describeMissingModels, howToInstallAll, type MissingModel } from '../infrastructure/models/missingModels.js';
import { callObjectKeys } from '../infrastructure/storage/ObjectStore.js';
import type { WorkerPool } from '../infrastructure/workers/WorkerPool.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import type { CallPipeline, PipelineJob } from './CallPipeline.js';
import { AwaitingCallback } from './callbackTranscription.js';
import { CallRun, RunAborted } from './CallRun.js';
import { ProcessingEventRepository } from './ProcessingEventRepository.js';
import { ProcessingQueue } from './ProcessingQueue.js';
import { withSpeakerCorrections } from '../domain/speakerCorrections/applySpeakerCorrection.js';
import { SpeakerCorrectionRepository } from '../domain/speakerCorrections/SpeakerCorrectionRepository.js';
import { runCallRetention } from '../domain/retention/callRetention.js';

/** How often the engine looks for queued calls without being woken (uploads by other processes, the CLI), ms. */
const pollIntervalMs = 1000;
/** How often the stale-job sweep runs, ms (on every node: each call is failed by one conditional write, so nodes never both fail one). */
const staleSweepIntervalMs = 60_000;
/** How often audio past its retention is removed, ms. */
const retentionSweepIntervalMs = 60 * 60_000;
/**
 * How long `stop` waits for aborted runs to wind down, ms. Runs that honour their abort signal end
 * within milliseconds; one stuck in a stage that ignores it must not hold up the shutdown (its
 * call is already handed back, and the run can no longer write to it).
 */
const abortedRunWaitMs = 1000;

export interface EngineDependencies {
  services: Services;
  pool: WorkerPool;
  pipeline: CallPipeline;
  log: FastifyBaseLogger;
  /**
   * The models the pipeline needs that are not installed now (asked before every claim; calls
   * wait while it names any). Defaults to none: a pipeline that loads no model files.
   */
  missingModels?: () => MissingModel[];
  /**
   * The lease this engine puts on the calls it holds: its node's id (the `nodes` row), so the
   * admin page can tell which node holds a call. Defaults to a fresh random one.
   */
  lease?: string;
  /**
   * This engine is the only one on its database (the embedded SQLite database, whose DATA_DIR
   * lock it holds): at start it takes over every call another lease holds at once, since their
   * holders are known dead. Otherwise (PostgreSQL, many nodes) only calls whose heartbeat is
   * older than LEASE_TIMEOUT_SECONDS are taken over. Defaults to `false`.
   */
  exclusive?: boolean;
  /**
   * The leases of nodes known gone before their lease ran out (a crashed neighbour on the same
   * machine, this node's own predecessor): their calls are taken over at once. Asked at start
   * and on every heartbeat; defaults to none.
   */
  goneLeases?: () => Promise<string[]>;
}

/** How often a node marks its calls alive (and looks for calls of lost nodes): six beats per lease timeout, ms. */
export function heartbeatIntervalMs(config: { LEASE_TIMEOUT_SECONDS: number }): number {
  return Math.round((config.LEASE_TIMEOUT_SECONDS * 1000) / 6);
}

/**
 * Moves queued calls through the pipeline, `concurrency` at a time, durably: the queue is the
 * database, so a call accepted with 202 is processed even across crashes (start-up recovery
 * re-queues what a dead process held). The engine runs in the API process but never computes on
 * the event loop: stages use child processes (ffmpeg, whisper.cpp) and the worker pool.
 *
 * Calls wait while a model they need is not installed: the engine claims nothing until every
 * model file the pipeline needs is there (`missingModels`, asked before each claim), so a call uploaded
 * before the models arrive stays QUEUED and starts by itself once they are fetched, imported or
 * copied into place, without a restart.
 */
export class ProcessingEngine {
  readonly lease: string;
  readonly queue: ProcessingQueue;
  readonly events: ProcessingEventRepository;
  readonly concurrency: number;
  private readonly active = new Map<string, ActiveRun>();
  private stopping = false;
  private started = false;
  private filling = false;
  /** A wake arrived while a fill was under way: fill again when it ends. */
  private wakeRequested = false;
  private timers: NodeJS.Timeout[] = [];
  private missing: MissingModel[] = [];
  /** A call retention run is under way (runs can outlast the sweep interval on a large backlog). */
  private expiringCalls = false;

  constructor(private readonly dependencies: EngineDependencies) {
    const { services } = dependencies;
    this.lease = dependencies.lease ?? `engine-${randomUUID()}`;
    // Every way a call fails goes through the queue, which records its `call.failed` webhook.
    this.queue = new ProcessingQueue(services.database.sql, services.webhooks);
    this.events = new ProcessingEventRepository(services.database.sql);
    this.concurrency = effectiveConcurrency(services.config.WORKER_CONCURRENCY);
  }

  /** Calls being processed by this engine now. */
  get activeCallIds(): string[] {
    return [...this.active.keys()];
  }

  get isRunning(): boolean {
    return this.started && !this.stopping;
  }

  /** The models calls need that were not installed at the last look (empty: calls start). */
  get waitingForModels(): readonly MissingModel[] {
    return this.missing;
  }

  /** Takes over what a dead process (or a lost node) left in flight, then starts taking calls. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { services } = this.dependencies;
    await this.takeOverAbandoned(this.dependencies.exclusive === true);
    this.timers = [
      setInterval(() => void this.wake(), pollIntervalMs),
      setInterval(() => void this.beat(), heartbeatIntervalMs(services.config)),
      setInterval(() => void this.sweepStale(), staleSweepIntervalMs),
      setInterval(() => void this.expireAudio(), retentionSweepIntervalMs),
      setInterval(() => void this.expireCalls(), retentionSweepIntervalMs),
    ];
    for (const timer of this.timers) timer.unref();
    void this.expireAudio();
    void this.expireCalls();
    void this.wake();
  }

  /**
   * Calls whose holder is gone go back to the queue (or fail, past MAX_PROCESSING_ATTEMPTS):
   * every call of another lease at the start of an exclusive engine, else those of nodes known
   * gone and those whose heartbeat is older than LEASE_TIMEOUT_SECONDS. Their stage events left RUNNING are closed as INTERRUPTED.
   */
  async takeOverAbandoned(everyOtherLease = false): Promise<void> {
    const { services, log } = this.dependencies;
    const now = services.clock();
    try {
      const goneLeases = everyOtherLease ? [] : await (this.dependencies.goneLeases?.() ?? []);
      const taken = await this.queue.takeOverAbandoned(this.lease, {
        cutoff: now - services.config.LEASE_TIMEOUT_SECONDS * 1000, everyOtherLease, goneLeases, maxAttempts: services.config.MAX_PROCESSING_ATTEMPTS, now,
      });
      // An exclusive start knows every RUNNING event is a dead run's; otherwise only those of the calls taken over are.
      const interrupted = await this.events.closeInterrupted(now, everyOtherLease ? undefined : [...taken.requeued, ...taken.failed]);
      if (taken.requeued.length + taken.failed.length + interrupted > 0) {
        log.info({ requeued: taken.requeued.length, failed: taken.failed.length, interruptedStages: interrupted }, 'took over calls left in flight');
      }
      services.metrics.callsFinished.inc({ status: 'FAILED' }, taken.failed.length);
      if (taken.requeued.length > 0) void this.wake();
    } catch (error) {
      log.warn({ err: error }, 'could not look for calls left in flight (database unreachable?)');
    }
  }

  /**
   * The heartbeat: marks this engine's calls alive, stops runs whose call is no longer ours
   * (deleted, failed as stale, or taken over while this node could not reach the database),
   * and takes over the calls of lost nodes.
   */
  async beat(): Promise<void> {
    const { services, log } = this.dependencies;
    const before = new Set(this.active.keys());
    try {
      const held = new Set(await this.queue.beat(this.lease, services.clock()));
      for (const callId of before) {
        if (held.has(callId)) continue;
        const entry = this.active.get(callId);
        if (entry && !entry.finishing) entry.run.abort('lost');
      }
    } catch (error) {
      log.warn({ err: error }, 'heartbeat failed (database unreachable?)');
      return;
    }
    await this.takeOverAbandoned();
  }

  /** Takes queued calls while slots are free (called on upload, on a timer, and when a run ends). */
  async wake(): Promise<void> {
    if (!this.started || this.stopping) return;
    if (this.filling) {
      this.wakeRequested = true;
      return;
    }
    this.filling = true;
    try {
      do {
        this.wakeRequested = false;
        await this.fill();
      } while (this.wakeRequested && !this.stopping);
    } catch (error) {
      this.dependencies.log.error({ err: error }, 'could not take a call from the queue');
    } finally {
      this.filling = false;
    }
  }

  private async fill(): Promise<void> {
    const { metrics } = this.dependencies.services;
    if (!(await this.modelsInPlace())) {
      metrics.queueLooks.inc({ outcome: 'waiting_for_models' });
      return;
    }
    let claimedAny = false;
    while (this.active.size < this.concurrency && !this.stopping) {
      const claimed = await this.queue.claimNext(this.lease, this.dependencies.services.clock());
      if (!claimed) break;
      claimedAny = true;
      const run = new CallRun(claimed.call.id, claimed.lease, { ...this.dependencies, ...this.dependencies.services, queue: this.queue, events: this.events });
      const entry: ActiveRun = { run, finishing: false, done: Promise.resolve() };
      entry.done = this.process(run, claimed.call, () => { entry.finishing = true; }).finally(() => {
        // A run given up (stale) may end after its call was claimed again: keep the new run's entry.
        if (this.active.get(run.callId)?.run === run) this.active.delete(run.callId);
        void this.wake();
      });
      this.active.set(run.callId, entry);
    }
    metrics.queueLooks.inc({ outcome: claimedAny ? 'claimed' : 'nothing_claimed' });
  }

  /**
   * Whether every model calls need is installed; logs when that changes (once, not per poll),
   * naming what is missing and how to install it.
   */
  private async modelsInPlace(): Promise<boolean> {
    const { log } = this.dependencies;
    const missing = this.dependencies.missingModels?.() ?? [];
    const changed = missing.map((model) => model.slot).join() !== this.missing.map((model) => model.slot).join();
    this.missing = missing;
    if (changed && missing.length > 0) {
      log.warn({ missing: missing.map((model) => model.configKey), queuedCalls: (await this.queue.depth()).queued },
        `calls wait: ${describeMissingModels(missing)} ${missing.length === 1 ? 'is' : 'are'} not installed; ${howToInstallAll(missing)}`);
    } else if (changed) {
      log.info('every model calls need is installed: queued calls start');
    }
    return missing.length === 0;
  }

  /**
   * Fails in-flight calls whose stages reported no progress for STALE_JOB_MINUTES, and stops
   * their runs if they are ours (a stuck child process or worker).
   */
  async sweepStale(): Promise<string[]> {
    const { services, log } = this.dependencies;
    const minutes = services.config.STALE_JOB_MINUTES;
    const now = services.clock();
    const cutoff = now - minutes * 60_000;
    const failed: string[] = [];
    for (const stale of await this.queue.staleCalls(cutoff)) {
      const reason = `Processing made no progress${stale.stage ? ` during ${stale.stage}` : ''} for ${minutes} minutes and was stopped; the call can be reprocessed`;
      if (!(await this.queue.failStale(stale.id, reason, cutoff, now))) continue;
      this.active.get(stale.id)?.run.abort('stale');
      services.metrics.callsFinished.inc({ status: 'FAILED' });
      log.warn({ callId: stale.id, stage: stale.stage, minutes }, 'stale call failed');
      failed.push(stale.id);
    }
    // Calls waiting for a transcription callback: bounded by their own setting.
    const callbackMinutes = services.config.TRANSCRIPTION_CALLBACK_TIMEOUT_MINUTES;
    const callbackCutoff = now - callbackMinutes * 60_000;
    for (const id of await this.queue.overdueCallbacks(callbackCutoff)) {
      const reason = `The transcription server did not call back within ${callbackMinutes} minutes (TRANSCRIPTION_CALLBACK_TIMEOUT_MINUTES); the call can be reprocessed`;
      if (!(await this.queue.failWaiting(id, reason, now, callbackCutoff))) continue;
      await services.transcriptionJobs.abandonWaiting(id, now);
      void services.callbackTranscription.forget(id);
      services.metrics.callsFinished.inc({ status: 'FAILED' });
      log.warn({ callId: id, minutes: callbackMinutes }, 'call failed: no transcription callback in time');
      failed.push(id);
    }
    return failed;
  }

  /**
   * Audio retention: removes the original audio of calls finished more than AUDIO_RETENTION_DAYS
   * ago (0 keeps it). The transcript, analysis and action items stay; reprocessing is no longer
   * possible for those calls. Audio of a call under a legal hold is kept. Each removal is audited.
   */
  async expireAudio(): Promise<number> {
    const { services, log } = this.dependencies;
    const days = services.config.AUDIO_RETENTION_DAYS;
    if (days === 0) return 0;
    let removed = 0;
    for (const { id, audioKey } of await this.queue.expiredAudio(services.clock() - days * 24 * 60 * 60_000)) {
      // The row first: once it no longer names the file, nothing will start processing it.
      if (!(await this.queue.forgetAudio(id, audioKey))) continue;
      await services.store.remove(audioKey);
      services.accessAudit.record({ actorKind: 'system', actorId: 'audio-retention', action: 'audio.delete', callId: id, detail: { reason: 'retention', retentionDays: days } });
      removed += 1;
    }
    if (removed > 0) log.info({ removed, retentionDays: days }, 'audio past retention removed');
    return removed;
  }

  /**
   * Call retention (CALL_RETENTION_DAYS; 0 keeps calls): deletes whole finished calls past it,
   * except those under a legal hold (see runCallRetention). One run at a time in this process;
   * other nodes may run theirs at once (each call's deletion claim is exclusive). Never rejects.
   */
  async expireCalls(): Promise<string[]> {
    const { services, log } = this.dependencies;
    if (this.expiringCalls || services.config.CALL_RETENTION_DAYS === 0) return [];
    this.expiringCalls = true;
    try {
      const deleted = await runCallRetention(services, services.config.CALL_RETENTION_DAYS);
      for (const callId of deleted) log.info({ callId }, 'call past retention deleted');
      return deleted;
    } catch (error) {
      log.error({ err: error }, 'call retention run failed; the next run tries again');
      return [];
    } finally {
      this.expiringCalls = false;
    }
  }

  /**
   * Stops taking calls; lets running ones finish for up to `graceMs`, then aborts them and hands
   * them back to the queue so the next start runs them again.
   */
  async stop(graceMs: number): Promise<{ finished: number; handedBack: number }> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    const running = [...this.active.values()];
    const allDone = Promise.allSettled(running.map((entry) => entry.done));
    const timedOut = await Promise.race([allDone.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref())]);
    let handedBack = 0;
    if (timedOut) {
      for (const { run } of this.active.values()) {
        run.abort('shutdown');
        if (await this.queue.handBack(run.callId, run.lease, this.dependencies.services.clock())) handedBack += 1;
      }
      await Promise.race([allDone, new Promise((resolve) => setTimeout(resolve, abortedRunWaitMs).unref())]);
    }
    return { finished: running.length - handedBack, handedBack };
  }

  /** `finishing` is called once the pipeline is done and its results are being stored: the heartbeat no longer stops the run. */
  private async process(run: CallRun, call: CallRecord, finishing: () => void): Promise<void> {
    const { services, pipeline, log } = this.dependencies;
    // A folder per run: a run given up as stale that ends late must not remove the next run's files.
    const workRoot = services.store.pathOf(`${callObjectKeys.prefix(call.id)}/work`);
    const workDir = services.store.pathOf(`${callObjectKeys.prefix(call.id)}/work/${randomUUID()}`);
    const startedAt = services.clock();
    try {
      if (!call.audioObjectKey) throw new StageFailure('bad_input', 'The original audio is no longer held, so the call cannot be processed');
      // Also clears what crashed or abandoned runs of the call left.
      await rm(workRoot, { recursive: true, force: true });
      await mkdir(workDir, { recursive: true });
      const user = await services.users.findById(call.userId);
      const job: PipelineJob = {
        callId: call.id,
        userId: call.userId,
        audioPath: services.store.pathOf(call.audioObjectKey),
        audioFormat: call.audioFormat,
        workDir,
        metadata: {
          title: call.title,
          ...(call.contactName ? { contactName: call.contactName } : {}),
          ...(call.contactId ? { contactId: call.contactId } : {}),
          ...(call.phoneNumber ? { phoneNumber: call.phoneNumber } : {}),
          ...(call.organization ? { organization: call.organization } : {}),
          direction: call.direction,
          ...(call.recordedAt !== null ? { recordedAt: new Date(call.recordedAt).toISOString() } : {}),
          ...(call.durationSeconds !== null ? { durationSeconds: call.durationSeconds } : {}),
        },
        recordedAt: call.recordedAt ?? call.createdAt,
        ...(user?.displayName ? { userDisplayName: user.displayName } : {}),
      };
      log.info({ callId: call.id, ...(call.phoneNumber ? { phoneNumber: maskPhoneNumber(call.phoneNumber) } : {}) }, 'processing started');
      // A reprocess keeps what the owner corrected by hand (speaker names, roles, merges).
      const result = withSpeakerCorrections(await pipeline(job, run), await new SpeakerCorrectionRepository(services.database.sql).listForCall(call.id));
      await run.ensureHeld();
      const analysis = run.warnings.length > 0 ? withWarnings(result.analysis, run.warnings) : result.analysis;
      finishing();
      await storeCallResults({ ...services, database: services.database.sql }, call.userId, {
        callId: call.id,
        transcript: result.transcript,
        analysis,
        actionItems: result.actionItems,
        analysisProducer: result.analysisProducer,
        durationSeconds: result.durationSeconds,
        complete: (tx, now) => new ProcessingQueue(tx).complete(call.id, run.lease, result.durationSeconds, now),
      });
      // What a call kept while it waited for a transcription callback is no longer needed.
      await services.callbackTranscription.forget(call.id);
      services.metrics.callsFinished.inc({ status: 'COMPLETED' });
      log.info({ callId: call.id, durationMs: services.clock() - startedAt, actionItems: result.actionItems.length, warnings: run.warnings.length }, 'call completed');
    } catch (error) {
      await this.endWithFailure(run, error);
    } finally {
      await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      // Fails, as it should, while another run of the call still works there.
      await rmdir(workRoot).catch(() => undefined);
      // A call deleted while we worked must not keep the files this run wrote.
      if (!(await services.calls.existsEvenDeleting(call.id))) await services.store.remove(callObjectKeys.prefix(call.id));
    }
  }

  private async endWithFailure(run: CallRun, error: unknown): Promise<void> {
    const { services, log } = this.dependencies;
    if (error instanceof RunAborted || error instanceof ResultsNotAccepted) {
      log.info({ callId: run.callId, why: error instanceof RunAborted ? error.why : 'lost' }, 'run stopped');
      return;
    }
    // A model removed between the claim and its stage: the call waits for it like a queued one
    // (unless the file is back already, which would only claim and fail the call again).
    if (error instanceof StageFailure && error.kind === 'model_missing' && !(await this.modelsInPlace())) {
      if (await this.queue.handBack(run.callId, run.lease, services.clock())) log.info({ callId: run.callId }, 'call waits for a model that is not installed');
      return;
    }
    if (error instanceof AwaitingCallback) {
      // The provider has the job: let go of the call (no lease, no slot) until its callback,
      // or send it straight back to the queue when that came already.
      const job = await services.transcriptionJobs.find(error.jobId);
      if (job?.state === 'failed' && job.errorReason) {
        // The provider reported a failure before the run ended.
        if (await this.queue.fail(run.callId, run.lease, job.errorReason, services.clock())) {
          await services.callbackTranscription.forget(run.callId);
          services.metrics.callsFinished.inc({ status: 'FAILED' });
        }
        return;
      }
      const answered = job?.state === 'received';
      if (await this.queue.awaitCallback(run.callId, run.lease, answered, services.clock())) {
        log.info({ callId: run.callId, answered }, answered ? 'transcription callback came first: call queued again' : 'call waits for the transcription provider\'s callback');
        if (answered) void this.wake();
      }
      return;
    }
    const reason = error instanceof StageFailure ? error.reason : 'An internal error stopped processing; the call can be reprocessed';
    if (!(error instanceof StageFailure)) log.error({ err: error, callId: run.callId }, 'processing failed unexpectedly');
    if (await this.queue.fail(run.callId, run.lease, reason, services.clock())) {
      await services.callbackTranscription.forget(run.callId);
      services.metrics.callsFinished.inc({ status: 'FAILED' });
      log.info({ callId: run.callId, failure: error instanceof StageFailure ? error.kind : 'internal' }, 'call failed');
    }
  }
}

interface ActiveRun {
  run: CallRun;
  done: Promise<void>;
  /** The pipeline ended and the results are being stored (the lease is released by that write). */
  finishing: boolean;
}

/** Adds quality warnings to a stored document's `qualityWarnings` list (v2 analyses carry one). */
function withWarnings<T extends { schemaVersion: number; [field: string]: unknown }>(document: T, warnings: string[]): T {
  const existing = Array.isArray(document.qualityWarnings) ? (document.qualityWarnings as string[]) : [];
  return { ...document, qualityWarnings: [...existing, ...warnings] };
}
