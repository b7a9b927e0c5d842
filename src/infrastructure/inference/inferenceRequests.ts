import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { StageFailure } from '../../pipeline/StageFailure.js';

/** The file part of a multipart request, streamed from disk (a 2-hour call is 230 MB of WAV). */
export interface MultipartFile {
  field: string;
  path: string;
  /** The file name the server sees (never the path on this box). */
  fileName: string;
  contentType: string;
}

export interface PostMultipartOptions {
  /** Text fields, in order; a name may repeat (`timestamp_granularities[]`). */
  fields: readonly (readonly [string, string])[];
  file: MultipartFile;
  headers?: Record<string, string>;
  /**
   * Longest silence on the connection before the request is given up, ms: the wait for the
   * answer's headers included, which is the whole transcription on servers that answer at the
   * end. (Node's fetch would stop at 300 s whatever is asked, hence node:http here.)
   */
  timeoutMs: number;
  /** Largest answer body accepted, bytes. Defaults to 64 MiB (a 2-hour call's words are a few MB). */
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The server did not answer in time (see {@link PostMultipartOptions.timeoutMs}). */
export class HttpTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${Math.round(timeoutMs / 1000)} s`);
    this.name = 'HttpTimeout';
  }
}

/** The answer was larger than {@link PostMultipartOptions.maxResponseBytes}. */
export class HttpAnswerTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`the answer was larger than ${Math.round(limitBytes / 1024 ** 2)} MiB`);
    this.name = 'HttpAnswerTooLarge';
  }
}

const defaultMaxResponseBytes = 64 * 1024 ** 2;

/**
 * POSTs a `multipart/form-data` body (text fields, then one file streamed from disk) with a
 * known `Content-Length`, and reads the whole answer as text. Rejects with {@link HttpTimeout},
 * {@link HttpAnswerTooLarge}, the abort reason, or the socket's error; any HTTP status resolves.
 */
export async function postMultipart(url: string, options: PostMultipartOptions): Promise<HttpAnswer> {
  const boundary = `----callscope${randomBytes(12).toString('hex')}`;
  const head = Buffer.from([
    ...options.fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`),
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(options.file.field)}"; filename="${quoted(options.file.fileName)}"\r\n`
      + `Content-Type: ${options.file.contentType}\r\n\r\n`,
  ].join(''));
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const fileBytes = (await stat(options.file.path)).size;
  return send(url, options, {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(head.length + fileBytes + tail.length),
  }, (request, fail) => {
    const file = createReadStream(options.file.path);
    // Whatever ends the request (an early answer, a refusal, an abort, a timeout) closes the file:
    // an open descriptor would keep a deleted 230 MB WAV on disk.
    request.once('close', () => file.destroy());
    request.write(head);
    file.on('error', fail);
    file.on('end', () => request.end(tail));
    file.pipe(request, { end: false });
  });
}

export type PostJsonOptions = Omit<PostMultipartOptions, 'fields' | 'file'>;

/** POSTs `body` as JSON and reads the whole answer as text; fails as {@link postMultipart} does. */
export async function postJson(url: string, body: unknown, options: PostJsonOptions): Promise<HttpAnswer> {
  const bytes = Buffer.from(JSON.stringify(body));
  return send(url, options, { 'content-type': 'application/json', 'content-length': String(bytes.length) }, (request) => request.end(bytes));
}

/** One POST with a timeout on silence, an abort signal and a cap on the answer's size. */
async function send(
  url: string,
  options: PostJsonOptions,
  bodyHeaders: Record<string, string>,
  writeBody: (request: ClientRequest, fail: (error: unknown) => void) => void,
): Promise<HttpAnswer> {
  const target = new URL(url);
  const maxResponseBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;
  options.signal?.throwIfAborted();
  return new Promise<HttpAnswer>((resolve, reject) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method: 'POST',
      headers: { ...options.headers, ...bodyHeaders, accept: 'application/json' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(options.signal?.aborted ? options.signal.reason : error);
    };
    request.setTimeout(options.timeoutMs, () => fail(new HttpTimeout(options.timeoutMs)));
    request.on('error', fail);
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxResponseBytes) return fail(new HttpAnswerTooLarge(maxResponseBytes));
        chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('end', () => {
        if (settled) return;
        settled = true;
        // A server that answers before reading the whole upload (401, 413): stop sending.
        if (!request.writableFinished) request.destroy();
        resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    writeBody(request, fail);
  });
}

/** A header parameter value in quotes: `"` and line breaks cannot stand in it. */
function quoted(value: string): string {
  return value.replace(/["\r\n]/g, '_');
}

/**
 * The server's own short error message for a failure reason: OpenAI's and llama.cpp's
 * `{error: {message}}`, `{error: "…"}`, `{message}`, or the first line of a text answer (never an
 * HTML page); at most 200 characters, empty when there is none. `secrets` (the API key) are
 * masked: servers echo a wrong key ("Incorrect API key provided: sk-…"), and the reason is
 * stored and shown to users.
 */
export function serverMessageOf(answer: HttpAnswer, secrets: readonly (string | undefined)[] = []): string {
  let message: string;
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message;
    message = typeof candidate === 'string' ? candidate : '';
  } catch {
    message = answer.contentType.includes('html') ? '' : (answer.body.split('\n')[0] ?? '');
  }
  return shortMessage(message, secrets);
}

/** A server's (or provider's) own words for a failure reason: `secrets` masked, at most 200 characters. */
export function shortMessage(message: string, secrets: readonly (string | undefined)[] = []): string {
  let masked = message;
  for (const secret of secrets) if (secret) masked = masked.split(secret).join('***');
  return masked.trim().slice(0, 200);
}

/**
 * A request to the site's inference server that got no usable answer, as a stage failure:
 * `transient` (the stage is retried once, as the spec asks for network errors), naming the
 * server's host and, for a timeout, the setting that bounds the wait.
 * @param server What the server is to the operator ("transcription server").
 */
export function transportFailure(server: string, host: string, error: unknown, timeoutSetting: string): StageFailure {
  if (error instanceof HttpTimeout) return new StageFailure('transient', `The ${server} at ${host} did not answer within ${Math.round(error.timeoutMs / 1000)} s (${timeoutSetting}); the call can be reprocessed`);
  if (error instanceof HttpAnswerTooLarge) return new StageFailure('transient', `The ${server} at ${host} sent an answer larger than ${Math.round(error.limitBytes / 1024 ** 2)} MiB`);
  const code = (error as { code?: unknown }).code;
  return new StageFailure('transient', `The ${server} at ${host} cannot be reached (${typeof code === 'string' ? code : (error as Error).message}); the call can be reprocessed`, { cause: error });
}
