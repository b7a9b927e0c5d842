/** The audio containers the service accepts; also the stored file's extension. */
export const audioFormats = ['wav', 'mp3', 'm4a', 'aac', 'ogg'] as const;
export type AudioFormat = (typeof audioFormats)[number];

/** Bytes of a file's start that {@link detectAudioFormat} needs (past any ID3 tag). */
export const sniffLength = 64;

/**
 * Recognises the container from the file's first bytes. `readAt(offset, length)` reads from
 * the file, so an ID3 tag (which may hold album art of any size) can be skipped.
 * Returns undefined for anything that is not one of the accepted formats.
 */
export async function detectAudioFormat(readAt: (offset: number, length: number) => Promise<Buffer>): Promise<AudioFormat | undefined> {
  const head = await readAt(0, sniffLength);
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');

  if ((ascii(0, 4) === 'RIFF' || ascii(0, 4) === 'RF64') && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  // ISO base media (MP4/M4A/3GP): a box of type `ftyp` first.
  if (ascii(4, 8) === 'ftyp') return 'm4a';
  if (ascii(0, 4) === 'ADIF') return 'aac';
  if (ascii(0, 3) === 'ID3' && head.length >= 10) {
    // ID3v2 size: four 7-bit "syncsafe" bytes, excluding the 10-byte header (+10 more with a footer).
    const tagSize = ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
    const footer = (head[5]! & 0x10) !== 0 ? 10 : 0;
    const frame = await readAt(10 + tagSize + footer, 4);
    return frameFormat(frame) ?? 'mp3';
  }
  return frameFormat(head);
}

/** MPEG audio frame header (MP3) versus ADTS header (AAC): both start with an 11/12-bit sync. */
function frameFormat(bytes: Buffer): AudioFormat | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff) return undefined;
  const second = bytes[1]!;
  // ADTS: 12 sync bits, then layer bits 00.
  if ((second & 0xf6) === 0xf0) return 'aac';
  // MPEG audio: 11 sync bits, version not reserved (01), layer not reserved (00), bitrate index not 1111.
  if ((second & 0xe0) === 0xe0 && (second & 0x18) !== 0x08 && (second & 0x06) !== 0x00 && (bytes[2]! & 0xf0) !== 0xf0) return 'mp3';
  return undefined;
}

/** Extensions that may name each detected container (AAC in MP4 is often saved as .aac). */
const compatibleExtensions: Record<AudioFormat, readonly string[]> = {
  wav: ['wav'],
  mp3: ['mp3'],
  m4a: ['m4a', 'aac'],
  aac: ['aac', 'm4a'],
  ogg: ['ogg'],
};

/** The lower-cased extension of a file name, or undefined when it has none. */
export function extensionOf(fileName: string | undefined): string | undefined {
  const match = fileName ? /\.([A-Za-z0-9]{1,8})$/.exec(fileName) : null;
  return match?.[1]?.toLowerCase();
}

/** Whether a file name's extension is accepted for the detected content. */
export function extensionMatches(format: AudioFormat, extension: string | undefined): boolean {
  return extension === undefined || compatibleExtensions[format].includes(extension);
}
