import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { transcribeAudio, type TranscriptionOptions } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';
import { createTestStageContext } from '../testStageContext.js';
import { fixturePath, jfkWav as jfk, requireWhisperCli, sileroVadModel as vadModel, stubWhisperModel as stubModel } from './transcriptionTestFiles.js';

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), 'transcribe-audio-')); });
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

/** A fresh, empty folder for whisper's output, to show the stage leaves nothing in it. */
const emptyFolder = () => mkdtemp(join(folder, 'temp-'));

/** A stand-in for whisper-cli: a shell script running `body` (`$out` holds the `-of` value). */
async function fakeWhisperCli(body: string): Promise<string> {
  const path = join(await emptyFolder(), 'whisper-cli');
  await writeFile(path, `#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -of ] && out="$2"; shift; done\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** A stand-in whisper-cli that prints `stderr` and exits with `exitCode`. */
const failingWhisperCli = (stderr: string, exitCode: number) => fakeWhisperCli(`printf '%s\\n' '${stderr}' >&2\nexit ${exitCode}`);

/** Command lines of the running processes that contain `text` (Linux /proc). */
async function processesMentioning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(text)) found.push(commandLine.replaceAll('\0', ' '));
  }
  return found;
}

async function expectFailure(promise: Promise<unknown>, kind: StageFailure['kind'], reason: RegExp): Promise<StageFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(StageFailure);
  expect((error as StageFailure).kind).toBe(kind);
  expect((error as StageFailure).reason).toMatch(reason);
  return error as StageFailure;
}

describe('transcribeAudio with the real whisper-cli and the structure-only model', () => {
  beforeAll(requireWhisperCli);

  it('runs with VAD, returns no words (the stub transcribes to empty text) and the language, reports progress, leaves no files', async () => {
    const tempDir = await emptyFolder();
    const context = createTestStageContext();
    const transcription = await transcribeAudio(
      { audioPath: jfk, durationSeconds: 11 },
      { modelPath: stubModel, vadModelPath: vadModel, threads: 2, tempDir },
      context,
    );
    expect(transcription).toEqual({ language: 'en', words: [], provider: 'whisper.cpp', model: 'whisper-test-stub-tiny.en.bin' });
    expect(context.progress.length).toBeGreaterThan(0);
    expect(context.progress.every((fraction) => fraction >= 0 && fraction <= 1)).toBe(true);
    expect(context.progress.at(-1)).toBe(1);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('runs without VAD when the VAD model file is missing', async () => {
    const tempDir = await emptyFolder();
    const transcription = await transcribeAudio(
      { audioPath: jfk, durationSeconds: 11 },
      { modelPath: stubModel, vadModelPath: join(folder, 'no-vad.bin'), tempDir },
      createTestStageContext(),
    );
    expect(transcription).toMatchObject({ language: 'en', words: [] });
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('reports progress as it goes through a long recording', async () => {
    const audioPath = join(folder, 'tone-90s.wav');
    await writeFile(audioPath, pcmWav(sine(440, 90, 0.3)));
    const context = createTestStageContext();
    await transcribeAudio({ audioPath, durationSeconds: 90 }, { modelPath: stubModel, threads: 2, tempDir: await emptyFolder() }, context);
    // 30 s windows: a third, two thirds, done.
    expect(context.progress.length).toBeGreaterThanOrEqual(3);
    expect(context.progress[0]).toBeLessThan(0.5);
    expect([...context.progress].sort((a, b) => a - b)).toEqual(context.progress);
  }, 60_000);

  it('kills whisper-cli when the call is given up, and leaves no files', async () => {
    const audioPath = join(folder, 'tone-10min.wav');
    await writeFile(audioPath, pcmWav(sine(440, 600, 0.3)));
    const tempDir = await emptyFolder();
    const controller = new AbortController();
    const context = createTestStageContext(controller.signal);
    const running = transcribeAudio({ audioPath, durationSeconds: 600 }, { modelPath: stubModel, threads: 1, tempDir }, context);
    // Abort once whisper is decoding: its first progress report.
    await expect.poll(() => context.progress.length, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
    expect(await processesMentioning(tempDir)).toHaveLength(1);
    controller.abort(new Error('given up'));

    await expect(running).rejects.toThrow('given up');
    // Killed, not waited for: whisper (a report every 30 s of audio) never reached the end of the ten minutes.
    expect(Math.max(...context.progress)).toBeLessThan(1);
    expect(await processesMentioning(tempDir)).toEqual([]);
    expect(await readdir(tempDir)).toEqual([]);
  }, 60_000);

  it('fails with `unavailable` when the model file is not a whisper model', async () => {
    const modelPath = join(folder, 'not-a-model.bin');
    await writeFile(modelPath, 'an HTML error page saved as the model');
    await expectFailure(
      transcribeAudio({ audioPath: jfk, durationSeconds: 11 }, { modelPath, tempDir: await emptyFolder() }, createTestStageContext()),
      'unavailable', /WHISPER_MODEL .*could not be loaded.*replace it/,
    );
  });

  it('fails with `unavailable` for a language whisper does not know', async () => {
    await expectFailure(
      transcribeAudio({ audioPath: jfk, durationSeconds: 11 }, { modelPath: stubModel, language: 'xx', tempDir: await emptyFolder() }, createTestStageContext()),
      'unavailable', /WHISPER_LANGUAGE=xx/,
    );
  });

  it('fails with `bad_input` when whisper cannot read the audio', async () => {
    const audioPath = join(folder, 'not-audio.wav');
    await writeFile(audioPath, 'not a wav file at all');
    await expectFailure(
      transcribeAudio({ audioPath, durationSeconds: 11 }, { modelPath: stubModel, tempDir: await emptyFolder() }, createTestStageContext()),
      'bad_input', /could not be read/,
    );
  });

  it('fails with an internal error when whisper-cli crashes on a VAD model that is not one', async () => {
    const error = await transcribeAudio(
      { audioPath: jfk, durationSeconds: 11 },
      { modelPath: stubModel, vadModelPath: stubModel, tempDir: await emptyFolder() },
      createTestStageContext(),
    ).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(StageFailure);
    expect((error as Error).message).toMatch(/whisper-cli crashed \(SIGABRT\).*WHISPER_MODEL and VAD_MODEL/);
  });
});

describe('transcribeAudio when something is not installed', () => {
  const input = { audioPath: jfk, durationSeconds: 11 };

  it('fails with `unavailable` and the build command when whisper-cli is not built', async () => {
    const options: TranscriptionOptions = { modelPath: stubModel, whisperCliPath: join(folder, 'native', 'bin', 'whisper-cli') };
    await expectFailure(transcribeAudio(input, options, createTestStageContext()), 'unavailable', /not built: run `npm run build:native`.*cmake and g\+\+/);
  });

  it('fails with `model_missing` (the call waits for it), naming WHISPER_MODEL and where to get a model, when the model is missing', async () => {
    // Any executable passes the binary check; the model is checked before anything runs.
    const options: TranscriptionOptions = { modelPath: join(packageRoot, 'models', 'missing-whisper.bin'), whisperCliPath: process.execPath };
    const failure = await expectFailure(transcribeAudio(input, options, createTestStageContext()), 'model_missing', /WHISPER_MODEL \(now models\/missing-whisper\.bin\)/);
    expect(failure.reason).toMatch(/huggingface\.co\/ggerganov\/whisper\.cpp/);
  });

  it('names only the file of a model outside the install folder, never its full path', async () => {
    const options: TranscriptionOptions = { modelPath: '/srv/private/speech/ggml-small.bin', whisperCliPath: process.execPath };
    const failure = await expectFailure(transcribeAudio(input, options, createTestStageContext()), 'model_missing', /\(now ggml-small\.bin\)/);
    expect(failure.reason).not.toContain('/srv');
  });
});

describe('transcribeAudio with a stand-in whisper-cli', () => {
  const run = async (whisperCliPath: string, context = createTestStageContext()) =>
    transcribeAudio(
      { audioPath: jfk, durationSeconds: 11 },
      { modelPath: stubModel, vadModelPath: vadModel, whisperCliPath, tempDir: await emptyFolder() },
      context,
    );

  it('turns whisper\'s JSON and VAD log into words on the recording\'s timeline, with progress from the segments it prints', async () => {
    const whisperCli = await fakeWhisperCli([
      `cat '${fixturePath('vad-stderr.txt')}' >&2`,
      // Segment lines on stdout, as whisper-cli prints them while decoding.
      "printf '%s\\n' '[00:00:00.320 --> 00:00:02.270]   And so my fellow Americans,' '[00:00:05.380 --> 00:00:10.620]   what your country can do'",
      `cp '${fixturePath('vad-processed-timeline.json')}' "$out.json"`,
    ].join('\n'));
    const context = createTestStageContext();
    const transcription = await run(whisperCli, context);

    expect(transcription.language).toBe('en');
    expect(transcription.words.map((word) => word.text).join(' ')).toBe('And so my fellow Americans, ask not what your country can do');
    expect(transcription.words.find((word) => word.text === 'can')).toMatchObject({ startSeconds: 8.17, endSeconds: 8.47 });
    expect(context.progress).toEqual([2.27 / 11, 10.62 / 11, 1]);
  });

  it('treats a failure to decode (exit 10) as an internal error', async () => {
    await expect(run(await failingWhisperCli('/x/whisper-cli: failed to process audio', 10))).rejects.toThrow('whisper-cli failed with exit code 10');
  });

  it('treats a clean exit without a transcript as an internal error', async () => {
    await expect(run(await failingWhisperCli('done', 0))).rejects.toThrow('whisper-cli wrote no transcript');
  });

  it('does not put whisper-cli\'s output into the error', async () => {
    const error = await run(await failingWhisperCli('error: something about /srv/calls/alice.wav', 2)).then(() => undefined, (caught: unknown) => caught as Error);
    expect(error?.message).toBe('whisper-cli failed with exit code 2');
  });

  it('stops a whisper-cli whose memory grows past the limit (a damaged model) and says the model is probably damaged', async () => {
    // Grows by 32 MB every 20 ms and would go on until the machine's memory is gone.
    const greedy = await fakeWhisperCli(`exec '${process.execPath}' -e 'const held = []; setInterval(() => held.push(Buffer.alloc(32 * 1024 * 1024, 1)), 20)'`);
    const limitBytes = 256 * 1024 ** 2;
    const failure = await expectFailure(
      transcribeAudio({ audioPath: jfk, durationSeconds: 11 }, { modelPath: stubModel, whisperCliPath: greedy, tempDir: await emptyFolder(), maxMemoryBytes: limitBytes }, createTestStageContext()),
      'unavailable',
      /needed more than 256 MB of memory with the model at WHISPER_MODEL \(now .*whisper-test-stub-tiny\.en\.bin\): the model is probably damaged; replace it/,
    );
    expect(failure.reason).not.toMatch(/\/work|\/tmp/);
    // Killed, not left running.
    expect(await processesMentioning('held.push')).toEqual([]);
  });
});
