import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { readWavLayout } from '../../cleanup/readWavLayout.js';

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
 * Reads a 16-bit PCM WAV file in fixed-size blocks, de-interleaved into float channels, so
 * memory stays flat however long the call (a 2-hour 16 kHz mono file is 230 MB). The file is
 * open only while the generator runs.
 */
export async function* readWavBlocks(path: string): AsyncGenerator<WavBlock> {
  // Samples are viewed in place as an Int16Array, which uses the host's byte order; WAV is little-endian.
  if (endianness() !== 'LE') throw new Error('readWavBlocks needs a little-endian host');
  const handle = await open(path, 'r');
  try {
    const { channels: channelCount, dataOffset, dataBytes } = await readWavLayout(handle);
    const frameBytes = channelCount * 2;
    const raw = new ArrayBuffer(BLOCK_SAMPLES * frameBytes);
    const rawBuffer = Buffer.from(raw);
    const channels = Array.from({ length: channelCount }, () => new Float32Array(BLOCK_SAMPLES));
    let startSample = 0;
    for (let offset = 0; offset < dataBytes; ) {
      const { bytesRead } = await handle.read(rawBuffer, 0, Math.min(raw.byteLength, dataBytes - offset), dataOffset + offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      const samples = Math.floor(bytesRead / frameBytes);
      // shape: (samples * channels), interleaved
      const interleaved = new Int16Array(raw, 0, samples * channelCount);
      for (let channel = 0; channel < channelCount; channel++) {
        const target = channels[channel]!;
        for (let index = 0; index < samples; index++) target[index] = interleaved[index * channelCount + channel]! / 32768;
      }
      yield { startSample, channels: channels.map((channel) => channel.subarray(0, samples)) };
      startSample += samples;
    }
  } finally {
    await handle.close();
  }
}
