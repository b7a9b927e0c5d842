import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../infrastructure/clock.js';
import type { Metrics } from '../infrastructure/metrics/Metrics.js';
import type { WorkerPool } from '../infrastructure/workers/WorkerPool.js';
import type { StageContext } from '../pipeline/StageContext.js';
import type { PipelineRun } from './CallPipeline.js';
import { holdPoint } from '../infrastructure/faults/holdPoints.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import type { ProcessingEventRepository } from './ProcessingEventRepository.js';
import type { ProcessingQueue } from './ProcessingQueue.js';
import { AwaitingCallback } from './callbackTranscription.js';

/** The user-visible phase a stage belongs to: the call's status while it runs. */
export type CallPhase = 'TRANSCRIBING' | 'ANALYZING';

export interface StageDefinition {
  /** Stage name in events, metrics and logs, e.g. `cleanup`. */
  name: string;
  phase: CallPhase;
  /** Share of the whole run's progress this stage accounts for (weights of a pipeline sum to 1). */
  weight: number;
  /** Extra attempts after a `transient` failure. Defaults to 0. */
  transientRetries?: number;
}

/** Thrown when the run lost its call (deleted, swept as stale, shutdown): stop quietly. */
export class RunAborted extends Error {
  constructor(readonly why: 'lost' | 'stale' | 'shutdown') {
    super(`run aborted: ${why}`);
    this.name = 'RunAborted';
  }
}

export interface CallRunDependencies {
  queue: ProcessingQueue;
  events: ProcessingEventRepository;
  pool: WorkerPool;
  metrics: Metrics;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Progress writes per call are throttled to one per this many ms (each is a database write). */
const progressWriteIntervalMs = 1000;

/**
 * One processing run of one call, and the hook every stage runs through (as pyannote's
 * pipelines call a hook after each step): it writes the processing event, reports progress,
 * records metrics and one log line, applies the retry rule, and stops when the call is lost.
 */
export class CallRun implements PipelineRun {
  readonly abortController = new AbortController();
  /** Quality warnings gathered from optional stages that failed. */
  readonly warnings: string[] = [];
  private completedWeight = 0;
  private lastProgressWrite = 0;

  constructor(readonly callId: string, readonly lease: string, private readonly dependencies: CallRunDependencies) {}

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Gives the call up; the stage running now sees its signal aborted. */
  abort(why: RunAborted['why']): void {
    if (!this.signal.aborted) this.abortController.abort(new RunAborted(why));
  }

  /** Moves the call to the phase's status (TRANSCRIBING → ANALYZING). */
  async enterPhase(phase: CallPhase): Promise<void> {
    await this.ensureHeld();
    if (!(await this.dependencies.queue.setStatus(this.callId, this.lease, phase, this.dependencies.clock()))) this.lose();
  }

  /** Runs a required stage: its failure ends the run (after the stage's transient retries). */
  async stage<T>(definition: StageDefinition, work: (context: StageContext) => Promise<T>): Promise<T> {
    const { events, metrics, clock, log } = this.dependencies;
    await this.ensureHeld();
    await this.reportProgress(definition, 0, true);
    for (let attempt = 0; ; attempt += 1) {
      const startedAt = clock();
      const eventId = await events.start(this.callId, definition.name, startedAt);
      try {
        await holdPoint(`stage.${definition.name}`, this.signal);
        const output = await work(this.contextFor(definition));
        await this.ensureHeld();
        await this.finishStage(eventId, definition, 'OK', startedAt);
        this.completedWeight += definition.weight;
        return output;
      } catch (error) {
        if (this.signal.aborted || error instanceof RunAborted) {
          await this.finishStage(eventId, definition, 'INTERRUPTED', startedAt);
          throw this.signal.reason instanceof RunAborted ? this.signal.reason : error;
        }
        if (error instanceof AwaitingCallback) {
          await this.finishStage(eventId, definition, 'WAITING', startedAt);
          throw error;
        }
        const retry = error instanceof StageFailure && error.kind === 'transient' && attempt < (definition.transientRetries ?? 0);
        await this.finishStage(eventId, definition, retry ? 'RETRIED' : 'FAILED', startedAt, failureDetail(error));
        if (!retry) throw error;
        log.warn({ callId: this.callId, stage: definition.name, attempt: attempt + 1 }, 'stage failed transiently; retrying');
        metrics.stageRetries.inc({ stage: definition.name });
      }
    }
  }

  /**
   * Runs a stage whose failure must not fail the call (action-item extraction): on failure the
   * call goes on with `fallback` and a quality warning.
   */
  async optionalStage<T>(definition: StageDefinition, work: (context: StageContext) => Promise<T>, fallback: T, warning: string): Promise<T> {
    try {
      return await this.stage(definition, work);
    } catch (error) {
      if (error instanceof RunAborted) throw error;
      this.completedWeight += definition.weight;
      this.warnings.push(warning);
      return fallback;
    }
  }

  /** Throws {@link RunAborted} when the call is no longer this run's. */
  async ensureHeld(): Promise<void> {
    if (this.signal.aborted) throw this.signal.reason instanceof RunAborted ? this.signal.reason : new RunAborted('lost');
    if (!(await this.dependencies.queue.holds(this.callId, this.lease))) this.lose();
  }

  private lose(): never {
    this.abort('lost');
    throw new RunAborted('lost');
  }

  private contextFor(definition: StageDefinition): StageContext {
    return {
      signal: this.signal,
      // Stages report synchronously, often; the write (at most one a second) goes on in the background.
      reportProgress: (fraction) => {
        this.reportProgress(definition, fraction, false).catch((error: unknown) => {
          this.dependencies.log.warn({ err: error, callId: this.callId }, 'could not record progress');
        });
      },
      runInWorker: (name, input) => this.dependencies.pool.run(name, input, this.signal),
    };
  }

  private async reportProgress(definition: StageDefinition, fraction: number, force: boolean): Promise<void> {
    const now = this.dependencies.clock();
    if (!force && now - this.lastProgressWrite < progressWriteIntervalMs) return;
    this.lastProgressWrite = now;
    const overall = Math.min(1, this.completedWeight + definition.weight * Math.min(1, Math.max(0, fraction)));
    if (!(await this.dependencies.queue.reportProgress(this.callId, this.lease, definition.name, overall, now))) this.abort('lost');
  }

  private async finishStage(eventId: number, definition: StageDefinition, outcome: 'OK' | 'FAILED' | 'RETRIED' | 'INTERRUPTED' | 'WAITING', startedAt: number, detail?: Record<string, unknown>): Promise<void> {
    const { events, metrics, clock, log } = this.dependencies;
    const endedAt = clock();
    const durationMs = endedAt - startedAt;
    await events.finish(eventId, outcome, endedAt, detail);
    metrics.stageDuration.observe({ stage: definition.name, outcome }, durationMs / 1000);
    // One line per stage: names, durations and counts only.
    log.info({ callId: this.callId, stage: definition.name, outcome, durationMs, ...(detail ? { failure: detail.kind } : {}) }, 'stage finished');
  }
}

/** What an event records about a failure: its kind only (the reason may be shown to users, not logged twice). */
function failureDetail(error: unknown): Record<string, unknown> {
  return { kind: error instanceof StageFailure ? error.kind : 'internal' };
}
