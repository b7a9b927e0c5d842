/**
 * Decompression-bomb-like recordings: files of a few hundred bytes to a few hundred KB that
 * decode to minutes or hours of audio (16 kHz mono 16-bit PCM is 115 MB an hour), each built
 * with the ffmpeg clean-up uses and some byte surgery. Shared by the upload-abuse test
 * (test/security/decompressionBomb.test.ts) and `npm run bench:abuse`.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pcmWav, sine } from '../../test/helpers/pcmWav.js';
import { generateAudio } from '../../test/pipeline/cleanup/generateAudio.js';

export type BombFixtureName =
  | 'threeHoursM4a' | 'oneHertzWav' | 'hiddenAdts' | 'lyingM4a' | 'chainedOgg' | 'fourGigabyteWav' | 'zeroSizeWav' | 'shortOneHertzWav';

/**
 * What clean-up must do with a fixture, for any limit in {@link EXPECTATIONS_HOLD_FOR_LIMIT_SECONDS}:
 * - `refused-from-header`: the header states `statedSeconds`, over the limit; refused before decoding.
 * - `capped`: the headers hide or understate the length; decoding stops at limit + 1 s.
 * - `processed`: the headers claim more than the file holds; cleaned as the `seconds` it holds.
 * - `refused-sample-rate`: the length passes, the header's rate is below any recorder's; refused before decoding.
 */
export type BombExpectation =
  | { outcome: 'refused-from-header'; statedSeconds: number }
  | { outcome: 'capped' }
  | { outcome: 'processed'; seconds: number }
  | { outcome: 'refused-sample-rate'; sampleRateHz: number };

export interface BombFixture {
  name: BombFixtureName;
  /** `<folder>/<file name>`; the extension is the upload format. */
  path: string;
  sizeBytes: number;
  description: string;
  /** Seconds of audio the file really holds, at the sample rate its headers state. */
  holdsSeconds: number;
  expected: BombExpectation;
}

/**
 * Limits (`maxDurationSeconds`) for which every fixture's `expected` holds, in seconds: from
 * the 50 s the short 1-Hz WAV states (it must pass on length to be refused for its rate) to
 * under the 10 minutes the hidden ADTS stream holds (it must be over the limit to be capped).
 * The lying m4a and the chained Ogg are capped at any limit under their 3 h and 22 h.
 */
export const EXPECTATIONS_HOLD_FOR_LIMIT_SECONDS = { atLeast: 50, below: 600 } as const;

/** Bytes per second of the cleaned audio: 16 kHz mono s16le. */
export const CLEANED_BYTES_PER_SECOND = 16_000 * 2;
/** Room for the cleaned WAV's header (RIFF, fmt, ffmpeg's LIST chunk, data: under 100 bytes). */
export const WAV_HEADER_ALLOWANCE_BYTES = 1024;

/**
 * Longest cleaned audio the decode cap allows, in seconds: limit + 1 s, plus the one packet
 * ffmpeg writes past its byte cap (`-fs`) when that cap is what stops it (~0.1 s).
 */
export function cappedDecodeSeconds(limitSeconds: number): number {
  return limitSeconds + 1 + 0.2;
}

/**
 * Writes every fixture into `folder` (which must exist) and describes them. Takes a few seconds:
 * ffmpeg encodes 3 hours of silence.
 */
export async function writeBombFixtures(folder: string): Promise<BombFixture[]> {
  // 3 h of silence as AAC at 8 kHz, 8 kbit/s: ~680 KB holding 3 h (1.2 GB as cleaned PCM).
  const threeHours = await readFile(await generateAudio(join(folder, 'three-hours.m4a'), [
    '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '10800', '-c:a', 'aac', '-b:a', '8k',
  ]));
  // Raw ADTS has no length field: ffprobe estimates one from the bitrate of the first frames. A
  // loud start (3 s of noise) followed by silence, whose frames are tiny, makes it guess ~24 s
  // for 10 minutes.
  const hiddenAdts = await readFile(await generateAudio(join(folder, 'hidden.aac'), [
    '-f', 'lavfi', '-i', 'anoisesrc=a=0.5:d=3:r=8000', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono',
    '-filter_complex', '[0][1]concat=n=2:v=0:a=1,atrim=0:600', '-c:a', 'aac', '-f', 'adts',
  ]));
  // Two chained Ogg Vorbis streams: 10 s at 8 kHz, then the same packets under a header saying
  // 1 Hz (10 s at 8 kHz is 80 000 samples: 22 h at 1 Hz). ffprobe reads the first link only.
  const vorbisPath = await generateAudio(join(folder, 'ten-seconds.ogg'), ['-f', 'lavfi', '-i', 'sine=f=300:d=10:r=8000', '-c:a', 'libvorbis']);
  const vorbis = await readFile(vorbisPath);
  // Only the chained file built from it is a fixture.
  await rm(vorbisPath);
  // Samples at 1 sample per second, as the header says, each of which becomes 16 000 cleaned
  // samples: 48 000 (96 KB) resample to 13 h 20 min (1.5 GB of cleaned PCM).
  const oneHertz = (samples: number) => Int16Array.from({ length: samples }, (_, index) => ((index * 7919) % 20_000) - 10_000);
  // 2 s of a tone behind headers claiming 4 GB (~37 h at 16 kHz mono) or nothing at all.
  const twoSecondTone = sine(440, 2, 0.5);

  const fixtures: { name: BombFixtureName; fileName: string; bytes: Buffer; description: string; holdsSeconds: number; expected: BombExpectation }[] = [
    {
      name: 'threeHoursM4a', fileName: 'three-hours.m4a', bytes: threeHours, holdsSeconds: 10_800,
      description: '3 h of silence as a 680 KB m4a that states its length',
      expected: { outcome: 'refused-from-header', statedSeconds: 10_800 },
    },
    {
      name: 'oneHertzWav', fileName: 'one-hertz.wav', bytes: pcmWav(oneHertz(48_000), { sampleRate: 1 }), holdsSeconds: 48_000,
      description: 'a 96 KB WAV of 48 000 samples at 1 sample per second, stating 13 h 20 min',
      expected: { outcome: 'refused-from-header', statedSeconds: 48_000 },
    },
    {
      name: 'hiddenAdts', fileName: 'hidden.aac', bytes: hiddenAdts, holdsSeconds: 600,
      description: 'a 67 KB raw ADTS stream of 10 min that ffprobe guesses at ~24 s',
      expected: { outcome: 'capped' },
    },
    {
      // The same 3 hours, its headers saying 10 s.
      name: 'lyingM4a', fileName: 'lying.m4a', bytes: withStatedSeconds(threeHours, 10), holdsSeconds: 10_800,
      description: 'a 680 KB m4a of 3 h whose headers say 10 s',
      expected: { outcome: 'capped' },
    },
    {
      name: 'chainedOgg', fileName: 'chained.ogg', bytes: Buffer.concat([vorbis, withVorbisSampleRate(vorbis, 1)]), holdsSeconds: 10 + 80_000,
      description: 'a 20 KB chained Ogg whose second link says 1 Hz (22 h) behind 10 s at 8 kHz',
      expected: { outcome: 'capped' },
    },
    {
      name: 'fourGigabyteWav', fileName: 'four-gigabytes.wav', bytes: wavClaiming(twoSecondTone, 0xffff_fff0), holdsSeconds: 2,
      description: 'a 64 KB WAV of 2 s whose RIFF and data sizes claim 4 GB (~37 h)',
      expected: { outcome: 'processed', seconds: 2 },
    },
    {
      name: 'zeroSizeWav', fileName: 'zero-size.wav', bytes: wavClaiming(twoSecondTone, 0), holdsSeconds: 2,
      description: 'a 64 KB WAV of 2 s whose RIFF and data sizes claim 0 bytes',
      expected: { outcome: 'processed', seconds: 2 },
    },
    {
      // 50 samples at 1 Hz: 144 bytes stating 50 s, under the limit.
      name: 'shortOneHertzWav', fileName: 'short-one-hertz.wav', bytes: pcmWav(oneHertz(50), { sampleRate: 1 }), holdsSeconds: 50,
      description: 'a 144-byte WAV at 1 sample per second, stating 50 s',
      expected: { outcome: 'refused-sample-rate', sampleRateHz: 1 },
    },
  ];

  return Promise.all(fixtures.map(async ({ fileName, bytes, ...fixture }) => {
    const path = join(folder, fileName);
    await writeFile(path, bytes);
    return { ...fixture, path, sizeBytes: bytes.length };
  }));
}

/**
 * An MP4/M4A with the durations of its movie header (`mvhd`) and every media header (`mdhd`)
 * rewritten to `seconds`, each in its own timescale: what ffprobe reports as the file's length.
 * The samples and their tables stay as they are, so the file still decodes to its true length.
 */
function withStatedSeconds(mp4: Buffer, seconds: number): Buffer {
  const patched = Buffer.from(mp4);
  // Boxes on the way from the top level to mvhd (moov) and mdhd (moov/trak/mdia).
  const containers = new Set(['moov', 'trak', 'mdia']);
  let headersPatched = 0;
  const walk = (start: number, end: number): void => {
    for (let offset = start; offset + 8 <= end;) {
      const size = patched.readUInt32BE(offset);
      const type = patched.toString('latin1', offset + 4, offset + 8);
      // 0 (to the end of the file) and 1 (a 64-bit size) do not occur in ffmpeg's small files.
      if (size < 8 || offset + size > end) throw new Error(`unexpected ${type} box size ${size}`);
      if (containers.has(type)) walk(offset + 8, offset + size);
      if (type === 'mvhd' || type === 'mdhd') {
        // Full box: version (1 byte) and flags (3), then creation and modification times,
        // timescale (ticks per second) and duration: 32-bit fields in version 0, times and
        // duration 64-bit in version 1.
        const body = offset + 8;
        const version = patched.readUInt8(body);
        const timescaleAt = body + (version === 1 ? 20 : 12);
        const timescale = patched.readUInt32BE(timescaleAt);
        if (version === 1) patched.writeBigUInt64BE(BigInt(seconds * timescale), timescaleAt + 4);
        else patched.writeUInt32BE(seconds * timescale, timescaleAt + 4);
        headersPatched += 1;
      }
      offset += size;
    }
  };
  walk(0, patched.length);
  if (headersPatched < 2) throw new Error('no mvhd/mdhd boxes found');
  return patched;
}

/** A WAV whose RIFF and data sizes both claim `declaredDataBytes` of samples, whatever it holds. */
function wavClaiming(samples: Int16Array, declaredDataBytes: number): Buffer {
  const wav = pcmWav(samples, { declaredDataBytes });
  // RIFF size = everything after its own 8-byte header: "WAVE", fmt (8 + 16), data header (8), data.
  wav.writeUInt32LE(Math.min(0xffff_ffff, 4 + 24 + 8 + declaredDataBytes), 4);
  return wav;
}

/** Ogg's page checksum: CRC-32, polynomial 0x04C11DB7, not reflected, initial value and final XOR 0. */
function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000_0000 ? (crc << 1) ^ 0x04c1_1db7 : crc << 1;
  }
  return crc >>> 0;
}

/**
 * An Ogg Vorbis file with the sample rate of its identification header (the first page's only
 * packet: 0x01 "vorbis", version (4 bytes), channels (1), rate (4, little-endian)) set to
 * `sampleRateHz`, and that page's checksum redone. The audio packets are unchanged.
 */
function withVorbisSampleRate(ogg: Buffer, sampleRateHz: number): Buffer {
  const patched = Buffer.from(ogg);
  const segments = patched.readUInt8(26);
  const packetStart = 27 + segments;
  const pageEnd = packetStart + [...patched.subarray(27, packetStart)].reduce((sum, size) => sum + size, 0);
  if (patched.toString('latin1', packetStart + 1, packetStart + 7) !== 'vorbis') throw new Error('not an Ogg Vorbis file');
  patched.writeUInt32LE(sampleRateHz, packetStart + 12);
  patched.writeUInt32LE(0, 22);
  patched.writeUInt32LE(oggCrc(patched.subarray(0, pageEnd)), 22);
  return patched;
}
