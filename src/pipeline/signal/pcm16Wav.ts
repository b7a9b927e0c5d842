/** The 44-byte header of a 16-bit PCM WAV with `dataBytes` of interleaved samples. */
export function pcm16WavHeader(layout: { channels: number; sampleRate: number }, dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(layout.channels, 22);
  header.writeUInt32LE(layout.sampleRate, 24);
  header.writeUInt32LE(layout.sampleRate * layout.channels * 2, 28);
  header.writeUInt16LE(layout.channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * A mono 16-bit PCM WAV of `samples` (floats in −1 … 1, clipped beyond).
 * @param samples shape: (samples)
 */
export function pcm16MonoWav(samples: Float32Array, sampleRate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, index) => data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sample * 32768))), index * 2));
  return Buffer.concat([pcm16WavHeader({ channels: 1, sampleRate }, data.length), data]);
}
