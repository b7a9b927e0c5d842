import { describe, expect, test } from 'vitest';
import { detectAudioFormat, extensionMatches, extensionOf } from '../../../src/http/uploads/detectAudioFormat.js';
import { aacFile, m4aFile, mp3File, oggFile, wavFile } from '../../helpers/audioFixtures.js';

/** Detects the format of an in-memory file, reading it the way the upload route reads from disk. */
function detect(file: Buffer) {
  return detectAudioFormat(async (offset, length) => file.subarray(offset, offset + length));
}

/** An ID3v2 tag of `size` body bytes (syncsafe size), with the footer flag when asked. */
function id3Tag(size: number, withFooter = false): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, withFooter ? 0x10 : 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
  return Buffer.concat([header, Buffer.alloc(size), withFooter ? Buffer.alloc(10) : Buffer.alloc(0)]);
}

describe('detectAudioFormat', () => {
  test.each([
    ['wav', wavFile(0.01)],
    ['mp3', mp3File(2)],
    ['m4a', m4aFile()],
    ['aac', aacFile()],
    ['ogg', oggFile()],
  ])('recognises %s by its first bytes', async (format, file) => {
    expect(await detect(file)).toBe(format);
  });

  test('recognises an RF64 (large WAV) file', async () => {
    const file = wavFile(0.01);
    file.write('RF64', 0, 'latin1');
    expect(await detect(file)).toBe('wav');
  });

  test('recognises MP3 behind an ID3 tag larger than the first bytes read', async () => {
    expect(await detect(Buffer.concat([id3Tag(200_000), mp3File(2)]))).toBe('mp3');
  });

  test('skips an ID3 tag with a footer', async () => {
    expect(await detect(Buffer.concat([id3Tag(100, true), aacFile()]))).toBe('aac');
  });

  test('recognises ADTS AAC behind an ID3 tag as aac', async () => {
    expect(await detect(Buffer.concat([id3Tag(300), aacFile()]))).toBe('aac');
  });

  test('recognises an ADIF AAC file', async () => {
    expect(await detect(Buffer.concat([Buffer.from('ADIF', 'latin1'), Buffer.alloc(100)]))).toBe('aac');
  });

  test('recognises any ISO media file (ftyp box first) as m4a', async () => {
    const mp4 = m4aFile();
    mp4.write('isom', 8, 'latin1');
    expect(await detect(mp4)).toBe('m4a');
  });

  test.each([
    ['an empty file', Buffer.alloc(0)],
    ['text', Buffer.from('This is a plain text file, not audio.')],
    ['a PNG image', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array<number>(40).fill(0)])],
    ['a RIFF file that is not WAVE (AVI)', Buffer.concat([Buffer.from('RIFF\0\0\0\0AVI ', 'latin1'), Buffer.alloc(40)])],
    ['an MPEG header with the reserved version', Buffer.from([0xff, 0xeb, 0x90, 0x64, ...Array<number>(40).fill(0)])],
    ['an MPEG-2.5 header with the reserved layer', Buffer.from([0xff, 0xe1, 0x90, 0x64, ...Array<number>(40).fill(0)])],
    ['an MPEG header with the bad bitrate index', Buffer.from([0xff, 0xfb, 0xf0, 0x64, ...Array<number>(40).fill(0)])],
    ['three bytes of an MPEG header', Buffer.from([0xff, 0xfb, 0x90])],
  ])('does not recognise %s', async (_case, file) => {
    expect(await detect(file)).toBeUndefined();
  });
});

describe('extensionOf', () => {
  test.each([
    ['call.wav', 'wav'],
    ['CALL.M4A', 'm4a'],
    ['team.sync.v2.mp3', 'mp3'],
    ['no-extension', undefined],
    ['trailing-dot.', undefined],
    [undefined, undefined],
    ['', undefined],
  ])('of %s is %s', (fileName, extension) => {
    expect(extensionOf(fileName)).toBe(extension);
  });
});

describe('extensionMatches', () => {
  test('accepts the extension of the detected format', () => {
    expect(extensionMatches('wav', 'wav')).toBe(true);
    expect(extensionMatches('ogg', 'ogg')).toBe(true);
  });

  test('treats m4a and aac as interchangeable', () => {
    expect(extensionMatches('m4a', 'aac')).toBe(true);
    expect(extensionMatches('aac', 'm4a')).toBe(true);
  });

  test('refuses an extension of another format', () => {
    expect(extensionMatches('mp3', 'wav')).toBe(false);
    expect(extensionMatches('wav', 'm4a')).toBe(false);
    expect(extensionMatches('ogg', 'mp3')).toBe(false);
  });

  test('accepts any content when the name has no extension', () => {
    expect(extensionMatches('mp3', undefined)).toBe(true);
  });
});
