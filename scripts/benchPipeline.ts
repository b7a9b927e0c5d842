/**
 * `npm run bench:pipeline`: one 5-minute two-voice recording (espeak-ng + sox, encoded as AAC in
 * M4A like a phone's) through the real processing engine and production pipeline, printing the
 * time and peak memory of every stage and the real-time factor of the whole run, then times the
 * analysis stages on the recording's script (see {@link benchAnalysisOnScript}) and the per-call
 * fixed cost of transcription with whisper-cli against the persistent whisper-server (see
 * {@link benchTranscriptionFixedCost}).
 * Memory is the resident set of this Node process (worker threads included) plus its child
 * processes (ffmpeg, whisper.cpp), sampled every 100 ms; CPU is user + system time of both (see
 * scripts/bench/measureServiceRun.ts, which `npm run bench:speech` runs too). Needs Debian's
 * espeak-ng and sox.
 *
 * Options (env): BENCH_AUDIO_SECONDS (default 300), BENCH_FIXED_COST_RUNS (default 5), plus any
 * Callscope setting (models, threads).
 * A model slot whose configured file is missing falls back to the file in ../shared/models (the
 * development machines' models: a real segmentation model and VAD, a structure-only whisper model),
 * and the output says which files ran.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { randomUUID } from 'node:crypto';
import { LocalPipelineRun } from '../src/cli/LocalPipelineRun.js';
import { analysisTimeZoneOf, loadConfig } from '../src/config/loadConfig.js';
import { selectAnalyser } from '../src/pipeline/analysis/selectAnalyser.js';
import { transcriptFromSegments } from '../src/pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../src/pipeline/speakers/resolveSpeakers.js';
import { runAnalysisStages } from '../src/processing/productionPipeline.js';
import { transcribeAudio } from '../src/pipeline/transcription/transcribeAudio.js';
import { transcriptionOptionsFromConfig, whisperServerFromConfig } from '../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import type { ConversationTurn } from './audio/makeConversation.js';
import { measureServiceRun } from './bench/measureServiceRun.js';
import { median, modelsWithSharedFallback, synthesisePhoneCall } from './benchSupport.js';

const run = promisify(execFile);
const audioSeconds = Number(process.env.BENCH_AUDIO_SECONDS ?? 300);
/** Calls timed per way of running whisper.cpp (see benchTranscriptionFixedCost). */
const fixedCostRuns = Number(process.env.BENCH_FIXED_COST_RUNS ?? 5);

const work = await mkdtemp(join(tmpdir(), 'callscope-bench-pipeline-'));
try {
  console.log(`Synthesising a ${audioSeconds} s two-voice call (espeak-ng + sox)…`);
  const m4a = join(work, 'call.m4a');
  const conversation = await synthesisePhoneCall(m4a, audioSeconds, join(work, 'call.wav'));
  const models = modelsWithSharedFallback();
  const measure = await measureServiceRun({ recordingPath: m4a, audioSeconds, settings: models, work });

  console.log(`\nbench:pipeline — ${audioSeconds} s of audio (${conversation.turns.length} turns), Node ${process.version}, ${measure.threads.cores} cores, load average ${measure.loadAverage.start} at the start`);
  console.table(measure.stages.map((stage) => ({
    stage: stage.stage,
    outcome: stage.outcome,
    seconds: round(stage.wallSeconds),
    // Stages quicker than the 100 ms sampling have no meaningful speed or memory figure.
    'x real time': stage.wallSeconds >= 0.1 ? round(audioSeconds / stage.wallSeconds) : null,
    'CPU s': round(stage.cpuSeconds),
    'peak MB': stage.wallSeconds >= 0.1 ? round(stage.peakMegabytes) : null,
  })));
  console.log(`models: ${Object.entries(models).map(([slot, path]) => `${slot}=${basename(path)}`).join(', ')}`);
  console.log(`whole run: ${round(measure.wallSeconds)} s wall clock, real-time factor ${round(measure.wallSeconds / audioSeconds, 4)} (${round(audioSeconds / measure.wallSeconds)}x real time), ${round(measure.cpuSeconds)} CPU s, peak ${round(measure.peakMegabytes)} MB`);
  console.log(`call ended ${measure.status}${measure.errorReason ? `: ${measure.errorReason}` : ''}`);
  await benchAnalysisOnScript(conversation.turns);
  await benchTranscriptionFixedCost(conversation.path, models, work);
} finally {
  await rm(work, { recursive: true, force: true });
}

/**
 * The structure-only whisper model hears no words, so the run's analysis stage has nothing to
 * read. This times the analysis stages (the configured analyser, grounding, action items) on
 * the recording's script instead: the transcript a perfect recogniser would give.
 */
async function benchAnalysisOnScript(turns: readonly ConversationTurn[]): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: tmpdir() });
  const metadata = { contactName: 'Sheila', direction: 'OUTGOING' as const };
  const transcript = resolveSpeakers(transcriptFromSegments({
    segments: turns.map((turn) => ({ sourceSpeakerId: turn.speaker, startSeconds: turn.startSeconds, endSeconds: turn.endSeconds, text: turn.text })),
  }, { callId: randomUUID(), createdAt: Date.now() }), { userDisplayName: 'Diane', metadata });
  const analyser = selectAnalyser(config);
  const input = { transcript, metadata, recordedAt: Date.now(), timeZone: analysisTimeZoneOf(config) };
  // The first run loads modules (and a model); the second is the steady state.
  for (const label of ['first run', 'steady state']) {
    const started = performance.now();
    const analysed = await runAnalysisStages(input, new LocalPipelineRun(), analyser);
    const seconds = (performance.now() - started) / 1000;
    console.log(`analysis of the script's transcript (${transcript.segments.length} segments, ${analysed.producer.analyser} analyser), ${label}: ${round(seconds, 3)} s, ${analysed.actionItems.length} action items, ${analysed.grounding.violationsBefore.length} grounding removals`);
  }
}


/**
 * What a call pays for transcription besides the audio itself: a 5-second clip (so the fixed
 * cost dominates) transcribed `fixedCostRuns` times by whisper-cli (model loaded every time) and
 * by the persistent whisper-server (model loaded once, at its start, which the first call pays).
 */
async function benchTranscriptionFixedCost(conversationPath: string, models: Record<string, string>, work: string): Promise<void> {
  const clip = join(work, 'clip.wav');
  await run(resolveFfmpegBinaries().ffmpegPath, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', conversationPath, '-t', '5', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', clip]);
  const config = loadConfig({ ...process.env, ...models, DATA_DIR: tmpdir() });
  const options = { ...transcriptionOptionsFromConfig(config), tempDir: work };
  const input = { audioPath: clip, durationSeconds: 5 };
  const time = async (transcribe: () => Promise<unknown>) => {
    const started = performance.now();
    await transcribe();
    return (performance.now() - started) / 1000;
  };
  const cli: number[] = [];
  for (let index = 0; index < fixedCostRuns; index++) cli.push(await time(() => transcribeAudio(input, options, createQuietContext())));
  const server = whisperServerFromConfig({ ...config, WHISPER_SERVER: 'on', WHISPER_CLI: undefined });
  if (!server) {
    console.log('transcription fixed cost: whisper-server is not built (npm run build:native); only whisper-cli measured');
    return;
  }
  const served: number[] = [];
  try {
    for (let index = 0; index < fixedCostRuns + 1; index++) served.push(await time(() => transcribeAudio(input, { ...options, server }, createQuietContext())));
  } finally {
    await server.stop();
  }
  console.log(`\ntranscription of a 5 s clip (${basename(options.modelPath)}), ${fixedCostRuns} calls each:`);
  console.table([
    { 'whisper.cpp as': 'whisper-cli per call', 'median s per call': round(median(cli), 3), 'first call s': round(cli[0]!, 3) },
    { 'whisper.cpp as': 'persistent whisper-server', 'median s per call': round(median(served.slice(1)), 3), 'first call s (starts it)': round(served[0]!, 3) },
  ]);
  console.log(`per-call fixed cost saved by the persistent server: ${round(median(cli) - median(served.slice(1)), 3)} s (the model's load; larger with base/small models and on a GPU)`);
}

/** A stage context for timing alone: progress is not shown. */
function createQuietContext() {
  return { signal: new AbortController().signal, reportProgress: () => undefined, runInWorker: () => { throw new Error('no worker pool in this bench'); } } as unknown as Parameters<typeof transcribeAudio>[2];
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
