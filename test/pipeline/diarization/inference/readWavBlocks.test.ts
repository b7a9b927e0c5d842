import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWavBlocks, readWavFormat } from '../../../../src/pipeline/diarization/inference/readWavBlocks.js';
import { pcm16MonoWav, pcm16WavHeader } from '../../../../src/pipeline/signal/pcm16Wav.js';

// readWavBlocks following a file while another writer (ffmpeg in clean-up) is still writing it.

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'callscope-wav-follow-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

/** A ramp that is different at every sample of the first 64 Ki, so misplaced blocks show. */
function signal(samples: number): Float32Array {
  return Float32Array.from({ length: samples }, (_, index) => ((index * 37) % 65536 - 32768) / 32768);
}

/** Every block's start and samples, copied (the reader reuses its arrays); `busyMs`: time spent on each block, as the segmentation does. */
async function blocksOf(path: string, beingWritten?: Parameters<typeof readWavBlocks>[1], busyMs = 0): Promise<{ startSample: number; samples: number[] }[]> {
  const blocks = [];
  for await (const block of readWavBlocks(path, beingWritten)) {
    blocks.push({ startSample: block.startSample, samples: Array.from(block.channels[0]!) });
    if (busyMs > 0) await pause(busyMs);
  }
  return blocks;
}

/**
 * Writes `wav` to `path` as ffmpeg does: a header whose sizes are 0xFFFFFFFF, the samples in
 * uneven pieces (odd byte counts too) with pauses between them, then the sizes patched. Resolves
 * once the file is finished; `patch: false` leaves the sizes unpatched (a writer that was killed).
 */
async function writeSlowly(path: string, wav: Buffer, options: { pieceBytes: number; pauseMs: number; patch?: boolean }): Promise<void> {
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(0xffffffff, 4);
  header.writeUInt32LE(0xffffffff, 40);
  const handle = await open(path, 'w');
  try {
    // The header itself arrives in two pieces: a reader must wait for the data chunk's header.
    await handle.write(header.subarray(0, 20), 0, 20, 0);
    await pause(options.pauseMs);
    await handle.write(header.subarray(20), 0, 24, 20);
    for (let offset = 44; offset < wav.length; offset += options.pieceBytes) {
      const piece = wav.subarray(offset, Math.min(wav.length, offset + options.pieceBytes));
      await handle.write(piece, 0, piece.length, offset);
      await pause(options.pauseMs);
    }
    if (options.patch !== false) await handle.write(wav.subarray(0, 44), 0, 44, 0);
  } finally {
    await handle.close();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('readWavBlocks of a file being written', () => {
  // 3.3 blocks of 64 Ki samples: three whole blocks and a partial one.
  const samples = signal(3 * 65536 + 21845);
  const wav = pcm16MonoWav(samples, 16000);

  it('yields the same blocks as from the finished file, though the file appears late and grows in uneven pieces', async () => {
    const finished = join(dir, 'finished.wav');
    await writeFile(finished, wav);
    const expected = await blocksOf(finished);
    expect(expected.map((block) => block.samples.length)).toEqual([65536, 65536, 65536, 21845]);

    const path = join(dir, 'growing.wav');
    // The reader starts before the writer has created the file.
    const written = pause(30).then(() => writeSlowly(path, wav, { pieceBytes: 40_001, pauseMs: 5 }));
    expect(await blocksOf(path, { written })).toEqual(expected);

    // A reader slower than the writer: the writer finishes while a block is being worked on,
    // after the reader last looked at the header, and the rest is still read.
    const slowPath = join(dir, 'slow.wav');
    const slowWritten = writeSlowly(slowPath, wav, { pieceBytes: 140_000, pauseMs: 10 });
    expect(await blocksOf(slowPath, { written: slowWritten }, 60)).toEqual(expected);
  });

  it('reads a file already finished when it starts, and knows its format while it is written', async () => {
    const path = join(dir, 'done.wav');
    await writeFile(path, wav);
    expect(await blocksOf(path, { written: Promise.resolve() })).toEqual(await blocksOf(path));

    const growing = join(dir, 'format.wav');
    const written = writeSlowly(growing, wav, { pieceBytes: 100_000, pauseMs: 20 });
    expect(await readWavFormat(growing, { written })).toEqual({ sampleRate: 16000, channelCount: 1 });
    await written;
  });

  it('reads what a writer that stopped early left, by the bytes present, when its header was never patched', async () => {
    const path = join(dir, 'cut.wav');
    const cut = wav.subarray(0, 44 + 100_001);
    // The writer's end is told by a rejected promise (ffmpeg killed): the reader reads the rest all the same.
    const written = writeSlowly(path, cut, { pieceBytes: 30_000, pauseMs: 2, patch: false }).then(() => { throw new Error('ffmpeg was killed'); });
    written.catch(() => undefined);
    const blocks = await blocksOf(path, { written });
    expect(blocks.map((block) => block.samples.length)).toEqual([50_000]);
    expect(blocks[0]!.samples).toEqual(Array.from(samples.subarray(0, 50_000), (sample) => Math.round(sample * 32768) / 32768));
  });

  it('throws the signal\'s reason when stopped while it waits, and a missing file once the writer is done', async () => {
    const path = join(dir, 'never.wav');
    const stop = new AbortController();
    const reading = blocksOf(path, { written: new Promise(() => undefined), signal: stop.signal });
    await pause(30);
    stop.abort(new Error('clean-up failed'));
    await expect(reading).rejects.toThrow('clean-up failed');

    await expect(blocksOf(path, { written: Promise.resolve() })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails on a finished file that is not a WAV, as the plain reader does', async () => {
    const path = join(dir, 'text.wav');
    const written = pause(10).then(() => writeFile(path, 'not audio at all, just some text'));
    await expect(blocksOf(path, { written })).rejects.toThrow('not a RIFF/WAVE file');
    // A header with no data chunk yet, then nothing more.
    const headerOnly = join(dir, 'header.wav');
    await writeFile(headerOnly, pcm16WavHeader({ channels: 1, sampleRate: 16000 }, 0).subarray(0, 36));
    await expect(blocksOf(headerOnly, { written: pause(20) })).rejects.toThrow('no data chunk');
  });
});
