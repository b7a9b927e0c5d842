import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../createServices.js';
import { WorkerPool } from '../infrastructure/workers/WorkerPool.js';
import type { CallPipeline } from './CallPipeline.js';
import { ProcessingEngine } from './ProcessingEngine.js';
import { ProcessingLock } from './ProcessingLock.js';
import { createProductionPipeline } from './productionPipeline.js';

export interface Processing {
  engine: ProcessingEngine;
  pool: WorkerPool;
  /** Graceful stop: no new calls; running ones finish within the grace period or go back to the queue; threads free their models. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts the processing side in this process: the worker pool, the engine (after start-up
 * recovery), its readiness check, and its wake-up on every queued call. Throws
 * {@link ProcessingLockHeld} when another live process already processes this DATA_DIR.
 */
export function startProcessing(services: Services, log: FastifyBaseLogger, pipeline: CallPipeline = createServicePipeline(services, log)): Processing {
  const lock = new ProcessingLock(services.config.DATA_DIR);
  lock.acquire();
  const pool = new WorkerPool(services.config.WORKER_THREADS, (error) => log.warn({ err: error }, 'worker pool error outside a task'));
  const engine = new ProcessingEngine({ services, pool, pipeline, log });
  services.readinessChecks.workerPool = () => {
    const depth = engine.queue.depth();
    return {
      status: engine.isRunning && !pool.isClosed ? 'UP' : 'DOWN',
      detail: { concurrency: engine.concurrency, threads: pool.threadCount, queuedCalls: depth.queued, callsInFlight: depth.inFlight, tasksWaiting: pool.queueSize },
    };
  };
  const stopListening = services.queueSignal.listen(() => engine.wake());
  engine.start();
  return {
    engine,
    pool,
    stop: async (graceMs = services.config.SHUTDOWN_GRACE_SECONDS * 1000) => {
      stopListening();
      const stopped = await engine.stop(graceMs);
      const freed = await pool.close();
      lock.release();
      log.info({ ...stopped, threads: freed.threads, resourcesFreed: freed.resourcesFreed }, 'processing stopped');
    },
  };
}

/** The production pipeline with the service's voice profiles, and a log line and metric per voice match. */
export function createServicePipeline(services: Services, log: FastifyBaseLogger): CallPipeline {
  return createProductionPipeline(services.config, {
    voiceProfiles: services.voiceProfiles,
    onVoiceMatch: (callId, outcome) => {
      services.metrics.voiceMatches.inc({ outcome: outcome.status.toLowerCase() });
      // Outcome and counts only: no scores, no embeddings.
      log.info({
        callId, outcome: outcome.status, ...(outcome.confidence ? { confidence: outcome.confidence } : {}),
        comparedSpeakers: Object.keys(outcome.scores ?? {}).length,
      }, 'voice match');
    },
  });
}
