import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { createServices } from '../../src/createServices.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { readCallDocument } from '../../src/domain/artifacts/readCallDocument.js';
import { acceptUpload } from '../../src/domain/calls/acceptUpload.js';
import type { Transcript } from '../../src/domain/transcripts/transcriptSchema.js';
import { startProcessing } from '../../src/processing/startProcessing.js';
import { loadAverageNow, ProcessTreeMonitor } from './ProcessTreeMonitor.js';

export interface ServiceRunOptions {
  /** The recording as a phone uploads it (M4A). */
  recordingPath: string;
  /** Its length, seconds. */
  audioSeconds: number;
  /** Callscope settings on top of the environment (models, provider, threads). */
  settings: Record<string, string>;
  /** A folder for the run's DATA_DIR; the caller removes it. */
  work: string;
}

const Megabytes = Type.Number({ description: 'MB (2^20 bytes).' });
const CpuSeconds = Type.Number({ description: 'CPU seconds, user + system, of the service\'s process and its children.' });

export const StageMeasureSchema = Type.Object({
  stage: Type.String(),
  outcome: Type.String(),
  /** From the stage's start to its end, as the processing event records it. */
  wallSeconds: Type.Number(),
  cpuSeconds: CpuSeconds,
  peakMegabytes: Megabytes,
});
export type StageMeasure = Static<typeof StageMeasureSchema>;

/** What one call through the service cost: one process's answer to `bench:speech`, read back by the bench. */
export const ServiceRunMeasureSchema = Type.Object({
  audioSeconds: Type.Number(),
  /** From the processing's start to the call's end. */
  wallSeconds: Type.Number(),
  cpuSeconds: CpuSeconds,
  /** The largest resident memory of the service's process and its children together, sampled every 100 ms. */
  peakMegabytes: Megabytes,
  /** Each program's own peak (`VmHWM`): `node` is the service's process (worker threads included). */
  peakMegabytesByProgram: Type.Record(Type.String(), Megabytes),
  stages: Type.Array(StageMeasureSchema),
  /**
   * Outside the stages (the engine's claim, database writes, storing the results). Wall: the whole
   * less the stages' own times. CPU and memory: after the last stage only, since what runs between
   * two stages is counted with the next one.
   */
  outsideStages: Type.Object({ wallSeconds: Type.Number(), cpuSeconds: CpuSeconds, peakMegabytes: Megabytes }),
  status: Type.String(),
  errorReason: Type.Optional(Type.String()),
  /** 1-minute load average of the machine at the start and at the end of the processing. */
  loadAverage: Type.Object({ start: Type.Number(), end: Type.Number() }),
  threads: Type.Object({
    cores: Type.Integer(),
    whisper: Type.Integer({ description: 'WHISPER_THREADS as whisper.cpp gets it (0 = one per core).' }),
    workerThreads: Type.Integer({ description: 'The worker pool\'s most threads, WORKER_THREADS (diarization, analysis; ONNX runs one thread in each).' }),
  }),
  models: Type.Record(Type.String(), Type.String(), { description: 'Model slot → file name.' }),
  /** What the run made of the call (counts and names only, never its text). */
  transcript: Type.Optional(Type.Object({ words: Type.Integer(), speakers: Type.Integer(), language: Type.String(), transcriptionModel: Type.String() })),
  /** The analysis document's producer (JSON: analyser, version, model). */
  analysisProducer: Type.Optional(Type.String()),
});
export type ServiceRunMeasure = Static<typeof ServiceRunMeasureSchema>;

/** How often a run still under way prints what it holds, ms. */
const progressLineIntervalMs = 60_000;

/** pino's numeric level of `warn`: lines at or above it are shown. */
const warnLevel = 40;

/**
 * Uploads `recordingPath` to a fresh service (embedded database, DATA_DIR under `work`, one call
 * at a time), starts its processing engine with the production pipeline and measures the call's
 * run: wall time, CPU time and peak memory of the whole and of each stage. Stage boundaries come
 * from the engine's own `stage finished` log lines, so nothing polls the stages; memory is the
 * resident set of this process and its children sampled every 100 ms, tsx's esbuild (the bench's
 * loader, not the service) left out. Each stage's figures are printed on stderr as it ends, and
 * the peak so far once a minute.
 */
export async function measureServiceRun(options: ServiceRunOptions): Promise<ServiceRunMeasure> {
  const config = loadConfig({ ...process.env, ...options.settings, DATA_DIR: join(options.work, 'data'), LOCAL_AUTH: 'true', WORKER_CONCURRENCY: '1' });
  const services = await createServices(config, { processMetrics: false });
  const user = await services.users.findOrCreate({ externalUserId: 'local:bench', name: 'Diane' }, Date.now());
  const upload = join(options.work, 'upload.part');
  await copyFile(options.recordingPath, upload);
  const accepted = await acceptUpload({ ...services, database: services.database.sql }, {
    userId: user.id, tempPath: upload, sizeBytes: (await stat(upload)).size, format: 'm4a', fileName: 'call.m4a',
    metadata: { contactName: 'Sheila', direction: 'OUTGOING', recordedAt: new Date().toISOString() },
  });
  if (accepted.kind !== 'accepted') throw new Error('upload not accepted');
  const callId = accepted.response.callId;

  const monitor = new ProcessTreeMonitor([process.pid], { ignoredPrograms: ['esbuild'] });
  const stages: StageMeasure[] = [];
  // pino writes synchronously: the interval is closed the moment the engine logs the stage's end.
  const log = pino({ level: 'info' }, {
    write: (line: string) => {
      const entry = JSON.parse(line) as { level: number; msg?: string; stage?: string; outcome?: string; durationMs?: number };
      if (entry.level >= warnLevel) process.stderr.write(line);
      if (entry.msg !== 'stage finished' || entry.stage === undefined) return;
      const measure = { stage: entry.stage, outcome: entry.outcome ?? '', wallSeconds: (entry.durationMs ?? 0) / 1000, ...monitor.mark() };
      stages.push(measure);
      process.stderr.write(`  ${measure.stage} ${measure.outcome}: ${measure.wallSeconds.toFixed(1)} s wall, ${measure.cpuSeconds.toFixed(1)} CPU s, peak ${Math.round(measure.peakMegabytes)} MB\n`);
    },
  });

  monitor.start();
  const loadAtStart = loadAverageNow();
  const started = performance.now();
  const processing = await startProcessing(services, log);
  let call = (await services.calls.findOwned(user.id, callId))!;
  let lastProgressLine = started;
  while (call.status !== 'COMPLETED' && call.status !== 'FAILED') {
    await sleep(250);
    call = (await services.calls.findOwned(user.id, callId))!;
    // A long call's run takes a while: what it holds so far, once a minute.
    if (performance.now() - lastProgressLine >= progressLineIntervalMs) {
      lastProgressLine = performance.now();
      process.stderr.write(`  … ${call.stage ?? 'between stages'}, ${((lastProgressLine - started) / 60_000).toFixed(0)} min into the run: peak ${Math.round(monitor.peakSinceMarkMegabytes)} MB in this stage so far\n`);
    }
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const tail = monitor.mark();
  const loadAtEnd = loadAverageNow();
  await processing.stop(0);
  const peakMegabytesByProgram = monitor.stop();

  const transcript = call.status === 'COMPLETED' ? (await readCallDocument<Transcript>(services.artifacts, services.store, callId, 'transcript')).document : undefined;
  const analysisProducer = (await services.artifacts.find(callId, 'analysis'))?.producer ?? undefined;
  await services.close();
  const stageWall = stages.reduce((sum, stage) => sum + stage.wallSeconds, 0);
  return {
    audioSeconds: options.audioSeconds,
    wallSeconds,
    cpuSeconds: [...stages, tail].reduce((sum, interval) => sum + interval.cpuSeconds, 0),
    peakMegabytes: Math.max(tail.peakMegabytes, ...stages.map((stage) => stage.peakMegabytes)),
    peakMegabytesByProgram,
    stages,
    outsideStages: { wallSeconds: Math.max(0, wallSeconds - stageWall), cpuSeconds: tail.cpuSeconds, peakMegabytes: tail.peakMegabytes },
    status: call.status,
    ...(call.errorReason ? { errorReason: call.errorReason } : {}),
    loadAverage: { start: loadAtStart, end: loadAtEnd },
    threads: { cores: availableParallelism(), whisper: config.WHISPER_THREADS || availableParallelism(), workerThreads: config.WORKER_THREADS || availableParallelism() },
    models: Object.fromEntries((['SEGMENTATION_MODEL', 'EMBEDDING_MODEL', 'VAD_MODEL', 'WHISPER_MODEL', 'LLM_MODEL'] as const).map((slot) => [slot, basename(config[slot])])),
    ...(transcript ? {
      transcript: {
        words: transcript.cleanText.split(/\s+/).filter(Boolean).length,
        speakers: transcript.speakers.length,
        language: transcript.language,
        transcriptionModel: transcript.pipeline.transcriptionModel,
      },
    } : {}),
    ...(analysisProducer ? { analysisProducer } : {}),
  };
}

export const ServiceRunJobSchema = Type.Object({
  recordingPath: Type.String(),
  audioSeconds: Type.Number(),
  settings: Type.Record(Type.String(), Type.String()),
  /** Where the process writes its {@link ServiceRunMeasure} (JSON). */
  resultPath: Type.String(),
});
export type ServiceRunJob = Static<typeof ServiceRunJobSchema>;

/**
 * {@link measureServiceRun} in a process of its own (scripts/bench/serviceRunProcess.ts, with
 * the loader this one runs under), so that its memory holds the service and nothing the bench
 * did before; `work` holds the job, the result and the run's DATA_DIR.
 */
export async function measureServiceRunInOwnProcess(options: ServiceRunOptions): Promise<ServiceRunMeasure> {
  const job: ServiceRunJob = { recordingPath: options.recordingPath, audioSeconds: options.audioSeconds, settings: options.settings, resultPath: join(options.work, 'result.json') };
  const jobPath = join(options.work, 'job.json');
  await writeFile(jobPath, JSON.stringify(job));
  const entry = fileURLToPath(new URL('./serviceRunProcess.ts', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, entry, jobPath], { stdio: 'inherit' });
  const [code, signal] = await once(child, 'exit') as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`the service's run ended with ${signal ?? `exit ${code}`}`);
  return Value.Parse(ServiceRunMeasureSchema, JSON.parse(await readFile(job.resultPath, 'utf8')));
}
