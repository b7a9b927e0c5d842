import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook } from '../../src/infrastructure/inference/standardWebhooks.js';
import type { ScriptLine } from '../faults/scriptedWhisper.js';
import { formOf } from '../helpers/requestForm.js';

// A transcription provider in callback mode, played on loopback: it takes the audio with a
// `job_id` and a `callback_url` (multipart), answers 202 at once, and the test sends its
// callbacks, signed as Standard Webhooks asks, when it chooses.

/** Where the service takes the provider's callbacks. */
export const callbackPath = '/api/callbacks/transcription';

/** OpenAI's verbose_json for a script: whole words at the top level, a segment per line. */
export function openAiVerboseJson(lines: readonly ScriptLine[]) {
  const words = lines.flatMap((line) => {
    const parts = line.text.split(' ');
    const step = (line.endSeconds - line.startSeconds) / parts.length;
    return parts.map((word, index) => ({ word, start: line.startSeconds + index * step, end: line.startSeconds + (index + 1) * step }));
  });
  return {
    task: 'transcribe', language: 'english', duration: 30, text: lines.map((line) => line.text).join(' '),
    segments: lines.map((line, id) => ({ id, start: line.startSeconds, end: line.endSeconds, text: ` ${line.text}` })),
    words,
  };
}

/** whisper.cpp's server's verbose_json for a script: the words (its tokens) inside each segment, with probabilities. */
export function whisperCppVerboseJson(lines: readonly ScriptLine[]) {
  return {
    task: 'transcribe', language: 'english', duration: 30, text: lines.map((line) => ` ${line.text}`).join(''),
    segments: lines.map((line, id) => {
      const parts = line.text.split(' ');
      const step = (line.endSeconds - line.startSeconds) / parts.length;
      return {
        id, start: line.startSeconds, end: line.endSeconds, text: ` ${line.text}`, temperature: 0, avg_logprob: -0.2, no_speech_prob: 0.01,
        words: parts.map((word, index) => ({ word: ` ${word}`, start: line.startSeconds + index * step, end: line.startSeconds + (index + 1) * step, t_dtw: -1, probability: 0.93 })),
      };
    }),
  };
}

/** One submission the provider received: what a test checks of the request. */
export interface Submission {
  path: string;
  authorization: string | undefined;
  fields: Record<string, string[]>;
  fileName: string | undefined;
  fileType: string | undefined;
  fileBytes: number;
  jobId: string;
  callbackUrl: string;
}

export interface CallbackProvider {
  /** `http://127.0.0.1:<port>`: TRANSCRIPTION_URL is this plus the path. */
  origin: string;
  /** Every submission received, in order. */
  submissions: Submission[];
  /** Runs before the provider answers a submission (a fast provider calls back before its 202). Defaults to none. */
  beforeAnswer?: (submission: Submission) => Promise<void>;
  close(): Promise<void>;
}

/** Starts the provider on a free loopback port. */
export async function startCallbackProvider(): Promise<CallbackProvider> {
  const submissions: Submission[] = [];
  const server: Server = createServer((request, response) => {
    void formOf(request).then(async (form) => {
      const file = form.get('file');
      const fields: Record<string, string[]> = {};
      for (const [name, value] of form.entries()) if (typeof value === 'string') (fields[name] ??= []).push(value);
      const submission: Submission = {
        path: request.url ?? '', authorization: request.headers.authorization, fields,
        fileName: file instanceof File ? file.name : undefined, fileType: file instanceof File ? file.type : undefined, fileBytes: file instanceof File ? file.size : 0,
        jobId: fields.job_id?.[0] ?? '', callbackUrl: fields.callback_url?.[0] ?? '',
      };
      submissions.push(submission);
      await provider.beforeAnswer?.(submission);
      response.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ id: submission.jobId, status: 'queued' }));
    }).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const provider: CallbackProvider = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    submissions,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
  return provider;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface CallbackOptions {
  /** The secret it is signed with. */
  secret: string;
  /** `webhook-id`. Defaults to a new one. */
  id?: string;
  /** `webhook-timestamp`, Unix seconds. Defaults to now. */
  timestamp?: number;
  /** Headers that replace the signed ones (undefined: left out). */
  headers?: Record<string, string | undefined>;
  /** Signed over this instead of the body sent (a tampered body). */
  signedBody?: string;
}

export interface CallbackAnswer {
  status: number;
  body: { status?: string; error?: { code: string; message: string } };
}

/** POSTs a callback (a JSON value, or a raw string) to the service at `baseUrl` as the provider would, signed with `options.secret`. */
export async function sendCallback(baseUrl: string, body: unknown, options: CallbackOptions): Promise<CallbackAnswer> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? nowSeconds();
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(options.secret, id, timestamp, options.signedBody ?? raw),
    ...options.headers,
  };
  const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await fetch(`${baseUrl}${callbackPath}`, { method: 'POST', headers: sent, body: raw });
  const text = await response.text();
  let parsed: CallbackAnswer['body'];
  try {
    parsed = JSON.parse(text) as CallbackAnswer['body'];
  } catch {
    throw new Error(`the callback route answered ${response.status} with something else than JSON: ${text}`);
  }
  return { status: response.status, body: parsed };
}
