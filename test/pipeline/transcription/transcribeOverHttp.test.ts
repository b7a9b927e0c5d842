import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { StageFailure } from '../../../src/pipeline/StageFailure.js';
import { transcribeOverHttp, transcriptionApiOf, type HttpTranscriptionOptions } from '../../../src/pipeline/transcription/transcribeOverHttp.js';
import { transcribeWith, transcriptionSettingsFromConfig } from '../../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';
import { createTestStageContext } from '../testStageContext.js';

const apiKey = 'sk-callscope-test-5f2c9a7e1d';

/** One request as the loopback server received it. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Resolves when the client's connection closes. */
  closed: Promise<void>;
}

type Handler = (request: Received, response: ServerResponse) => void;

/** A loopback server on 127.0.0.1:0 that reads each request whole, then hands it to `handler`. */
async function startServer(handler: Handler): Promise<{ server: Server; host: string; url: (path: string) => string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const closed = new Promise<void>((resolve) => request.socket.once('close', () => resolve()));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks), closed };
      received.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { server, host, url: (path) => `http://${host}${path}`, received };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function answerJson(status: number, body: unknown): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

/** The multipart body as the server's framework would read it. */
function formOf(request: Received): Promise<FormData> {
  return new Request('http://loopback.test/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: request.body }).formData();
}

/** The text fields, sorted by name then value (a name may repeat). */
async function textFieldsOf(request: Received): Promise<[string, string][]> {
  const fields: [string, string][] = [];
  for (const [name, value] of (await formOf(request)).entries()) if (typeof value === 'string') fields.push([name, value]);
  return fields.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}

/**
 * What every request to whisper.cpp's server carries besides the language, model and prompt:
 * whisper-cli's decoding settings (the beam of WHISPER_BEAM_SIZE, 1 by default: greedy; whisper-server's
 * own best of is 2), its VAD settings and whole segments; `max_context` depends on the prompt.
 */
const whisperCppFields: [string, string][] = [
  ['response_format', 'verbose_json'], ['token_timestamps', 'true'], ['max_len', '100000'],
  ['beam_size', '1'], ['best_of', '5'], ['temperature', '0'], ['temperature_inc', '0.2'],
  ['suppress_nst', 'true'], ['entropy_thold', '2.4'], ['logprob_thold', '-1.0'], ['no_speech_thold', '0.6'],
  ['vad_threshold', '0.35'], ['vad_min_speech_duration_ms', '100'], ['vad_min_silence_duration_ms', '100'], ['vad_speech_pad_ms', '30'], ['vad_samples_overlap', '0.1'],
];

/** `fields` in {@link textFieldsOf}'s order. */
function sortedFields(fields: [string, string][]): [string, string][] {
  return [...fields].sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}

async function failureOf(promise: Promise<unknown>): Promise<StageFailure> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(StageFailure);
  return error as StageFailure;
}

const openAiAnswer = {
  task: 'transcribe',
  language: 'english',
  duration: 20,
  text: 'Hello there, thanks for calling.',
  words: [
    { word: 'Hello', start: 0.5, end: 0.9 },
    { word: 'there,', start: 0.9, end: 1.3 },
    { word: 'thanks', start: 2.0, end: 2.4 },
    { word: 'for', start: 2.4, end: 2.55 },
    { word: 'calling.', start: 2.55, end: 3.1 },
  ],
  segments: [
    { id: 0, seek: 0, start: 0.5, end: 1.4, text: ' Hello there,', tokens: [50364, 2425], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 },
    { id: 1, seek: 0, start: 2.0, end: 3.1, text: ' thanks for calling.', tokens: [50364, 3231], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 },
  ],
};
const openAiWords = [
  { text: 'Hello', startSeconds: 0.5, endSeconds: 0.9, probability: 1 },
  { text: 'there,', startSeconds: 0.9, endSeconds: 1.3, probability: 1 },
  { text: 'thanks', startSeconds: 2, endSeconds: 2.4, probability: 1 },
  { text: 'for', startSeconds: 2.4, endSeconds: 2.55, probability: 1 },
  { text: 'calling.', startSeconds: 2.55, endSeconds: 3.1, probability: 1 },
];

/** whisper.cpp `whisper-server`'s `/inference` answer: tokens as words inside segments. */
const whisperCppAnswer = {
  task: 'transcribe',
  language: 'german',
  duration: 20,
  text: ' Grüße, wie geht es?',
  segments: [{
    id: 0, text: ' Grüße, wie geht es?', start: 0, end: 2.5, tokens: [1, 2, 3, 4, 5, 6],
    words: [
      { word: ' Gr', start: 0.12, end: 0.3, t_dtw: -1, probability: 0.8 },
      { word: 'üße', start: 0.3, end: 0.8, t_dtw: -1, probability: 0.9 },
      { word: ',', start: 0.8, end: 0.85, t_dtw: -1, probability: 0.7 },
      { word: ' wie', start: 1.0, end: 1.2, t_dtw: -1, probability: 0.95 },
      { word: ' geht', start: 1.2, end: 1.6, t_dtw: -1, probability: 0.9 },
      { word: ' es', start: 1.6, end: 1.8, t_dtw: -1, probability: 0.85 },
      { word: '?', start: 1.8, end: 1.9, t_dtw: -1, probability: 0.99 },
    ],
    temperature: 0, avg_logprob: -0.25, no_speech_prob: 0.02,
  }],
};

let workDir: string;
let audioPath: string;
let wav: Buffer;
/** 20 s of 16 kHz mono: 640 kB, several read-stream chunks. */
const durationSeconds = 20;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'callscope-transcribe-http-'));
  audioPath = join(workDir, 'cleaned-mono-private-recording.wav');
  wav = pcmWav(sine(440, durationSeconds, 0.3));
  await writeFile(audioPath, wav);
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

function options(url: string, extra: Partial<HttpTranscriptionOptions> = {}): HttpTranscriptionOptions {
  return { url, timeoutMs: 5000, ...extra };
}

describe('transcriptionApiOf', () => {
  it.each([
    ['http://asr:8080/inference', 'whisper.cpp'],
    ['http://asr:8080/inference/', 'whisper.cpp'],
    ['https://asr.internal/whisper/inference?x=1', 'whisper.cpp'],
    ['http://asr:8000/v1/audio/transcriptions', 'openai'],
    ['http://asr:8000/inference-old', 'openai'],
  ] as const)('%s → %s', (url, api) => {
    expect(transcriptionApiOf(url)).toBe(api);
  });
});

describe('transcribeOverHttp to an OpenAI-compatible server', () => {
  it('POSTs the WAV and every field to the endpoint, with the key, and reads the words and language', async () => {
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    const context = createTestStageContext();
    const transcription = await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), context);

    expect(transcription).toEqual({ language: 'en', words: openAiWords, provider: 'openai', model: 'whisper-1' });
    expect(context.progress.at(-1)).toBe(1);

    expect(received).toHaveLength(1);
    const request = received[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/audio/transcriptions');
    expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(request.headers['content-length'])).toBe(request.body.length);

    const form = await formOf(request);
    expect(form.get('model')).toBe('whisper-1');
    expect(form.get('response_format')).toBe('verbose_json');
    expect(form.getAll('timestamp_granularities[]')).toEqual(['word', 'segment']);
    expect(form.has('language')).toBe(false);
    expect(await textFieldsOf(request)).toEqual([
      ['model', 'whisper-1'],
      ['response_format', 'verbose_json'],
      ['timestamp_granularities[]', 'segment'],
      ['timestamp_granularities[]', 'word'],
    ]);

    const files = form.getAll('file');
    expect(files).toHaveLength(1);
    const file = files[0] as File;
    expect(typeof file).not.toBe('string');
    expect(file.name).toBe('call.wav');
    expect(file.type).toBe('audio/wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(wav)).toBe(true);
    expect([...form.keys()].filter((name) => name !== 'file').every((name) => typeof form.get(name) === 'string')).toBe(true);
  });

  it('sends no authorization header without a key', async () => {
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions')), createTestStageContext());
    expect(received[0]!.headers).not.toHaveProperty('authorization');
  });

  it('sends the configured model name and language, and reports the model', async () => {
    const { url, received } = await startServer(answerJson(200, { ...openAiAnswer, language: 'german' }));
    const transcription = await transcribeOverHttp(
      { audioPath, durationSeconds },
      options(url('/v1/audio/transcriptions'), { modelName: 'Systran/faster-whisper-large-v3', language: 'de' }),
      createTestStageContext(),
    );
    expect(transcription).toMatchObject({ language: 'de', provider: 'openai', model: 'Systran/faster-whisper-large-v3' });
    expect(await textFieldsOf(received[0]!)).toEqual([
      ['language', 'de'],
      ['model', 'Systran/faster-whisper-large-v3'],
      ['response_format', 'verbose_json'],
      ['timestamp_granularities[]', 'segment'],
      ['timestamp_granularities[]', 'word'],
    ]);
  });

  it('uses the configured language when the server reports none', async () => {
    const { url } = await startServer(answerJson(200, { ...openAiAnswer, language: undefined }));
    const transcription = await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { language: 'de' }), createTestStageContext());
    expect(transcription.language).toBe('de');
  });

  it('sends `language` with `auto` left out', async () => {
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { language: 'auto' }), createTestStageContext());
    expect((await formOf(received[0]!)).has('language')).toBe(false);
  });

  it('sends the call\'s prompt (names and terms) as `prompt`, and no such field without one', async () => {
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    const prompt = 'Zentrix, Maria Lopez, Dr. Patel.';
    await transcribeOverHttp({ audioPath, durationSeconds, prompt }, options(url('/v1/audio/transcriptions')), createTestStageContext());
    await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions')), createTestStageContext());
    expect((await formOf(received[0]!)).getAll('prompt')).toEqual([prompt]);
    expect((await formOf(received[1]!)).has('prompt')).toBe(false);
  });

  it('never sends the audio file\'s path on this box', async () => {
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), createTestStageContext());
    const request = received[0]!;
    const everything = `${JSON.stringify(request.headers)}\n${request.url}\n${request.body.toString('latin1')}`;
    for (const part of [audioPath, workDir, basename(audioPath), basename(workDir)]) expect(everything).not.toContain(part);
  });
});

describe('transcribeOverHttp to whisper.cpp\'s server (/inference)', () => {
  it('sends whisper.cpp\'s fields (no model unless given; language auto said, its default is en) and reads its token-level words', async () => {
    const { url, received } = await startServer(answerJson(200, whisperCppAnswer));
    const transcription = await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/inference')), createTestStageContext());

    expect(received[0]!.url).toBe('/inference');
    expect(received[0]!.headers).not.toHaveProperty('authorization');
    expect(await textFieldsOf(received[0]!)).toEqual(sortedFields([
      ['language', 'auto'],
      ...whisperCppFields,
      ['max_context', '0'],
    ]));
    const file = (await formOf(received[0]!)).get('file') as File;
    expect(file.name).toBe('call.wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(wav)).toBe(true);

    expect(transcription.language).toBe('de');
    expect(transcription.provider).toBe('openai');
    expect(transcription.model).toBe('whisper.cpp-server');
    expect(transcription.words.map((word) => [word.text, word.startSeconds, word.endSeconds])).toEqual([
      ['Grüße,', 0.12, 0.85], ['wie', 1, 1.2], ['geht', 1.2, 1.6], ['es?', 1.6, 1.9],
    ]);
    expect(transcription.words[0]!.probability).toBeCloseTo((0.8 + 0.9 + 0.7) / 3, 3);
  });

  it('sends the call\'s prompt as `prompt`, carried before every window in a text context that holds it and no decoded text', async () => {
    const { url, received } = await startServer(answerJson(200, whisperCppAnswer));
    await transcribeOverHttp({ audioPath, durationSeconds, prompt: 'Zentrix, Jürgen Weiß.' }, options(url('/inference'), { language: 'de' }), createTestStageContext());
    expect(await textFieldsOf(received[0]!)).toEqual(sortedFields([
      ['carry_initial_prompt', 'true'],
      ['language', 'de'],
      // Led by a space, as OpenAI's whisper gives a prompt to the model.
      ['prompt', ' Zentrix, Jürgen Weiß.'],
      ...whisperCppFields,
      // The site's model is not at hand to count tokens: the prompt's 24 bytes bound them, plus whisper's [_PREV_].
      ['max_context', '25'],
    ]));
  });

  it('sends the model and language when they are given', async () => {
    const { url, received } = await startServer(answerJson(200, whisperCppAnswer));
    const transcription = await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/inference'), { modelName: 'ggml-large-v3', language: 'de', apiKey }), createTestStageContext());
    expect(transcription.model).toBe('ggml-large-v3');
    expect(received[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(await textFieldsOf(received[0]!)).toEqual(sortedFields([
      ['language', 'de'],
      ['model', 'ggml-large-v3'],
      ...whisperCppFields,
      ['max_context', '0'],
    ]));
  });
});

describe('transcribeOverHttp failures', () => {
  it('a 4xx is rejected, naming the host and the server\'s message, never the key', async () => {
    const { url, host } = await startServer(answerJson(400, { error: { message: 'bad file', type: 'invalid_request_error' } }));
    const failure = await failureOf(transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), createTestStageContext()));
    expect(failure.kind).toBe('rejected');
    expect(failure.reason).toContain(host);
    expect(failure.reason).toContain('HTTP 400: bad file');
    expect(failure.reason).not.toContain(apiKey);
  });

  it('a 401 whose message repeats the key is rejected without the key in the reason', async () => {
    const { url } = await startServer(answerJson(401, { error: { message: `Incorrect API key provided: ${apiKey}` } }));
    const failure = await failureOf(transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), createTestStageContext()));
    expect(failure.kind).toBe('rejected');
    expect(failure.reason).toContain('HTTP 401');
    expect(failure.reason).not.toContain(apiKey);
  });

  it('a 5xx is transient', async () => {
    const { url, host } = await startServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'text/html' });
      response.end('<html><body>Service Unavailable</body></html>');
    });
    const failure = await failureOf(transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), createTestStageContext()));
    expect(failure.kind).toBe('transient');
    expect(failure.reason).toContain(host);
    expect(failure.reason).toContain('HTTP 503');
    expect(failure.reason).not.toContain('<html');
    expect(failure.reason).not.toContain(apiKey);
  });

  it('a refused connection is transient, naming the host', async () => {
    const { server, host, url } = await startServer(answerJson(200, openAiAnswer));
    servers.splice(servers.indexOf(server), 1);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const failure = await failureOf(transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), createTestStageContext()));
    expect(failure.kind).toBe('transient');
    expect(failure.reason).toContain(host);
    expect(failure.reason).toContain('ECONNREFUSED');
    expect(failure.reason).not.toContain(apiKey);
  });

  it('a server that never answers is transient after the timeout, pointing at TRANSCRIPTION_TIMEOUT_SECONDS', async () => {
    const { url, host, received } = await startServer(() => { /* never answers */ });
    const failure = await failureOf(transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey, timeoutMs: 300 }), createTestStageContext()));
    expect(failure.kind).toBe('transient');
    expect(failure.reason).toContain(host);
    expect(failure.reason).toContain('TRANSCRIPTION_TIMEOUT_SECONDS');
    expect(failure.reason).not.toContain(apiKey);
    expect(received).toHaveLength(1);
  });

  it('a 200 that is not a transcription (an HTML page) is an internal error, not a StageFailure', async () => {
    const { url, host } = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Login</title>');
    });
    const error = await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { apiKey }), createTestStageContext())
      .then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StageFailure);
    expect((error as Error).message).toContain(host);
    expect((error as Error).message).toContain('not JSON');
    expect((error as Error).message).not.toContain(apiKey);
  });

  it('a plain `json` answer (no segments or words) is an internal error pointing at verbose_json', async () => {
    const { url } = await startServer(answerJson(200, { text: 'Hello there' }));
    const error = await transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions')), createTestStageContext())
      .then(() => undefined, (caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(StageFailure);
    expect((error as Error).message).toContain('response_format=verbose_json');
    expect((error as Error).message).not.toContain('Hello there');
  });

  it('an abort while waiting rejects with the abort reason and closes the connection', async () => {
    const controller = new AbortController();
    const reason = new Error('the call was given up');
    let seen!: (request: Received) => void;
    const requestSeen = new Promise<Received>((resolve) => { seen = resolve; });
    const { url } = await startServer((request) => seen(request));
    const transcribing = transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions'), { timeoutMs: 20_000 }), createTestStageContext(controller.signal));
    const request = await requestSeen;
    controller.abort(reason);
    await expect(transcribing).rejects.toBe(reason);
    await request.closed;
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    controller.abort(reason);
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    await expect(transcribeOverHttp({ audioPath, durationSeconds }, options(url('/v1/audio/transcriptions')), createTestStageContext(controller.signal))).rejects.toBe(reason);
    expect(received).toHaveLength(0);
  });
});

/** Linux's list of this process's open files. */
const openFilesFolder = '/proc/self/fd';

/** How many of this process's file descriptors are open on `path`. */
function descriptorsOpenOn(path: string): number {
  return readdirSync(openFilesFolder).filter((fd) => {
    try {
      return readlinkSync(join(openFilesFolder, fd)) === path;
    } catch {
      return false;
    }
  }).length;
}

describe.skipIf(!existsSync(openFilesFolder))('transcribeOverHttp and the audio file', () => {
  /** Its own file, so that no other test's request counts; 8 MB, more than loopback buffers take before the server reads. */
  let bigAudioPath: string;
  beforeAll(async () => {
    bigAudioPath = join(workDir, 'long-call.wav');
    await writeFile(bigAudioPath, pcmWav(sine(440, 250, 0.3)));
  });

  it('leaves the file closed after a success, a refused connection, an early refusal and an abort', async () => {
    const input = { audioPath: bigAudioPath, durationSeconds: 250 };
    const ok = await startServer(answerJson(200, openAiAnswer));
    await transcribeOverHttp(input, options(ok.url('/v1/audio/transcriptions')), createTestStageContext());

    const closed = await startServer(answerJson(200, openAiAnswer));
    servers.splice(servers.indexOf(closed.server), 1);
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    expect((await failureOf(transcribeOverHttp(input, options(closed.url('/v1/audio/transcriptions')), createTestStageContext()))).kind).toBe('transient');

    // A server that refuses before reading the upload (a bad key, a size limit), as proxies do.
    const early = createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'invalid key' } }));
    });
    servers.push(early);
    await new Promise<void>((resolve) => early.listen(0, '127.0.0.1', resolve));
    const earlyUrl = `http://127.0.0.1:${(early.address() as AddressInfo).port}/v1/audio/transcriptions`;
    expect((await failureOf(transcribeOverHttp(input, options(earlyUrl), createTestStageContext()))).kind).toBe('rejected');

    // An abort while the upload is under way (the server has not read it yet).
    const controller = new AbortController();
    const stalled = createServer(() => controller.abort(new Error('given up')));
    servers.push(stalled);
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/v1/audio/transcriptions`;
    await expect(transcribeOverHttp(input, options(stalledUrl), createTestStageContext(controller.signal))).rejects.toThrow('given up');

    // Each request left open keeps 8 MB (230 MB for a 2-hour call) on disk after the call's work folder is deleted.
    await expect.poll(() => descriptorsOpenOn(bigAudioPath), { timeout: 3000, interval: 50 }).toBe(0);
  });
});

describe('transcribeWith, configured for a transcription server', () => {
  it('sends the call to TRANSCRIPTION_URL with the configured key and model', async () => {
    const { url, received } = await startServer(answerJson(200, openAiAnswer));
    const settings = transcriptionSettingsFromConfig(loadConfig({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_URL: url('/v1/audio/transcriptions'),
      TRANSCRIPTION_API_KEY: apiKey,
      TRANSCRIPTION_MODEL_NAME: 'large-v3',
    }));
    const transcription = await transcribeWith(settings, { audioPath, durationSeconds }, workDir, createTestStageContext());
    expect(transcription).toEqual({ language: 'en', words: openAiWords, provider: 'openai', model: 'large-v3' });
    expect(received[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect((await formOf(received[0]!)).get('model')).toBe('large-v3');
  });
});
