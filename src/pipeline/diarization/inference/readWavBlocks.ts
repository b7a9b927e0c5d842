import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { endianness } from 'node:os';
import { readWavLayout, type WavLayout } from '../../cleanup/readWavLayout.js';

/** A run of consecutive samples of every channel, scaled to -1..1. */
export interface WavBlock {
  /** Index of the block's first sample frame in the file. */
  startSample: number;
  /** One array per channel, shape: (channels) × (samples); reused by the next block, so copy what you keep. */
  channels: Float32Array[];
}

export interface WavInfo {
  sampleRate: number;
  channelCount: number;
  /** Sample frames in the file. */
  totalSamples: number;
}

/** Sample frames read per file read: 64 Ki frames = 4 s of 16 kHz audio, 256 KiB of stereo s16le. */
const BLOCK_SAMPLES = 1 << 16;

/** Format and length of a 16-bit PCM WAV file, without reading its samples. */
export async function readWavInfo(path: string): Promise<WavInfo> {
  const handle = await open(path, 'r');
  try {
    const { channels, sampleRate, dataBytes } = await readWavLayout(handle);
    return { sampleRate, channelCount: channels, totalSamples: dataBytes / (channels * 2) };
  } finally {
    await handle.close();
  }
}

/**
 * A WAV file another process is still writing (clean-up's ffmpeg): its samples are read as they
 * arrive instead of after the writer is done.
 */
export interface WavBeingWritten {
  /**
   * Settles once the writer has finished with the file (ffmpeg exited, whether it succeeded or
   * not). Until then the file may be missing, have no complete header yet, or grow; its header's
   * sizes are placeholders (ffmpeg writes 0xFFFFFFFF and patches them at the end).
   */
  written: PromiseLike<unknown>;
  /** Stops the wait for more samples: the reader throws the signal's reason. */
  signal?: AbortSignal;
}

/**
 * How often a file being written is looked at again when it has not grown by a whole block, ms.
 * ffmpeg writes a block (4 s of 16 kHz mono) every ~75 ms while it cleans a recording.
 */
const FOLLOW_POLL_MS = 20;

/**
 * Reads a 16-bit PCM WAV file in fixed-size blocks, de-interleaved into float channels, so
 * memory stays flat however long the call (a 2-hour 16 kHz mono file is 230 MB). The file is
 * open only while the generator runs.
 *
 * With `beingWritten`, the file is followed while its writer works: every block but the last
 * is whole, as when reading a finished file, so the blocks (and whatever is computed from them)
 * are the same either way; the last ends where the finished file's data ends.
 */
export async function* readWavBlocks(path: string, beingWritten?: WavBeingWritten): AsyncGenerator<WavBlock> {
  // Samples are viewed in place as an Int16Array, which uses the host's byte order; WAV is little-endian.
  if (endianness() !== 'LE') throw new Error('readWavBlocks needs a little-endian host');
  const writer = beingWritten ? followWriter(beingWritten) : undefined;
  const handle = writer ? await writer.open(path) : await open(path, 'r');
  try {
    let layout = writer ? await writer.layout(handle) : await readWavLayout(handle);
    const frameBytes = layout.channels * 2;
    const blockBytes = BLOCK_SAMPLES * frameBytes;
    const raw = new ArrayBuffer(blockBytes);
    const rawBuffer = Buffer.from(raw);
    const channels = Array.from({ length: layout.channels }, () => new Float32Array(BLOCK_SAMPLES));
    let startSample = 0;
    let writerFinished = writer === undefined;
    for (let offset = 0; ; ) {
      // While the writer works, only whole blocks are read; once it is done, the rest, by the
      // header as it left it (read again after it was seen done: it may have written since).
      if (writer && !writerFinished) {
        while (!writer.done && layout.dataBytes - offset < blockBytes) {
          await writer.wait();
          layout = await readWavLayout(handle);
        }
        if (writer.done) {
          layout = await readWavLayout(handle);
          writerFinished = true;
        }
      }
      const wanted = Math.min(blockBytes, layout.dataBytes - offset);
      if (wanted <= 0) break;
      const { bytesRead } = await handle.read(rawBuffer, 0, wanted, layout.dataOffset + offset);
      const samples = Math.floor(bytesRead / frameBytes);
      if (samples === 0) break;
      offset += samples * frameBytes;
      // shape: (samples * channels), interleaved
      const interleaved = new Int16Array(raw, 0, samples * layout.channels);
      for (let channel = 0; channel < layout.channels; channel++) {
        const target = channels[channel]!;
        for (let index = 0; index < samples; index++) target[index] = interleaved[index * layout.channels + channel]! / 32768;
      }
      yield { startSample, channels: channels.map((channel) => channel.subarray(0, samples)) };
      startSample += samples;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Format and length of a WAV file, waiting for its header when it is being written (ffmpeg
 * writes the header before the first samples, so the format is known from the start; the length
 * only once `written` settled).
 */
export async function readWavFormat(path: string, beingWritten?: WavBeingWritten): Promise<Omit<WavInfo, 'totalSamples'>> {
  if (!beingWritten) return readWavInfo(path);
  const writer = followWriter(beingWritten);
  const handle = await writer.open(path);
  try {
    const { sampleRate, channels } = await writer.layout(handle);
    return { sampleRate, channelCount: channels };
  } finally {
    await handle.close();
  }
}

/** The reader's view of a writer: whether it is done, and waits for the file to appear and grow. */
function followWriter({ written, signal }: WavBeingWritten) {
  const state = { done: false };
  const settled = Promise.resolve(written).then(() => { state.done = true; }, () => { state.done = true; });
  const wait = async () => {
    signal?.throwIfAborted();
    await Promise.race([settled, sleep(FOLLOW_POLL_MS)]);
    signal?.throwIfAborted();
  };
  return {
    get done() { return state.done; },
    wait,
    /** Opens the file once the writer has created it; a file still missing when it is done is an error. */
    async open(path: string): Promise<FileHandle> {
      for (;;) {
        const finished = state.done;
        try {
          return await open(path, 'r');
        } catch (error) {
          if (finished || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        await wait();
      }
    },
    /** The file's layout once its header is complete (its fmt and data chunk headers written). */
    async layout(handle: FileHandle): Promise<WavLayout> {
      for (;;) {
        const finished = state.done;
        try {
          return await readWavLayout(handle);
        } catch (error) {
          if (finished) throw error;
        }
        await wait();
      }
    },
  };
}
