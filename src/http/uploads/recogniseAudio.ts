import { open } from 'node:fs/promises';
import { ApiError } from '../errors.js';
import { detectAudioFormat, extensionMatches, extensionOf, type AudioFormat } from './detectAudioFormat.js';

/**
 * The format of an uploaded file, by content; the extension (when given) must agree, and the
 * format must be one of `accepted` (415 `unsupported_media_type` otherwise, 400 when empty).
 */
export async function recogniseAudio(path: string, sizeBytes: number, fileName: string | undefined, accepted: readonly AudioFormat[]): Promise<AudioFormat> {
  if (sizeBytes === 0) throw new ApiError('validation_failed', 'The file is empty', { fields: [{ path: 'file', message: 'empty' }] });
  const extension = extensionOf(fileName);
  if (extension !== undefined && !(accepted as readonly string[]).includes(extension)) {
    throw new ApiError('unsupported_media_type', `Files of type .${extension} are not accepted`, { accepted, extension });
  }
  const handle = await open(path, 'r');
  let format: AudioFormat | undefined;
  try {
    format = await detectAudioFormat(async (offset, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    });
  } finally {
    await handle.close();
  }
  if (!format) throw new ApiError('unsupported_media_type', 'The file content is not a recognised audio format', { accepted });
  if (!extensionMatches(format, extension)) {
    throw new ApiError('unsupported_media_type', `The file content is ${format.toUpperCase()} but its name says .${extension}`, { detectedFormat: format, extension });
  }
  if (!accepted.includes(format)) throw new ApiError('unsupported_media_type', `${format.toUpperCase()} files are not accepted here`, { accepted, detectedFormat: format });
  return format;
}
