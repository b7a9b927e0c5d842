/**
 * `npm run bench:diarization`: what `npx callscope diarize` costs a user on the telephone call
 * looped to 5 minutes (../shared/audio/pyannote-sample/sample.wav × 10, the file
 * eval:diarization times; BENCH_MINUTES=10 for ten), and where that goes. With an embedding
 * model, the target line judges issue 35's ≥ 20× real time (wall clock, as a user meets it). Figures are CPU time (user + system of this
 * process's work and of every child it waited for: npm, node, ffprobe, ffmpeg), so other work
 * on the machine does not count; "× real time" is audio seconds per CPU second.
 * 1. End to end, as a user runs it: `npx callscope diarize call.wav`, then the same through the
 *    installed bin without npm (`node bin/callscope.js diarize call.wav`). The RTTM of every run
 *    must be the same.
 * 2. Starting: `npx callscope diarize --help` and `node bin/callscope.js diarize --help`, that
 *    is npm exec's own share, and node's start with the command's modules.
 * 3. The command's work phase by phase (CPU and wall seconds; the models run with the command's
 *    threads, DIARIZATION_THREADS or every core), one after the other (the command overlaps the
 *    clean-up with the segmentation), in this process with the functions it calls: clean-up
 *    (ffprobe; ffmpeg's decode, high-pass and loudnorm; the levels), the model's check (SHA-256)
 *    and its ONNX session, segmentation with window linking, the voice join (its passes over the
 *    audio), turns.
 * 4. The diarization stage alone, as eval:diarization's speed line times it: the cleaned audio,
 *    the model already loaded; wall and CPU time.
 * Each is run BENCH_RUNS times (default 3) and the median printed. Needs sox, Linux (/proc) and
 * the built CLI (the npm script builds first).
 *
 * Models (env): SEGMENTATION_MODEL as configured, else ../shared's; EMBEDDING_MODEL as
 * configured, used when its file exists (the command's last line, printed first, says which path
 * ran: without one, window linking).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { effectiveDiarizationThreads } from '../src/config/effectiveConcurrency.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { resolveModelPath } from '../src/infrastructure/models/resolveModelPath.js';
import { sha256OfFile } from '../src/infrastructure/models/ModelDigestCache.js';
import { inProcessStageContext } from '../src/infrastructure/workers/inProcessStageContext.js';
import { threadResources } from '../src/infrastructure/workers/WorkerResources.js';
import { packageRoot } from '../src/infrastructure/packageRoot.js';
import { cleanAudio } from '../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../src/pipeline/diarization/diarizeAudio.js';
import { diarizeRecording, type DiarizationStage } from '../src/pipeline/diarization/diarizeRecording.js';
import { loadSegmentationModel } from '../src/pipeline/diarization/models/SegmentationModel.js';
import { loadSpeakerEncoder } from '../src/pipeline/diarization/models/SpeakerEncoder.js';
import { formatRttm } from '../src/pipeline/diarization/scoring/rttm.js';
import { median, modelsWithSharedFallback } from './benchSupport.js';

const execute = promisify(execFile);
const runs = Number(process.env.BENCH_RUNS ?? 3);
/** The call's length: the 30 s telephone sample looped (BENCH_MINUTES, default 5). */
const LOOPS = Math.max(1, Math.round(Number(process.env.BENCH_MINUTES ?? 5) * 2));
/** Issue 35's target for diarization with embeddings as a user meets it (clean-up included), × real time. */
const EMBEDDING_SPEED_TARGET = 20;
const env = { ...process.env, SEGMENTATION_MODEL: modelsWithSharedFallback().SEGMENTATION_MODEL! };
const config = loadConfig({ ...env, DATA_DIR: tmpdir() });
/** The models' CPU threads, as `callscope diarize` sets them for its one call. */
const threads = effectiveDiarizationThreads(config.DIARIZATION_THREADS, 1);
/** Clock ticks per second of /proc's CPU times (USER_HZ). */
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** This process's CPU seconds so far, all threads. */
function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds so far: this process's own, and its children's that were waited for (their descendants' included). */
async function cpuSeconds(): Promise<{ own: number; children: number }> {
  // proc(5): fields 16 and 17 (cutime, cstime) are the 14th and 15th after the command name's ")", in clock ticks.
  const fields = (await readFile('/proc/self/stat', 'utf8')).split(') ')[1]!.split(' ');
  return { own: ownCpuSeconds(), children: (Number(fields[13]) + Number(fields[14])) / clockTicks };
}

/** CPU seconds (own, children) and wall seconds that `work` took. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; own: number; children: number; wall: number }> {
  const before = await cpuSeconds();
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const after = await cpuSeconds();
  return { result, own: after.own - before.own, children: after.children - before.children, wall };
}

/** Runs a command `runs` times from the install folder; median CPU seconds of the whole process tree, and the last run's output. */
async function commandCpu(command: string, args: string[]): Promise<{ cpu: number; wall: number; stdout: string[]; stderr: string }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  const stdout: string[] = [];
  let stderr = '';
  for (let attempt = 0; attempt < runs; attempt++) {
    const run = await measured(() => execute(command, args, { cwd: packageRoot, env, maxBuffer: 1 << 26 }));
    cpu.push(run.children);
    wall.push(run.wall);
    stdout.push(run.result.stdout);
    stderr = run.result.stderr;
  }
  return { cpu: median(cpu), wall: median(wall), stdout, stderr };
}

const work = await mkdtemp(join(tmpdir(), 'callscope-bench-diarization-'));
try {
  const callPath = join(work, 'call.wav');
  const sample = resolve(packageRoot, '../shared/audio/pyannote-sample/sample.wav');
  await execute('sox', [...Array.from({ length: LOOPS }, () => sample), callPath]);
  const audioSeconds = LOOPS * 30;
  const bin = join(packageRoot, 'bin/callscope.js');

  // 1 and 2: the CLI as child processes.
  const npxRun = await commandCpu('npx', ['callscope', 'diarize', callPath]);
  const nodeRun = await commandCpu(process.execPath, [bin, 'diarize', callPath]);
  const outputs = new Set([...npxRun.stdout, ...nodeRun.stdout]);
  if (outputs.size !== 1) throw new Error(`callscope diarize printed ${outputs.size} different RTTMs over the runs`);
  const npxStart = await commandCpu('npx', ['callscope', 'diarize', '--help']);
  const nodeStart = await commandCpu(process.execPath, [bin, 'diarize', '--help']);

  // 3 and 4: the command's phases in this process (the model is loaded here for the first time).
  const context = inProcessStageContext();
  const modelPath = resolveModelPath(config.SEGMENTATION_MODEL);
  // As diarizeAudio decides: the embedding model is used when its file is there.
  const configuredEmbeddingPath = resolveModelPath(config.EMBEDDING_MODEL);
  const embeddingModelPath = existsSync(configuredEmbeddingPath) ? configuredEmbeddingPath : undefined;
  const phases = new Map<string, { own: number[]; children: number[]; wall: number[] }>();
  const record = (phase: string, cost: { own: number; children: number; wall: number }) => {
    const entry = phases.get(phase) ?? { own: [], children: [], wall: [] };
    entry.own.push(cost.own);
    entry.children.push(cost.children);
    entry.wall.push(cost.wall);
    phases.set(phase, entry);
  };
  const evalStyle: { wall: number[]; cpu: number[] } = { wall: [], cpu: [] };
  for (let attempt = 0; attempt < runs; attempt++) {
    const cleanedRun = await measured(() => cleanAudio({ sourcePath: callPath, outputDir: join(work, `clean-${attempt}`), maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, context));
    record('clean-up (ffprobe, ffmpeg: decode, high-pass, loudnorm; levels)', cleanedRun);
    const cleaned = cleanedRun.result;
    // New sessions each time, as every command run makes; and the model files' hashes, which a
    // command's assertModelUsable computes once per process (this process remembers them).
    await threadResources.disposeAll();
    record('model check (SHA-256) and ONNX session', await measured(async () => {
      await sha256OfFile(modelPath);
      await loadSegmentationModel(modelPath, threads);
      if (embeddingModelPath !== undefined) {
        await sha256OfFile(embeddingModelPath);
        await loadSpeakerEncoder(embeddingModelPath, threads);
      }
    }));
    let last = { cpu: ownCpuSeconds(), wall: performance.now() };
    const stageNames: Record<DiarizationStage, string> = {
      channels: 'stereo channels', segmentation: 'segmentation and window linking', embeddings: 'embeddings and clustering',
      voices: 'voice join (passes over the audio, re-segmentation)', speakers: 'turns',
    };
    // Diarization starts no child process: its stages are this process's CPU time alone.
    const diarized = await diarizeRecording({ monoPath: cleaned.monoPath, segmentationModelPath: modelPath, embeddingModelPath, threads }, (stage) => {
      const now = { cpu: ownCpuSeconds(), wall: performance.now() };
      record(stageNames[stage], { own: now.cpu - last.cpu, children: 0, wall: (now.wall - last.wall) / 1000 });
      last = now;
    });
    record('RTTM output', await measured(async () => formatRttm(diarized.turns, 'call')));
    const evalRun = await measured(() => diarizeAudio(cleaned, { segmentationModel: modelPath, embeddingModel: config.EMBEDDING_MODEL, threads }, context));
    evalStyle.wall.push(evalRun.wall);
    evalStyle.cpu.push(evalRun.own);
  }
  await threadResources.disposeAll();

  const speed = (cpu: number) => round(audioSeconds / cpu, 1);
  console.log(`bench:diarization: ${audioSeconds} s (sample.wav × ${LOOPS}), medians of ${runs} runs; Node ${process.version}, ${(await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm)?.length ?? '?'} cores`);
  console.log(`callscope diarize: ${npxRun.stderr.trim().split('\n').at(-1)}`);
  if (!(await npmHiddenLockfileIsCurrent())) console.log('node_modules changed after npm ci (it is newer than node_modules/.package-lock.json): npm exec reads the installed tree a second time, which adds to its share');
  console.log('\nAs a user runs it (CPU of every process it starts):');
  console.table([
    { command: 'npx callscope diarize call.wav', 'CPU s': round(npxRun.cpu), 'x real time': speed(npxRun.cpu), 'wall s': round(npxRun.wall) },
    { command: 'node bin/callscope.js diarize call.wav', 'CPU s': round(nodeRun.cpu), 'x real time': speed(nodeRun.cpu), 'wall s': round(nodeRun.wall) },
    { command: 'npx callscope diarize --help', 'CPU s': round(npxStart.cpu), 'x real time': null, 'wall s': round(npxStart.wall) },
    { command: 'node bin/callscope.js diarize --help', 'CPU s': round(nodeStart.cpu), 'x real time': null, 'wall s': round(nodeStart.wall) },
  ]);
  const rows = [
    { phase: 'npm exec (npx) itself', 'CPU s': round(npxStart.cpu - nodeStart.cpu), 'of it ffmpeg, ffprobe s': 0 },
    { phase: 'node start, the command\'s modules', 'CPU s': round(nodeStart.cpu), 'of it ffmpeg, ffprobe s': 0 },
    ...[...phases].map(([phase, cost]) => ({ phase, 'CPU s': round(median(cost.own) + median(cost.children)), 'of it ffmpeg, ffprobe s': round(median(cost.children)), 'wall s': round(median(cost.wall)) })),
  ];
  // The command segments a mono call while clean-up's ffmpeg still writes it; here each phase runs alone.
  console.log('\nWhere it goes (each phase on its own, one after the other; the command\'s work in this process, with the functions it calls; the command itself overlaps the clean-up with the segmentation, so its wall time is less than these added up):');
  console.table([...rows, { phase: 'all phases (compare npx callscope diarize above)', 'CPU s': round(rows.reduce((sum, row) => sum + row['CPU s'], 0)), 'of it ffmpeg, ffprobe s': null, 'wall s': null }]);
  const stageWall = median(evalStyle.wall);
  const stageCpu = median(evalStyle.cpu);
  console.log(`\nThe diarization stage alone, as eval:diarization times it (audio already cleaned, model already loaded): ${round(stageWall)} s wall, ${speed(stageWall)} x real time; ${round(stageCpu)} s CPU, ${speed(stageCpu)} x real time per CPU second`);
  console.log(`As a user meets it (npx callscope diarize): ${speed(npxRun.wall)} x real time (wall clock), ${speed(npxRun.cpu)} x real time per CPU second, ${round(npxRun.cpu / stageCpu, 1)} times the stage's CPU time`);
  if (embeddingModelPath !== undefined) {
    const met = speed(npxRun.wall) >= EMBEDDING_SPEED_TARGET;
    console.log(`target with the embedding model: ≥ ${EMBEDDING_SPEED_TARGET}× real time as a user meets it (wall clock, clean-up included): ${speed(npxRun.wall)}×: ${met ? 'met' : 'NOT met'}`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

/**
 * npm exec trusts node_modules/.package-lock.json only while node_modules is not newer than it
 * (nothing was added or removed there since npm ci: vitest's cache folder is); otherwise it
 * reads every installed package.json once more on each `npx`.
 */
async function npmHiddenLockfileIsCurrent(): Promise<boolean> {
  const [lock, folder] = await Promise.all(['node_modules/.package-lock.json', 'node_modules'].map((path) => stat(join(packageRoot, path))));
  return folder!.mtimeMs <= lock!.mtimeMs;
}
