import { open } from 'node:fs/promises';
import { readWavLayout } from '../../src/pipeline/cleanup/readWavLayout.js';

export interface PcmWavOptions {
  /** Defaults to 1. */
  channels?: number;
  /** Defaults to 16000. */
  sampleRate?: number;
  /** Chunks written between `fmt ` and `data`, as ffmpeg does with `LIST`. */
  chunksBeforeData?: { id: string; body: Buffer }[];
  /** The size the `data` header claims; defaults to the true size. */
  declaredDataBytes?: number;
}

/** A 16-bit PCM WAV file; `samples` interleaved, shape: (sampleFrames * channels). */
export function pcmWav(samples: Int16Array, options: PcmWavOptions = {}): Buffer {
  const { channels = 1, sampleRate = 16000, chunksBeforeData = [] } = options;
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * channels * 2, 8);
  fmt.writeUInt16LE(channels * 2, 12);
  fmt.writeUInt16LE(16, 14);
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const chunks = [chunk('fmt ', fmt), ...chunksBeforeData.map(({ id, body }) => chunk(id, body)), chunk('data', data, options.declaredDataBytes)];
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

function chunk(id: string, body: Buffer, declaredBytes = body.length): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(declaredBytes, 4);
  // Odd-sized chunks are followed by a pad byte.
  return Buffer.concat([header, body, Buffer.alloc(body.length % 2)]);
}

/** A sine of `amplitude` (0..1 of full scale), shape: (seconds * sampleRate). */
export function sine(frequencyHz: number, seconds: number, amplitude: number, sampleRate = 16000): Int16Array {
  return Int16Array.from({ length: Math.round(seconds * sampleRate) }, (_, index) =>
    Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequencyHz * index) / sampleRate)));
}

/** Interleaves equal-length channels, shape: (channels) × (sampleFrames) → (sampleFrames * channels). */
export function interleave(...channels: Int16Array[]): Int16Array {
  const frames = channels[0]?.length ?? 0;
  const samples = new Int16Array(frames * channels.length);
  channels.forEach((channel, index) => channel.forEach((sample, frame) => { samples[frame * channels.length + index] = sample; }));
  return samples;
}

/** The samples of a small WAV file (the stage's output), interleaved. */
export async function readPcmWav(path: string): Promise<{ channels: number; sampleRate: number; samples: Int16Array }> {
  const handle = await open(path, 'r');
  try {
    const layout = await readWavLayout(handle);
    const bytes = Buffer.alloc(layout.dataBytes);
    await handle.read(bytes, 0, layout.dataBytes, layout.dataOffset);
    const samples = new Int16Array(layout.dataBytes / 2);
    for (let index = 0; index < samples.length; index++) samples[index] = bytes.readInt16LE(index * 2);
    return { channels: layout.channels, sampleRate: layout.sampleRate, samples };
  } finally {
    await handle.close();
  }
}

/** Amplitude (0..1 of full scale) of one frequency in mono samples, by the Goertzel algorithm. */
export function toneAmplitude(samples: Int16Array, sampleRate: number, frequencyHz: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequencyHz) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample / 32768 + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return (2 * Math.sqrt(Math.max(0, power))) / samples.length;
}
