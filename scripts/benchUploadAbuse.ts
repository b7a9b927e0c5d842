/**
 * `npm run bench:abuse`: the decompression-bomb-like recordings of the upload-abuse test
 * (scripts/audio/bombFixtures.ts: a few hundred bytes to a few hundred KB stating or hiding
 * hours of audio) through the clean-up stage, printing what each costs: wall time, the peak
 * memory of ffprobe and ffmpeg, and the bytes decoded. Exits 1 when a fixture's outcome is not
 * the one the test expects (refused from the header, capped at limit + 1 s, cleaned as what it
 * holds, refused for its sample rate), so the figures are never those of a broken cap.
 *
 * Memory of ffmpeg and ffprobe is the kernel's high-water mark (VmHWM) of each child process of
 * this one, sampled every 20 ms from /proc (Linux): a lower bound, as growth in a child's last
 * 20 ms is not seen. ffprobe mostly exits within 20 ms, so it gets a summary line rather than a
 * column. A refusal from the header never starts ffmpeg (its row decodes nothing). Node's
 * figure is its lifetime peak (`maxRSS`), the fixtures' builds included. `measureLevels` runs
 * in this thread rather than on the worker pool.
 *
 * Options (env): BENCH_LIMIT_SECONDS, the limit clean-up runs with (default 60, the service's
 * lowest; the fixtures' expected outcomes hold from 50 to 599); BENCH_ABUSE_DEFAULT_LIMIT=1 also
 * runs the lying m4a and the chained Ogg at the service's default limit (2 h), where each
 * decodes 2 h before the cap stops it: ~160 s each.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config/loadConfig.js';
import { childProcessIds, processStatus } from '../src/infrastructure/processes/processStatus.js';
import type { WorkerTasks } from '../src/infrastructure/workers/workerTasks.js';
import { cleanAudio, MIN_SOURCE_SAMPLE_RATE_HZ } from '../src/pipeline/cleanup/cleanAudio.js';
import { cleanupFailures } from '../src/pipeline/cleanup/cleanupFailures.js';
import { resolveFfmpegBinaries } from '../src/pipeline/cleanup/ffmpegBinaries.js';
import { measureLevels, type MeasureLevelsInput } from '../src/pipeline/cleanup/measureLevels.js';
import { probeAudio } from '../src/pipeline/cleanup/probeAudio.js';
import type { StageContext } from '../src/pipeline/StageContext.js';
import { StageFailure } from '../src/pipeline/StageFailure.js';
import {
  cappedDecodeSeconds, CLEANED_BYTES_PER_SECOND, EXPECTATIONS_HOLD_FOR_LIMIT_SECONDS, WAV_HEADER_ALLOWANCE_BYTES, writeBombFixtures,
  type BombFixture, type BombFixtureName,
} from './audio/bombFixtures.js';

const run = promisify(execFile);

/** Interval between /proc samples, ms: a capped decode at the lowest limit keeps ffmpeg running 1-2 s. */
const SAMPLE_INTERVAL_MS = 20;
/** The fixtures run again at the default limit: the two whose cap then lets 2 h be decoded. */
const DEFAULT_LIMIT_FIXTURES: readonly BombFixtureName[] = ['lyingM4a', 'chainedOgg'];

const limitSeconds = Number(process.env.BENCH_LIMIT_SECONDS ?? 60);
const { atLeast, below } = EXPECTATIONS_HOLD_FOR_LIMIT_SECONDS;
if (!(limitSeconds >= atLeast && limitSeconds < below)) {
  throw new Error(`BENCH_LIMIT_SECONDS must be from ${atLeast} to under ${below}: the fixtures' expected outcomes hold only there`);
}
const withDefaultLimit = process.env.BENCH_ABUSE_DEFAULT_LIMIT === '1';
/** The service's limit when MAX_AUDIO_DURATION_SECONDS is unset, seconds. */
const defaultLimitSeconds = loadConfig({}).MAX_AUDIO_DURATION_SECONDS;

/** A file clean-up decoded and handed to `measureLevels`: its size on disk and the seconds it holds. */
interface DecodedFile {
  bytes: number;
  seconds: number;
}

type CleanOutcome =
  | { status: 'OK'; durationSeconds: number }
  | { status: 'FAILED'; failure: StageFailure }
  /** Anything but a StageFailure: a bug, never an answer to a bad recording. */
  | { status: 'ERROR'; message: string };

interface Measurement {
  outcome: CleanOutcome;
  wallMs: number;
  /** Peak resident memory, MB, by program name (`ffprobe`, `ffmpeg`); absent when no sample saw it running. */
  peakMegabytes: Map<string, number>;
  decoded: DecodedFile[];
}

const { ffmpegPath, ffprobePath, source: ffmpegSource } = resolveFfmpegBinaries();
// /proc's `Name` is the program's file name, cut to 15 characters.
const programs = { ffprobe: basename(ffprobePath).slice(0, 15), ffmpeg: basename(ffmpegPath).slice(0, 15) };

const loadAtStart = loadavg()[0]!;
const work = await mkdtemp(join(tmpdir(), 'callscope-bench-abuse-'));
try {
  const fixtureFolder = join(work, 'fixtures');
  await mkdir(fixtureFolder);
  console.log('Building the fixtures (ffmpeg encodes 3 h of silence)…');
  const fixtures = await writeBombFixtures(fixtureFolder);
  const runs = [
    ...fixtures.map((fixture) => ({ fixture, limitSeconds })),
    ...(withDefaultLimit
      ? fixtures.filter((fixture) => DEFAULT_LIMIT_FIXTURES.includes(fixture.name)).map((fixture) => ({ fixture, limitSeconds: defaultLimitSeconds }))
      : []),
  ];
  console.log(`Cleaning ${runs.length} recordings one after the other…\n`);

  const rows: string[][] = [];
  const problems: string[] = [];
  const ffprobePeaksMegabytes: number[] = [];
  for (const [index, { fixture, limitSeconds: limit }] of runs.entries()) {
    // Outside the measurement: clean-up probes again itself.
    const stated = await probeAudio(fixture.path, ffprobePath);
    const measured = await measureCleanup(fixture.path, join(work, `output-${index}`), limit);
    problems.push(...unexpectedIn(fixture, limit, measured).map((problem) => `${fixture.name} at ${limit} s: ${problem}`));
    const ffprobePeak = measured.peakMegabytes.get(programs.ffprobe);
    if (ffprobePeak !== undefined) ffprobePeaksMegabytes.push(ffprobePeak);
    rows.push([
      fixture.name,
      String(limit),
      formatBytes(fixture.sizeBytes),
      `${stated.containerDurationSeconds === undefined ? 'none' : `${stated.containerDurationSeconds.toFixed(1)} s`} at ${stated.sampleRateHz ?? '?'} Hz`,
      formatDuration(fixture.holdsSeconds),
      describeOutcome(measured.outcome),
      String(Math.round(measured.wallMs)),
      formatMegabytes(measured.peakMegabytes.get(programs.ffmpeg)),
      measured.decoded.length === 0
        ? 'none'
        : measured.decoded.map((file) => `${file.bytes.toLocaleString('en-US')} (${file.seconds.toFixed(2)} s)`).join(' + '),
    ]);
  }

  console.log(markdownTable(
    ['fixture', 'limit s', 'file size', 'stated (ffprobe)', 'really holds', 'outcome', 'wall ms', 'ffmpeg peak MB', 'decoded bytes'],
    rows,
  ));
  const [firstCpu] = cpus();
  const ffmpegVersion = /^ffmpeg version (\S+)/.exec((await run(ffmpegPath, ['-version'])).stdout)?.[1] ?? 'unknown';
  console.log(`\nmachine: ${firstCpu?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ` +
    `ffmpeg ${ffmpegVersion} (${ffmpegSource}); 1-min load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`);
  console.log(`ffprobe (reads headers only): seen in ${ffprobePeaksMegabytes.length} of ${runs.length} runs, ` +
    `peak ${ffprobePeaksMegabytes.length === 0 ? 'not seen' : `${Math.max(...ffprobePeaksMegabytes).toFixed(1)} MB`}`);
  // resourceUsage().maxRSS is in kilobytes.
  console.log(`Node process peak RSS over the whole run: ${formatMegabytes(process.resourceUsage().maxRSS / 1024)} MB`);
  if (problems.length > 0) {
    console.log(`\n${problems.length} outcome(s) differ from the upload-abuse test's expectations:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log('Every outcome is the one the upload-abuse test expects.');
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

/**
 * Runs clean-up on `sourcePath` as the pipeline would, timing it, sampling its child processes'
 * memory, and recording each file it decoded at the moment it hands it to `measureLevels` (the
 * decode's finished output: clean-up removes it when it then fails).
 */
async function measureCleanup(sourcePath: string, outputDir: string, maxDurationSeconds: number): Promise<Measurement> {
  const decoded: DecodedFile[] = [];
  const context: StageContext = {
    signal: new AbortController().signal,
    reportProgress: () => undefined,
    runInWorker: async (name, input) => {
      // Clean-up asks for nothing else; the other tasks would load the speech and language models.
      if (name !== 'measureLevels') throw new Error(`clean-up asked for the worker task ${name}`);
      const { path } = input as MeasureLevelsInput;
      const bytes = (await stat(path)).size;
      const levels = await measureLevels({ path });
      decoded.push({ bytes, seconds: levels.durationSeconds });
      return levels as WorkerTasks[typeof name]['output'];
    },
  };

  const peakKilobytes = new Map<string, number>();
  let cleaning = true;
  const sampling = (async () => {
    while (cleaning) {
      for (const { name, highWaterKilobytes } of await childProcessMemory()) {
        peakKilobytes.set(name, Math.max(peakKilobytes.get(name) ?? 0, highWaterKilobytes));
      }
      await sleep(SAMPLE_INTERVAL_MS);
    }
  })();

  const started = performance.now();
  let outcome: CleanOutcome;
  try {
    const cleaned = await cleanAudio({ sourcePath, outputDir, maxDurationSeconds }, context);
    outcome = { status: 'OK', durationSeconds: cleaned.durationSeconds };
  } catch (error) {
    outcome = error instanceof StageFailure
      ? { status: 'FAILED', failure: error }
      : { status: 'ERROR', message: error instanceof Error ? error.message : String(error) };
  }
  const wallMs = performance.now() - started;
  cleaning = false;
  await sampling;
  return { outcome, wallMs, peakMegabytes: new Map([...peakKilobytes].map(([name, kilobytes]) => [name, kilobytes / 1024])), decoded };
}

/**
 * Name and peak resident memory (kB) of each live child process of this one. A child between
 * fork and exec still bears Node's name and memory; its entry is told apart by that name.
 */
async function childProcessMemory(): Promise<{ name: string; highWaterKilobytes: number }[]> {
  const statuses = await Promise.all((await childProcessIds(process.pid)).map(processStatus));
  // A child that exited since its pid was listed (or a zombie: no peak left) has no figure.
  return statuses.flatMap((status) => (status?.peakResidentKilobytes !== undefined ? [{ name: status.name, highWaterKilobytes: status.peakResidentKilobytes }] : []));
}

/** How `measured` departs from what the upload-abuse test expects of `fixture` at `limit` seconds; [] when it does not. */
function unexpectedIn(fixture: BombFixture, limit: number, measured: Measurement): string[] {
  const { expected } = fixture;
  const { outcome, decoded } = measured;
  const problems: string[] = [];
  const expectRefusal = (reason: string): void => {
    if (outcome.status !== 'FAILED' || outcome.failure.kind !== 'bad_input' || outcome.failure.reason !== reason) {
      problems.push(`expected bad_input "${reason}", got ${describeOutcome(outcome)}`);
    }
  };
  /** One decoded mono file of more than `overSeconds` and at most `atMostSeconds`, and no larger than that much PCM. */
  const expectOneDecodedFile = (overSeconds: number, atMostSeconds: number): void => {
    if (decoded.length !== 1) problems.push(`decoded ${decoded.length} files, expected 1`);
    for (const file of decoded) {
      if (!(file.seconds > overSeconds && file.seconds <= atMostSeconds)) {
        problems.push(`decoded ${file.seconds.toFixed(2)} s, expected over ${overSeconds} s and at most ${atMostSeconds.toFixed(2)} s`);
      }
      const maximumBytes = atMostSeconds * CLEANED_BYTES_PER_SECOND + WAV_HEADER_ALLOWANCE_BYTES;
      if (file.bytes > maximumBytes) problems.push(`decoded ${file.bytes} bytes, expected at most ${Math.floor(maximumBytes)}`);
    }
  };

  switch (expected.outcome) {
    case 'refused-from-header':
      expectRefusal(cleanupFailures.tooLong(expected.statedSeconds, limit).reason);
      if (decoded.length > 0) problems.push('decoded before refusing on the stated length');
      break;
    case 'refused-sample-rate':
      expectRefusal(cleanupFailures.sampleRateTooLow(expected.sampleRateHz, MIN_SOURCE_SAMPLE_RATE_HZ).reason);
      if (decoded.length > 0) problems.push('decoded before refusing on the sample rate');
      break;
    case 'capped':
      expectRefusal(cleanupFailures.longerThanLimit(limit).reason);
      expectOneDecodedFile(limit, cappedDecodeSeconds(limit));
      break;
    case 'processed':
      // Within 0.05 s of what the file holds, as the test's toBeCloseTo(seconds, 1).
      if (outcome.status !== 'OK' || Math.abs(outcome.durationSeconds - expected.seconds) >= 0.05) {
        problems.push(`expected OK with ${expected.seconds} s, got ${describeOutcome(outcome)}`);
      }
      expectOneDecodedFile(expected.seconds - 0.05, expected.seconds + 0.05);
      break;
  }
  return problems;
}

function describeOutcome(outcome: CleanOutcome): string {
  switch (outcome.status) {
    case 'OK': return `OK, ${outcome.durationSeconds.toFixed(2)} s`;
    case 'FAILED': return `FAILED (${outcome.failure.kind}): ${outcome.failure.reason}`;
    case 'ERROR': return `ERROR: ${outcome.message}`;
  }
}

function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** 80 010 → "22 h 13 min 30 s"; zero parts are left out. */
function formatDuration(totalSeconds: number): string {
  const parts: [number, string][] = [[Math.floor(totalSeconds / 3600), 'h'], [Math.floor((totalSeconds % 3600) / 60), 'min'], [totalSeconds % 60, 's']];
  return parts.filter(([value]) => value > 0).map(([value, unit]) => `${value} ${unit}`).join(' ');
}

/** "not seen" when no sample caught the program running (it did not run, or ran under 20 ms). */
function formatMegabytes(megabytes: number | undefined): string {
  return megabytes === undefined ? 'not seen' : megabytes.toFixed(1);
}
