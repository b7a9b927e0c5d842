import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cappedDecodeSeconds, CLEANED_BYTES_PER_SECOND, WAV_HEADER_ALLOWANCE_BYTES, writeBombFixtures, type BombFixture, type BombFixtureName,
} from '../../scripts/audio/bombFixtures.js';
import type { WorkerTasks } from '../../src/infrastructure/workers/workerTasks.js';
import { MIN_SOURCE_SAMPLE_RATE_HZ } from '../../src/pipeline/cleanup/cleanAudio.js';
import { resolveFfmpegBinaries } from '../../src/pipeline/cleanup/ffmpegBinaries.js';
import { probeAudio, type ProbedAudio } from '../../src/pipeline/cleanup/probeAudio.js';
import type { StageContext } from '../../src/pipeline/StageContext.js';
import type { CallPipeline, PipelineRun } from '../../src/processing/CallPipeline.js';
import { productionStages } from '../../src/processing/productionPipeline.js';
import { createServicePipeline, startProcessing, type Processing } from '../../src/processing/startProcessing.js';
import { callFolders, postUpload, tempFiles } from '../helpers/callInspection.js';
import { engineIdle, stageOutcomes, waitForStatus, type CallView } from '../helpers/processingHarness.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';

/*
 * Upload abuse with decompression-bomb-like recordings: files of a few hundred bytes to a few
 * hundred KB that decode to hours of audio (16 kHz mono 16-bit PCM is 115 MB an hour). Each
 * goes through the real upload (202), the real engine and the production pipeline, whose first
 * stage, clean-up, must end it with a clear reason and leave no working file behind:
 *
 * - a header that states hours: refused from the header, nothing decoded;
 * - a header that hides or understates the length: decoding stops at limit + 1 s, and the
 *   reason says "longer than the limit";
 * - a header that claims gigabytes the file does not hold: cleaned as what it holds;
 * - a sample rate no recorder uses (1 Hz, each sample becoming 16 000): refused, nothing decoded.
 *
 * Nothing here is timed. The bound is structural: the pipeline runs through a thin observer
 * that records the size of every decoded file clean-up hands to `measureLevels` (the decode's
 * finished output, measured before clean-up decides), so "at most limit + 1 s was decoded" is
 * read off the file ffmpeg wrote, not inferred from a stopwatch. (ffmpeg's memory is not
 * asserted; `npm run bench:abuse` measures it, and the time, for these same files.) The fixtures
 * are built in scripts/audio/bombFixtures.ts, which the benchmark shares.
 */

/** The service's lowest allowed limit, in seconds: keeps a capped decode to ~2 s of ffmpeg work. */
const LIMIT_SECONDS = 60;
/** Longest cleaned audio the decode cap allows at this limit, in seconds (61.2). */
const CAPPED_DECODE_SECONDS = cappedDecodeSeconds(LIMIT_SECONDS);
/** The same as a file: 16 kHz mono 16-bit PCM (~1.96 MB). */
const CAPPED_DECODE_BYTES = CAPPED_DECODE_SECONDS * CLEANED_BYTES_PER_SECOND + WAV_HEADER_ALLOWANCE_BYTES;

const STATED_TOO_LONG = (length: string) => `The recording is ${length} long; the limit is 0 h 1 min`;
const DECODED_TOO_LONG = 'The recording is longer than the limit of 0 h 1 min';

/** A decoded file clean-up measured: its size on disk and the seconds of samples it holds. */
interface DecodedFile {
  bytes: number;
  seconds: number;
}

/** Every decoded file clean-up measured, by call id. */
const decodedByCall = new Map<string, DecodedFile[]>();

/**
 * The production pipeline, unchanged, except that clean-up's `runInWorker` is watched: before
 * each `measureLevels` result returns to clean-up, the measured file's size is recorded.
 */
function observingPipeline(production: CallPipeline): CallPipeline {
  return (job, run) => {
    const observed: PipelineRun = {
      stage: (definition, work) => run.stage(definition, definition.name === productionStages.cleanup.name
        ? (context) => work(observingContext(job.callId, context))
        : work),
      optionalStage: (definition, work, fallback, warning) => run.optionalStage(definition, work, fallback, warning),
      enterPhase: (phase) => run.enterPhase(phase),
    };
    return production(job, observed);
  };
}

function observingContext(callId: string, context: StageContext): StageContext {
  return {
    signal: context.signal,
    reportProgress: (fraction) => context.reportProgress(fraction),
    runInWorker: async (name, input) => {
      const output = await context.runInWorker(name, input);
      if (name === 'measureLevels') {
        const { path } = input as WorkerTasks['measureLevels']['input'];
        const { durationSeconds } = output as WorkerTasks['measureLevels']['output'];
        const files = decodedByCall.get(callId) ?? [];
        files.push({ bytes: (await stat(path)).size, seconds: durationSeconds });
        decodedByCall.set(callId, files);
      }
      return output;
    },
  };
}

let folder: string;
let fixtures: BombFixture[];
let testApp: TestApp;
let processing: Processing;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'callscope-bomb-'));
  fixtures = await writeBombFixtures(folder);

  testApp = await startTestApp({
    MAX_AUDIO_DURATION_SECONDS: String(LIMIT_SECONDS),
    WORKER_CONCURRENCY: '1',
    WORKER_THREADS: '1',
    // A model that is certainly absent: a recording that cleans successfully then fails at the
    // next stage, saying so, instead of running diarization.
    SEGMENTATION_MODEL: join(folder, 'absent-segmentation.onnx'),
  });
  const log = pino({ level: 'silent' });
  processing = await startProcessing(testApp.services, log, observingPipeline(createServicePipeline(testApp.services, log)));
}, 60_000);

afterAll(async () => {
  await processing?.stop(0);
  await testApp?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

function fixtureNamed(name: BombFixtureName): BombFixture {
  const fixture = fixtures.find((candidate) => candidate.name === name);
  if (!fixture) throw new Error(`no fixture ${name}`);
  return fixture;
}

/** What clean-up's probe reads from a fixture's headers: the length it states, its sample rate. */
function probed(fixture: BombFixture): Promise<ProbedAudio> {
  return probeAudio(fixture.path, resolveFfmpegBinaries().ffprobePath);
}

interface ProcessedUpload {
  callId: string;
  view: CallView;
  /** What clean-up decoded and measured ([] when it refused before decoding). */
  decoded: DecodedFile[];
}

/**
 * Uploads the fixture (which must be accepted: 202, QUEUED), waits for the call to end FAILED
 * (a COMPLETED call fails the wait at once) and for its run to finish cleaning up, then checks
 * that the run left no working file and no temp file.
 */
async function uploadUntilFailed(fixture: BombFixture): Promise<ProcessedUpload> {
  const client = testApp.as('mallory');
  const response = await postUpload(client, uploadForm(await readFile(fixture.path), basename(fixture.path), { metadata: { title: 'Bomb', contactName: 'Eve' } }));
  expect(response.status).toBe(202);
  const { callId, status } = (await response.json()) as { callId: string; status: string };
  expect(status).toBe('QUEUED');

  // Bounds, not timings: a capped decode takes ~2 s; an uncapped one of these files minutes.
  const view = await waitForStatus(client, callId, 'FAILED', 25_000);
  await engineIdle(processing.engine, 10_000);

  // The run removed its working folder; nothing of the upload is left in DATA_DIR/tmp.
  expect(existsSync(join(testApp.dataDir, 'objects', 'calls', callId, 'work'))).toBe(false);
  expect(callFolders(testApp.dataDir)).toContain(callId);
  expect(await readdir(join(testApp.dataDir, 'objects', 'calls', callId))).toEqual([`original${extname(fixture.path)}`]);
  expect(tempFiles(testApp.dataDir)).toEqual([]);
  return { callId, view, decoded: decodedByCall.get(callId) ?? [] };
}

/** The clean-up event of the call, with the kind of failure it recorded. */
async function cleanupEvent(callId: string): Promise<{ outcome: string; kind?: string }> {
  const event = (await processing.engine.events.forCall(callId)).find((entry) => entry.stage === productionStages.cleanup.name);
  if (!event) throw new Error(`no clean-up event for call ${callId}`);
  const detail = event.detail ? (JSON.parse(event.detail) as { kind?: string }) : {};
  return { outcome: event.outcome, ...(detail.kind ? { kind: detail.kind } : {}) };
}

describe('decompression-bomb-like uploads', () => {
  test.each([
    ['3 h of silence as a 680 KB m4a', 'threeHoursM4a', 10_800, '3 h 0 min'],
    ['a 96 KB WAV of 48 000 samples at 1 sample per second', 'oneHertzWav', 48_000, '13 h 20 min'],
  ] as const)('%s that states its length is refused from the header, before any decoding', async (_label, name, seconds, length) => {
    const fixture = fixtureNamed(name);
    expect(fixture.sizeBytes).toBeLessThan(1_000_000);
    // The benchmark judges each fixture by its `expected`: it must say what this test proves.
    expect(fixture.expected).toEqual({ outcome: 'refused-from-header', statedSeconds: seconds });
    // The premise: the header states the hours.
    expect((await probed(fixture)).containerDurationSeconds).toBeCloseTo(seconds, 0);

    const { callId, view, decoded } = await uploadUntilFailed(fixture);

    expect(view.errorReason).toBe(STATED_TOO_LONG(length));
    // Failed in clean-up as bad input (not an internal error), and nothing ran after it.
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['cleanup', 'FAILED']]);
    expect(await cleanupEvent(callId)).toEqual({ outcome: 'FAILED', kind: 'bad_input' });
    // The stated-length refusal comes before the decode: no decoded file was ever measured.
    expect(decoded).toEqual([]);
  });

  test.each([
    ['a 67 KB raw ADTS stream of 10 min that ffprobe guesses at ~24 s', 'hiddenAdts'],
    ['a 680 KB m4a of 3 h whose headers say 10 s', 'lyingM4a'],
    ['a 20 KB chained Ogg whose second link says 1 Hz (22 h) behind 10 s at 8 kHz', 'chainedOgg'],
  ] as const)('%s is stopped by the decode cap at limit + 1 s', async (_label, name) => {
    const fixture = fixtureNamed(name);
    expect(fixture.sizeBytes).toBeLessThan(1_000_000);
    expect(fixture.expected).toEqual({ outcome: 'capped' });
    // The premise: the headers ffprobe reads hide the length (they state less than the limit,
    // at an ordinary rate), so only decoding can tell.
    const { containerDurationSeconds, sampleRateHz } = await probed(fixture);
    expect(containerDurationSeconds).toBeLessThan(LIMIT_SECONDS);
    expect(sampleRateHz).toBeGreaterThanOrEqual(MIN_SOURCE_SAMPLE_RATE_HZ);

    const { callId, view, decoded } = await uploadUntilFailed(fixture);

    expect(view.errorReason).toBe(DECODED_TOO_LONG);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['cleanup', 'FAILED']]);
    expect(await cleanupEvent(callId)).toEqual({ outcome: 'FAILED', kind: 'bad_input' });
    // One mono file was decoded, cut at limit + 1 s: 61 s of PCM (~1.95 MB), not the 19 MB of
    // 10 minutes, the 345 MB of 3 hours or the 2.5 GB of 22 hours.
    expect(decoded).toHaveLength(1);
    const [cleaned] = decoded;
    expect(cleaned!.seconds).toBeGreaterThan(LIMIT_SECONDS);
    expect(cleaned!.seconds).toBeLessThanOrEqual(CAPPED_DECODE_SECONDS);
    expect(cleaned!.bytes).toBeLessThanOrEqual(CAPPED_DECODE_BYTES);
  });

  test.each([
    ['4 GB (~37 h)', 'fourGigabyteWav'],
    ['0 bytes', 'zeroSizeWav'],
  ] as const)('a 64 KB WAV whose RIFF and data sizes claim %s is cleaned as the 2 s it holds', async (_label, name) => {
    const fixture = fixtureNamed(name);
    expect(fixture.expected).toEqual({ outcome: 'processed', seconds: 2 });
    // The premise: the probe clamps the claim to the bytes present.
    expect((await probed(fixture)).containerDurationSeconds).toBeCloseTo(2, 1);

    const { callId, view, decoded } = await uploadUntilFailed(fixture);

    // Clean-up succeeded on 2 s of audio; the call then failed at the next stage, for the reason
    // this test arranged (no segmentation model), not for its length.
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['cleanup', 'OK'], ['diarization', 'FAILED']]);
    expect(view.errorReason).toMatch(/segmentation model .* is not installed/);
    expect(view.errorReason).not.toMatch(/long|limit/);
    expect(decoded).toHaveLength(1);
    expect(decoded[0]!.seconds).toBeCloseTo(2, 1);
    expect(decoded[0]!.bytes).toBeLessThanOrEqual(2 * CLEANED_BYTES_PER_SECOND + WAV_HEADER_ALLOWANCE_BYTES);
  });

  test('a 144-byte WAV at 1 sample per second, stating 50 s (under the limit), is refused for its sample rate before any decoding', async () => {
    const fixture = fixtureNamed('shortOneHertzWav');
    expect(fixture.expected).toEqual({ outcome: 'refused-sample-rate', sampleRateHz: 1 });
    // The premise: the length passes; each of its samples would become 16 000.
    expect(await probed(fixture)).toMatchObject({ containerDurationSeconds: 50, sampleRateHz: 1 });

    const { callId, view, decoded } = await uploadUntilFailed(fixture);

    expect(view.errorReason).toBe(`The audio's sample rate of 1 Hz is too low for a recording; the minimum is ${MIN_SOURCE_SAMPLE_RATE_HZ} Hz`);
    expect(await stageOutcomes(processing.engine, callId)).toEqual([['cleanup', 'FAILED']]);
    expect(await cleanupEvent(callId)).toEqual({ outcome: 'FAILED', kind: 'bad_input' });
    expect(decoded).toEqual([]);
  });
});
