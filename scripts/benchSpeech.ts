/**
 * `npm run bench:speech [-- --models ID[,ID…]] [--paths cli,server,openai] [--minutes 10,120]`:
 * speed and memory of the whole pipeline with real Whisper weights. For each length, a two-voice
 * espeak-ng call (as a phone stores it: AAC in M4A; made once into EVAL_MODELS_DIR/recordings)
 * goes through a fresh service (the real processing engine and production pipeline) once per
 * model and transcription path:
 * - `cli`: whisper.cpp's whisper-cli, started for the call (WHISPER_SERVER=off);
 * - `server`: the service's persistent whisper-server (WHISPER_SERVER=on; the call pays its start);
 * - `openai`: TRANSCRIPTION_PROVIDER=openai to a faster-whisper-server on the original
 *   CTranslate2 model, started on loopback by this script.
 * Each run prints its wall time as "× real time" (audio seconds / wall seconds) for the whole
 * run and for transcription alone, each stage's CPU seconds (user + system of the service's
 * process and its children) and share of the whole, and peak resident memory of the service's
 * process and its children; the transcription server's own CPU and memory are printed apart,
 * since a site runs it on another machine. The 1-minute load average at each run's start and
 * end and the thread settings are printed with it: wall figures on a busy machine are slower.
 *
 * Each run is a process of its own (scripts/bench/serviceRunProcess.ts), so that its memory is
 * the service's alone; this one only makes the recording and starts the transcription server.
 * The models: every Whisper model `npm run models:eval` fetched (one per distinct converted
 * file); segmentation and VAD as configured, else ../shared's (see modelsWithSharedFallback).
 * Needs espeak-ng, sox and `npm run models:eval`. The defaults (both models, three paths, 10
 * minutes and 2 hours) take several hours on 2 cores.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/loadConfig.js';
import { probeAudio } from '../src/pipeline/cleanup/probeAudio.js';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { measureServiceRunInOwnProcess, type ServiceRunMeasure, type StageMeasure } from './bench/measureServiceRun.js';
import { ProcessTreeMonitor, type TreeInterval } from './bench/ProcessTreeMonitor.js';
import { childProcessIds } from '../src/infrastructure/processes/processStatus.js';
import { modelsWithSharedFallback, synthesisePhoneCall } from './benchSupport.js';
import { loadEvalModelCatalogue } from './models/evalModelCatalogue.js';
import { evalModelsDir, requireEvalModel } from './models/evalModels.js';
import { startFasterWhisperServer } from './models/fasterWhisperServer.js';

const transcriptionPaths = ['cli', 'server', 'openai'] as const;
type TranscriptionPath = (typeof transcriptionPaths)[number];

/** The issue's targets (#34): base on whisper-server at least 5× real time on a 10-minute call; a 2-hour call within 1.5 GB. */
const targets = { model: 'whisper-base', path: 'server', minimumSpeed: 5, speedSeconds: 600, maximumMegabytes: 1.5 * 1024, memorySeconds: 7200 } as const;

const { values } = parseArgs({
  options: {
    models: { type: 'string' },
    paths: { type: 'string', default: transcriptionPaths.join(',') },
    minutes: { type: 'string', default: '10,120' },
  },
});
const paths = listOption(values.paths!).map((path) => {
  if (!(transcriptionPaths as readonly string[]).includes(path)) throw new Error(`--paths takes ${transcriptionPaths.join(', ')}, not ${path}`);
  return path as TranscriptionPath;
});
const lengths = listOption(values.minutes!).map((minutes) => {
  const seconds = Math.round(Number(minutes) * 60);
  if (!(seconds >= 10)) throw new Error(`--minutes takes lengths of at least 10 s, not ${minutes}`);
  return seconds;
});
const models = whisperModels(values.models === undefined ? undefined : listOption(values.models));

/** MAX_AUDIO_DURATION_SECONDS's default. */
const defaultLimitSeconds = loadConfig({ DATA_DIR: tmpdir() }).MAX_AUDIO_DURATION_SECONDS;

/** CPU threads of the transcription server (faster-whisper's `cpu_threads`): as many as whisper.cpp gets (WHISPER_THREADS; 0 or unset: one per core). */
const serverThreads = Number(process.env.WHISPER_THREADS ?? 0) || availableParallelism();

/** One run: the service's measure, and for `openai` the transcription server's own CPU and memory (it runs on another machine at a site). */
interface SpeechRun {
  model: string;
  path: TranscriptionPath;
  measure: ServiceRunMeasure;
  transcriptionServer?: TreeInterval & { programs: Record<string, number> };
}
const results: SpeechRun[] = [];
for (const seconds of lengths) {
  const recording = await cachedPhoneCall(seconds);
  for (const model of models) {
    const files = requireEvalModel(model);
    for (const path of paths) {
      const settings: Record<string, string> = {
        ...modelsWithSharedFallback(),
        WHISPER_MODEL: files.whisperGgml!,
        WHISPER_SERVER: path === 'server' ? 'on' : 'off',
      };
      // The default limit (2 h) is on the decoded length, which AAC's padding makes a few ms longer than asked.
      if (seconds + 60 > defaultLimitSeconds) settings.MAX_AUDIO_DURATION_SECONDS = String(seconds + 60);
      const work = await mkdtemp(join(tmpdir(), 'callscope-bench-speech-'));
      try {
        console.log(`\n${model} through ${path}, ${formatLength(seconds)} call${settings.MAX_AUDIO_DURATION_SECONDS ? ` (MAX_AUDIO_DURATION_SECONDS=${settings.MAX_AUDIO_DURATION_SECONDS})` : ''}…`);
        const run = path === 'openai'
          ? await throughFasterWhisperServer(files.ct2Directory!, (url) => measureServiceRunInOwnProcess({
            recordingPath: recording, audioSeconds: seconds, settings: { ...settings, TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url }, work,
          }))
          : { measure: await measureServiceRunInOwnProcess({ recordingPath: recording, audioSeconds: seconds, settings, work }) };
        results.push({ model, path, ...run });
        printRun(results.at(-1)!);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }
  }
}
printSummary();

/**
 * Runs `measure` against a faster-whisper-server started for it on the model's original
 * CTranslate2 folder, and measures the server apart: its processes are this one's children
 * (not the service's), started here.
 */
async function throughFasterWhisperServer(modelDirectory: string, measure: (url: string) => Promise<ServiceRunMeasure>): Promise<Pick<SpeechRun, 'measure' | 'transcriptionServer'>> {
  const before = new Set(await childProcessIds(process.pid));
  const server = await startFasterWhisperServer({ modelDirectory, threads: serverThreads });
  try {
    const monitor = new ProcessTreeMonitor((await childProcessIds(process.pid)).filter((pid) => !before.has(pid)));
    monitor.start();
    const measured = await measure(server.url);
    const interval = monitor.mark();
    return { measure: measured, transcriptionServer: { ...interval, programs: monitor.stop() } };
  } finally {
    await server.stop();
  }
}

/** Comma-separated values, trimmed, empty ones dropped. */
function listOption(value: string): string[] {
  return value.split(',').map((item) => item.trim()).filter(Boolean);
}

/** The Whisper models to run: those asked for, or every usable one of the catalogue, one per distinct converted file. */
function whisperModels(asked: readonly string[] | undefined): string[] {
  const whisper = loadEvalModelCatalogue().models.filter((model) => model.kind === 'whisper');
  const chosen: string[] = [];
  const conversions = new Set<string>();
  for (const id of asked ?? whisper.map((model) => model.id)) {
    const model = whisper.find((candidate) => candidate.id === id);
    if (!model) throw new Error(`Unknown model ${id}; Whisper models: ${whisper.map((candidate) => candidate.id).join(', ')}`);
    if (model.defect !== undefined || model.conversions[0] === undefined) {
      console.log(`${id}: not run, its packages do not give a usable model`);
      continue;
    }
    if (conversions.has(model.conversions[0].sha256)) {
      console.log(`${id}: not run, its converted file is the same as another's`);
      continue;
    }
    conversions.add(model.conversions[0].sha256);
    chosen.push(id);
  }
  return chosen;
}

/** The bench call of `seconds`, made once into EVAL_MODELS_DIR/recordings (a 2-hour one takes espeak-ng and sox a while). */
async function cachedPhoneCall(seconds: number): Promise<string> {
  const folder = join(evalModelsDir(), 'recordings');
  const path = join(folder, `bench-speech-call-${seconds}s.m4a`);
  if (!existsSync(path)) {
    console.log(`Synthesising a ${formatLength(seconds)} two-voice call (espeak-ng + sox) into ${path}…`);
    await mkdir(folder, { recursive: true });
    const partial = join(folder, `bench-speech-call-${seconds}s.partial.m4a`);
    await synthesisePhoneCall(partial, seconds);
    await rename(partial, path);
  }
  const { containerDurationSeconds } = await probeAudio(path, resolveFfmpegBinaries().ffprobePath);
  console.log(`recording: ${path} (${containerDurationSeconds ?? '?'} s as its container states)`);
  return path;
}

function printRun({ model, path, measure: run, transcriptionServer }: SpeechRun): void {
  const speed = (seconds: number) => (seconds >= 0.1 ? `${round(run.audioSeconds / seconds)}×` : '');
  const share = (part: number, whole: number) => `${round((100 * part) / whole)} %`;
  const row = (name: string, interval: Pick<StageMeasure, 'wallSeconds' | 'cpuSeconds' | 'peakMegabytes'>, outcome = '') => ({
    stage: name,
    outcome,
    'wall s': round(interval.wallSeconds),
    'wall %': share(interval.wallSeconds, run.wallSeconds),
    'x real time': speed(interval.wallSeconds),
    'CPU s': round(interval.cpuSeconds),
    'CPU %': share(interval.cpuSeconds, run.cpuSeconds),
    'peak MB': Math.round(interval.peakMegabytes),
  });
  console.log(`${model} through ${path}: ${formatLength(run.audioSeconds)}; ${threadsLine(run, path)}; load average ${run.loadAverage.start} at the start, ${run.loadAverage.end} at the end`);
  console.table([
    ...run.stages.map((stage) => row(stage.stage, stage, stage.outcome)),
    row('(outside the stages)', run.outsideStages),
    row('whole run', run, run.status),
  ]);
  const transcription = transcriptionSeconds(run);
  console.log(`whole run: ${round(run.wallSeconds)} s wall, ${speed(run.wallSeconds)} real time; transcription alone ${speed(transcription)} real time; ${round(run.cpuSeconds)} CPU s; peak ${Math.round(run.peakMegabytes)} MB (each program's own peak: ${Object.entries(run.peakMegabytesByProgram).map(([program, megabytes]) => `${program} ${Math.round(megabytes)}`).join(', ')})`);
  if (transcriptionServer) {
    console.log(`transcription server (faster-whisper-server, apart from the above): ${round(transcriptionServer.cpuSeconds)} CPU s, peak ${Math.round(transcriptionServer.peakMegabytes)} MB`);
  }
  console.log(`models: ${Object.entries(run.models).map(([slot, file]) => `${slot}=${file}`).join(', ')}; analysis producer ${run.analysisProducer ?? 'none'}`);
  console.log(run.transcript
    ? `call ${run.status}: ${run.transcript.words} words, ${run.transcript.speakers} speakers, language ${run.transcript.language}, transcribed by ${run.transcript.transcriptionModel}`
    : `call ${run.status}${run.errorReason ? `: ${run.errorReason}` : ''}`);
}

function printSummary(): void {
  console.log('\nbench:speech summary (× real time = audio seconds / wall seconds; CPU and peak: the service\'s process and its children; server: faster-whisper-server, apart):');
  console.table(results.map(({ model, path, measure, transcriptionServer }) => ({
    model,
    path,
    length: formatLength(measure.audioSeconds),
    'whole x real time': round(measure.audioSeconds / measure.wallSeconds),
    'transcription x real time': round(measure.audioSeconds / transcriptionSeconds(measure)),
    'CPU s': round(measure.cpuSeconds),
    'peak MB': Math.round(measure.peakMegabytes),
    'server CPU s': transcriptionServer ? round(transcriptionServer.cpuSeconds) : null,
    'server peak MB': transcriptionServer ? Math.round(transcriptionServer.peakMegabytes) : null,
    'load avg start/end': `${measure.loadAverage.start}/${measure.loadAverage.end}`,
    status: measure.status,
  })));
  for (const { model, path, measure } of results) {
    if (model !== targets.model || path !== targets.path) continue;
    if (measure.audioSeconds === targets.speedSeconds) {
      // The target is whisper's own speed (the transcription stage, the call's audio through
      // whisper-server); the whole run, which adds clean-up, diarization and the analyser, is printed beside it.
      const speed = measure.audioSeconds / transcriptionSeconds(measure);
      console.log(`target: ${model} through whisper-server at least ${targets.minimumSpeed}× real time on a 10-minute call: ${round(speed)}× for transcription (the whole run ${round(measure.audioSeconds / measure.wallSeconds)}×, WHISPER_BEAM_SIZE ${loadConfig({ ...process.env, DATA_DIR: tmpdir() }).WHISPER_BEAM_SIZE}): ${speed >= targets.minimumSpeed ? 'met' : 'NOT met'}${measure.loadAverage.start > 1 ? ` (machine busy: load ${measure.loadAverage.start})` : ''}`);
    }
    if (measure.audioSeconds === targets.memorySeconds) {
      console.log(`target: a 2-hour call through the whole pipeline with ${model} within ${targets.maximumMegabytes} MB: peak ${Math.round(measure.peakMegabytes)} MB: ${measure.peakMegabytes <= targets.maximumMegabytes && measure.status === 'COMPLETED' ? 'met' : 'NOT met'}`);
    }
  }
}

/** The transcription stage's wall time, every attempt of it. */
function transcriptionSeconds(run: ServiceRunMeasure): number {
  return run.stages.filter((stage) => stage.stage === 'transcription').reduce((sum, stage) => sum + stage.wallSeconds, 0);
}

function threadsLine(run: ServiceRunMeasure, path: TranscriptionPath): string {
  const transcriber = path === 'openai' ? `faster-whisper ${serverThreads}` : `whisper.cpp ${run.threads.whisper}`;
  return `${run.threads.cores} cores; threads: ${transcriber}, worker pool up to ${run.threads.workerThreads} (ONNX 1 each)`;
}

function formatLength(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
