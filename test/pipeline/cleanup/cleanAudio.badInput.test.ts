import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanAudio, type CleanedAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { createTestStageContext, type TestStageContext } from '../testStageContext.js';
import { generateAudio, generateUnderestimatedAac } from './generateAudio.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';

// Needs the real ffmpeg (system or bundled). Every recording here is generated at test time.

const DAMAGED = 'The audio could not be decoded; the file may be damaged or not an audio file';

let folder: string;
/** 3 hours of a quiet tone in Opus at 6 kbit/s (7 MB): one encoded minute, stream-copied 180 times. */
let threeHours: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'clean-audio-bad-'));
  const minute = await generateAudio(join(folder, 'minute.ogg'), ['-f', 'lavfi', '-i', 'sine=f=300:d=60:r=8000', '-c:a', 'libopus', '-b:a', '6k']);
  threeHours = await generateAudio(join(folder, 'three-hours.ogg'), ['-stream_loop', '179', '-i', minute, '-c', 'copy']);
});
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

interface Attempt {
  outputDir: string;
  context: TestStageContext;
  run: () => Promise<CleanedAudio>;
}

async function attempt(sourcePath: string, maxDurationSeconds = 7200, context = createTestStageContext()): Promise<Attempt> {
  const outputDir = await mkdtemp(join(folder, 'out-'));
  return { outputDir, context, run: () => cleanAudio({ sourcePath, outputDir, maxDurationSeconds }, context) };
}

/** Fails as bad input with exactly `reason`, leaving nothing in the output folder. */
async function expectBadInput(sourcePath: string, reason: string, maxDurationSeconds?: number): Promise<Attempt> {
  const started = await attempt(sourcePath, maxDurationSeconds);
  const failure = await started.run().then(() => undefined, (error: unknown) => error);
  expect(failure).toBeInstanceOf(StageFailure);
  expect(failure).toMatchObject({ kind: 'bad_input', reason });
  expect(await readdir(started.outputDir)).toEqual([]);
  return started;
}

async function sourceFile(name: string, content: Buffer | string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

/** Bytes that look random, the same on every run (a fresh draw could, rarely, parse as audio). */
function noiseBytes(length: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/** Ids of processes whose command line mentions `text` (Linux /proc). */
async function processesMentioning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(text)) found.push(pid);
  }
  return found;
}

describe('cleanAudio on bad audio, with real ffmpeg', () => {
  it('fails a WAV header with no samples as holding no audio', async () => {
    await expectBadInput(await sourceFile('empty.wav', pcmWav(new Int16Array(0))), 'The recording contains no audio');
  });

  it('fails random bytes named .mp3 as damaged', async () => {
    await expectBadInput(await sourceFile('random.mp3', noiseBytes(200_000)), DAMAGED);
  });

  it('fails a text file as damaged', async () => {
    await expectBadInput(await sourceFile('notes.m4a', 'Meeting notes: call Alice back on Tuesday.\n'.repeat(50)), DAMAGED);
  });

  it('fails an image as holding no audio stream', async () => {
    const image = await generateAudio(join(folder, 'picture.png'), ['-f', 'lavfi', '-i', 'color=c=red:s=32x32', '-frames:v', '1']);
    await expectBadInput(image, 'The file holds no audio stream');
  });

  it('cleans what decodes of an mp3 cut in half', async () => {
    const whole = await generateAudio(join(folder, 'whole.mp3'), ['-f', 'lavfi', '-i', 'sine=f=440:d=20:r=44100', '-c:a', 'libmp3lame', '-b:a', '64k']);
    const bytes = await readFile(whole);
    const cleaned = await (await attempt(await sourceFile('half.mp3', bytes.subarray(0, bytes.length / 2)))).run();

    expect(cleaned.durationSeconds).toBeGreaterThan(8);
    expect(cleaned.durationSeconds).toBeLessThan(12);
  });

  it.each([
    ['m4a', ['-c:a', 'aac', '-b:a', '64k']],
    ['mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']],
  ])('cleans an %s whose middle is overwritten with garbage', async (extension, codec) => {
    const whole = await generateAudio(join(folder, `intact.${extension}`), ['-f', 'lavfi', '-i', 'sine=f=440:d=20:r=44100', ...codec]);
    const bytes = await readFile(whole);
    const [from, to] = [Math.floor(bytes.length * 0.4), Math.floor(bytes.length * 0.6)];
    const zeroed = Buffer.from(bytes).fill(0, from, to);
    noiseBytes(to - from).copy(bytes, from);

    // The frames the garbage replaced are lost, and a few seconds more when garbage decodes as
    // another channel count: ffmpeg then rebuilds the filter graph, dropping what loudnorm held.
    const garbled = await (await attempt(await sourceFile(`garbled.${extension}`, bytes))).run();
    expect(garbled.durationSeconds).toBeGreaterThan(10);
    expect(garbled.durationSeconds).toBeLessThan(20.1);
    // Zeroed frames are skipped: an m4a's index keeps the timeline (the gap becomes silence);
    // an mp3 has none, so it comes out shorter.
    const gapped = await (await attempt(await sourceFile(`zeroed.${extension}`, zeroed))).run();
    if (extension === 'm4a') expect(gapped.durationSeconds).toBeCloseTo(20, 1);
    else expect(gapped.durationSeconds).toBeLessThan(17);
  });

  it('fails 60 s of silence as only silence', async () => {
    const silence = await generateAudio(join(folder, 'silence.m4a'), ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '60', '-c:a', 'aac']);
    await expectBadInput(silence, 'The recording contains only silence');
  });

  it('fails a recording of nothing but faint line hiss as only silence, though loudnorm lifts it', async () => {
    const hiss = await generateAudio(join(folder, 'hiss.wav'), ['-f', 'lavfi', '-i', 'anoisesrc=a=0.001:c=white:d=20:r=16000', '-c:a', 'pcm_s16le']);
    await expectBadInput(hiss, 'The recording contains only silence');
  });

  it('fails a 3-hour recording as too long from its header, without decoding it', async () => {
    const { context } = await expectBadInput(threeHours, 'The recording is 3 h 0 min long; the limit is 2 h 0 min', 7200);
    expect(context.progress).toEqual([]);
  });

  it('cleans the samples a WAV holds, not the 10 hours its header claims', async () => {
    const lying = await sourceFile('lying.wav', pcmWav(sine(440, 1, 0.5), { declaredDataBytes: 10 * 3600 * 32000 }));
    const cleaned = await (await attempt(lying)).run();

    expect(cleaned.durationSeconds).toBeCloseTo(1, 1);
  });

  it('fails a stream longer than its header suggests once decoding passes the limit', async () => {
    // ffprobe guesses about 10 s; it holds 3 minutes.
    const underestimated = await generateUnderestimatedAac(join(folder, 'underestimated.aac'), 180);
    await expectBadInput(underestimated, 'The recording is longer than the limit of 0 h 1 min', 60);
  });

  it('kills ffmpeg and leaves no files when the signal aborts mid-decode', async () => {
    const controller = new AbortController();
    const reason = new Error('call given up');
    const context: TestStageContext = { ...createTestStageContext(controller.signal), reportProgress: () => controller.abort(reason) };
    const started = await attempt(threeHours, 4 * 3600, context);

    await expect(started.run()).rejects.toBe(reason);
    expect(await readdir(started.outputDir)).toEqual([]);
    if (process.platform === 'linux') expect(await processesMentioning(started.outputDir)).toEqual([]);
  });

  it('throws at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    const started = await attempt(threeHours, 4 * 3600, createTestStageContext(controller.signal));

    await expect(started.run()).rejects.toThrow('shutting down');
  });
});
