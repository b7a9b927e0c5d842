import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../errors.js';

/** Largest non-file part (the metadata JSON, flat fields), bytes. */
const maxFieldBytes = 64 * 1024;

export interface UploadLimits {
  /** Largest accepted file, bytes. */
  maxFileBytes: number;
  /** Code answered when the file is over `maxFileBytes`. */
  tooLargeCode: ErrorCode;
  /** Where to write the file while it arrives. */
  tempPath: string;
}

export interface ReceivedUpload {
  /** The file, fully written and fsynced; the caller moves or removes it. */
  tempPath: string;
  sizeBytes: number;
  /** Hex sha256 of the file's bytes (part of the idempotency fingerprint). */
  sha256: string;
  /** The file name the client gave the `file` part, if any. */
  fileName?: string;
  /** Non-file parts by name: strings, or parsed objects for parts sent as application/json. */
  fields: Record<string, unknown>;
}

/**
 * Streams a multipart request with one `file` part to `limits.tempPath` (never holding the file
 * in memory), enforcing the size limit while bytes arrive. On any failure the partial file is
 * removed before the error propagates.
 */
export async function receiveUpload(request: FastifyRequest, limits: UploadLimits): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw new ApiError('unsupported_content_type', 'Uploads must be sent as multipart/form-data');
  const fields: Record<string, unknown> = {};
  let file: Omit<ReceivedUpload, 'fields'> | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: limits.maxFileBytes, files: 2, fields: 20, fieldSize: maxFieldBytes, parts: 24, headerPairs: 100 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
      } else if (part.fieldname === 'file' && !file) {
        file = await writePart(part.file, limits);
        if (part.filename) file.fileName = part.filename;
      } else if (part.fieldname === 'metadata' && fields.metadata === undefined) {
        // Some clients attach the JSON as a file-like part; read it as a field.
        fields.metadata = await readSmallPart(part.file);
      } else {
        part.file.resume();
        throw new ApiError('validation_failed', 'Unexpected file part', { fields: [{ path: part.fieldname, message: 'only one part named file is accepted' }] });
      }
    }
  } catch (error) {
    await rm(limits.tempPath, { force: true });
    throw error;
  }
  if (!file) throw new ApiError('validation_failed', 'The file part is missing', { fields: [{ path: 'file', message: 'required' }] });
  return { ...file, fields };
}

async function writePart(stream: NodeJS.ReadableStream & { truncated?: boolean }, limits: UploadLimits): Promise<Omit<ReceivedUpload, 'fields'>> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      callback(null, chunk);
    },
  });
  // The file is created here, before any byte is piped, and the write stream opens it without
  // `O_CREAT` (`r+`): a stream that still opens it lazily after a failed upload's clean-up has
  // removed it then fails instead of recreating `<uuid>.upload` (found by fuzzing truncated bodies).
  try {
    await (await open(limits.tempPath, 'wx')).close();
    await pipeline(stream, measure, createWriteStream(limits.tempPath, { flags: 'r+' }));
  } catch (error) {
    throw storageError(error) ?? error;
  }
  // busboy stops the part at the limit and flags it as truncated.
  if (stream.truncated) throw new ApiError(limits.tooLargeCode, undefined, { maxBytes: limits.maxFileBytes });
  // The client gets 202 only for audio that would survive a crash: flush it to disk.
  const handle = await open(limits.tempPath, 'r+');
  try {
    await handle.sync();
  } catch (error) {
    throw storageError(error) ?? error;
  } finally {
    await handle.close();
  }
  return { tempPath: limits.tempPath, sizeBytes, sha256: hash.digest('hex') };
}

async function readSmallPart(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > maxFieldBytes) throw new ApiError('validation_failed', 'The metadata part is too large', { fields: [{ path: 'metadata', message: `at most ${maxFieldBytes} bytes` }] });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A full disk is the server's problem, answered with 507 rather than a bare 500. */
export function storageError(error: unknown): ApiError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ApiError('insufficient_storage');
  return undefined;
}
