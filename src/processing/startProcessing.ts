import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../createServices.js';
import { recoverStorage } from '../domain/maintenance/recoverStorage.js';
import { missingModels, modelSettleMs } from '../infrastructure/models/missingModels.js';
import { whisperDtwUnavailableReason, whisperServerFromConfig } from '../pipeline/transcription/transcriptionOptionsFromConfig.js';
import type { WhisperServerProcess } from '../pipeline/transcription/WhisperServerProcess.js';
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

export interface ProcessingOptions {
  /** The lease the engine puts on its calls: the node's id. Defaults to a fresh one. */
  lease?: string;
  /**
   * On shared storage (PostgreSQL): the moment this node found no other live node of the site
   * (ms since the epoch), so that what was left half-written before it is a dead process's and
   * is repaired now rather than after an hour. Unset: other nodes may be at work.
   */
  aloneSince?: number;
  /** The leases of nodes known gone (see EngineDependencies.goneLeases). */
  goneLeases?: () => Promise<string[]>;
}

/**
 * Starts the processing side in this process (the production pipeline unless `pipeline` is
 * given, with calls waiting while a model it needs is missing): start-up repair of DATA_DIR (recoverStorage),
 * the worker pool, the engine (after its own recovery of calls left in flight), its readiness check, and its wake-up on every queued call.
 *
 * On the embedded database one engine processes a DATA_DIR: it takes the DATA_DIR lock (throwing
 * {@link ProcessingLockHeld} when another live process holds it) and so may take over every call
 * left in flight at once. On PostgreSQL any number of engines (nodes) share the queue and the
 * storage: no lock, and a call is taken over when its holder is known gone (`goneLeases`) or its
 * heartbeat is older than LEASE_TIMEOUT_SECONDS.
 */
export async function startProcessing(services: Services, log: FastifyBaseLogger, pipeline?: CallPipeline, options: ProcessingOptions = {}): Promise<Processing> {
  const exclusive = services.database.dialect === 'sqlite';
  const lock = exclusive ? new ProcessingLock(services.config.DATA_DIR) : undefined;
  lock?.acquire();
  // Before the engine takes a call: recovery removes work folders and temp files, which a run
  // under way would be using (alone: none can be; shared: only old ones of finished calls).
  try {
    const aloneSince = exclusive ? Number.POSITIVE_INFINITY : options.aloneSince;
    await recoverStorage(services, log, aloneSince === undefined ? {} : { aloneSince });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const pool = new WorkerPool(services.config.WORKER_THREADS, (error) => log.warn({ err: error }, 'worker pool error outside a task'));
  // The production pipeline's persistent whisper-server (started by the first call that needs it).
  const whisperServer = pipeline ? undefined : whisperServerFromConfig(services.config, () => log.warn(
    'whisper-server is not built (native/bin/whisper-server): every call runs whisper-cli and loads the model again; run `npm run build:native`',
  ));
  if (!pipeline) {
    void whisperDtwUnavailableReason(services.config).then((reason) => {
      if (reason) log.warn(`WHISPER_DTW: words are timed by whisper's token timestamps, which drift by seconds within a long segment (words may land in the wrong speaker's turn), because ${reason}`);
    });
  }
  const engine = new ProcessingEngine({
    services, pool, pipeline: pipeline ?? createServicePipeline(services, log, whisperServer), log, exclusive,
    ...(options.lease ? { lease: options.lease } : {}),
    ...(options.goneLeases ? { goneLeases: options.goneLeases } : {}),
    // The production pipeline's models: calls wait while one is missing. A pipeline given by the caller loads what it loads.
    ...(pipeline ? {} : { missingModels: () => missingModels(services.config, { settleMs: modelSettleMs }) }),
  });
  services.readinessChecks.workerPool = async () => {
    const depth = await engine.queue.depth();
    const waiting = engine.waitingForModels;
    return {
      status: engine.isRunning && !pool.isClosed ? 'UP' : 'DOWN',
      detail: {
        concurrency: engine.concurrency, threads: pool.threadCount, queuedCalls: depth.queued, callsInFlight: depth.inFlight, tasksWaiting: pool.queueSize,
        ...(services.config.TRANSCRIPTION_PROVIDER === 'callback' ? { callsAwaitingCallback: depth.awaitingCallback } : {}),
        ...(whisperServer ? { whisperServer: whisperServer.isRunning ? 'running' : 'not started', whisperServerStarts: whisperServer.starts } : {}),
        // Queued calls do not start while a model they need is missing: say which, and how to get it.
        ...(waiting.length > 0 ? { waitingForModels: waiting.map(({ configKey, label, expectedAt, howToInstall }) => ({ configKey, label, expectedAt, howToInstall })) } : {}),
      },
    };
  };
  const stopListening = services.queueSignal.listen(() => engine.wake());
  await engine.start();
  return {
    engine,
    pool,
    stop: async (graceMs = services.config.SHUTDOWN_GRACE_SECONDS * 1000) => {
      stopListening();
      const stopped = await engine.stop(graceMs);
      const [freed] = await Promise.all([pool.close(), whisperServer?.stop()]);
      lock?.release();
      log.info({ ...stopped, threads: freed.threads, resourcesFreed: freed.resourcesFreed }, 'processing stopped');
    },
  };
}

/** The production pipeline with the service's voice profiles, and a log line and metric per voice match. */
export function createServicePipeline(services: Services, log: FastifyBaseLogger, whisperServer?: WhisperServerProcess): CallPipeline {
  return createProductionPipeline(services.config, {
    ...(whisperServer ? { whisperServer } : {}),
    callback: services.callbackTranscription,
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
