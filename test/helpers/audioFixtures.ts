import { pcmWav } from './pcmWav.js';

/** Small, valid-looking files of each accepted container, built in memory (content is silence). */

/** A PCM WAV: 16-bit mono at `sampleRate`, `seconds` long, all zero samples. */
export function wavFile(seconds = 1, sampleRate = 16000): Buffer {
  return pcmWav(new Int16Array(Math.round(seconds * sampleRate)), { sampleRate });
}

/** An MP3 frame sequence (MPEG-1 Layer III, 128 kbit/s, 44.1 kHz), optionally behind an ID3v2 tag. */
export function mp3File(frames = 10, withId3 = false): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  const body = Buffer.concat(Array.from({ length: frames }, () => frame));
  if (!withId3) return body;
  const tagBody = Buffer.alloc(300);
  const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, (300 >> 7) & 0x7f, 300 & 0x7f]);
  return Buffer.concat([tag, tagBody, body]);
}

/** An ADTS AAC stream header followed by padding. */
export function aacFile(): Buffer {
  const header = Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]);
  return Buffer.concat([header, Buffer.alloc(1000)]);
}

/** An MP4/M4A file starting with an `ftyp M4A ` box. */
export function m4aFile(): Buffer {
  const ftyp = Buffer.alloc(32);
  ftyp.writeUInt32BE(32, 0);
  ftyp.write('ftypM4A ', 4, 'latin1');
  ftyp.write('M4A mp42isom', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(1000)]);
}

/** An Ogg page header followed by padding. */
export function oggFile(): Buffer {
  return Buffer.concat([Buffer.from('OggS', 'latin1'), Buffer.alloc(1000)]);
}
