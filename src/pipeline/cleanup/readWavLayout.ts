import type { FileHandle } from 'node:fs/promises';

/** Where the samples of a 16-bit PCM WAV file are and how they are laid out. */
export interface WavLayout {
  channels: number;
  sampleRate: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Bytes of samples, a whole number of sample frames (one 16-bit sample per channel). */
  dataBytes: number;
}

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
const CHUNK_HEADER_BYTES = 8;

/**
 * Walks the RIFF chunks of a WAV file (`fmt `, then any `LIST`/`fact`/... chunks, then `data`)
 * without reading the samples. A `data` size larger than the file, as left by a writer that
 * was stopped before it could patch the header (ffmpeg writes 0xFFFFFFFF first), is clamped
 * to the bytes actually present.
 */
export async function readWavLayout(handle: FileHandle): Promise<WavLayout> {
  const fileBytes = (await handle.stat()).size;
  const riff = await readAt(handle, 0, 12);
  if (riff.length < 12 || riff.toString('latin1', 0, 4) !== 'RIFF' || riff.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }

  let format: { channels: number; sampleRate: number } | undefined;
  let position = 12;
  while (position + CHUNK_HEADER_BYTES <= fileBytes) {
    const header = await readAt(handle, position, CHUNK_HEADER_BYTES);
    const id = header.toString('latin1', 0, 4);
    const size = header.readUInt32LE(4);
    const bodyOffset = position + CHUNK_HEADER_BYTES;

    if (id === 'fmt ') {
      format = parseFormat(await readAt(handle, bodyOffset, Math.min(size, 40)));
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data chunk before its fmt chunk');
      const frameBytes = format.channels * 2;
      const presentBytes = Math.min(size, fileBytes - bodyOffset);
      return { ...format, dataOffset: bodyOffset, dataBytes: presentBytes - (presentBytes % frameBytes) };
    }
    // RIFF chunks are padded to an even length.
    position = bodyOffset + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

function parseFormat(body: Buffer): { channels: number; sampleRate: number } {
  if (body.length < 16) throw new Error('WAV fmt chunk too short');
  let formatTag = body.readUInt16LE(0);
  const channels = body.readUInt16LE(2);
  const sampleRate = body.readUInt32LE(4);
  const bitsPerSample = body.readUInt16LE(14);
  // WAVE_FORMAT_EXTENSIBLE carries the real format in the first two bytes of its sub-format GUID.
  if (formatTag === WAVE_FORMAT_EXTENSIBLE && body.length >= 26) formatTag = body.readUInt16LE(24);
  if (formatTag !== WAVE_FORMAT_PCM || bitsPerSample !== 16 || channels < 1 || sampleRate < 1) {
    throw new Error('WAV file is not 16-bit PCM');
  }
  return { channels, sampleRate };
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
