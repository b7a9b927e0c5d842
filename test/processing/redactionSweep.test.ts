import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveFfmpegBinaries } from '../../src/pipeline/cleanup/ffmpegBinaries.js';
import { uploadSample, waitForOutcome } from '../faults/faultSetup.js';
import { sampleCallScript, type ScriptLine } from '../faults/scriptedWhisper.js';
import { docxDocument } from '../helpers/docxText.js';
import { formOf } from '../helpers/requestForm.js';
import { asUser, newDataDir, query, startServer, type ServerProcess } from '../helpers/serverProcess.js';
import { testDatabaseEngine } from '../helpers/testDatabase.js';
import { newWebhookSecret } from '../../src/infrastructure/inference/standardWebhooks.js';
import { waitFor } from '../helpers/processingHarness.js';
import { openAiVerboseJson, sendCallback, startCallbackProvider, type CallbackProvider } from './callbackProvider.js';

// The proof that no card number survives: a real call through the real service (its
// production pipeline, the built-in analyser) whose transcription server, played by the test,
// answers words that contain three card numbers, written and spoken. After COMPLETED, every file
// under DATA_DIR (documents, audio, the SQLite database with its WAL, byte for byte), every row
// of the PostgreSQL database, every log line and every API answer (detail, transcript, analysis,
// actions, search, all five exports, the DOCX's XML) is searched for the digits in any grouping.

const execFileAsync = promisify(execFile);
const shared = resolve(import.meta.dirname, '../../../shared');

const cards = ['4111111111111111', '5555555555554444', '4242424242424242'] as const;
const spokenDigits = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The sample call's script with card numbers said in it: grouped digits, spoken digits, and digits in an action item's sentence. */
const script: ScriptLine[] = sampleCallScript.map((line) => {
  if (line.startSeconds === 14.444) return { ...line, text: 'Thank you. My card is 4111 1111 1111 1111. I will call the pharmacy tomorrow about the prescription.' };
  if (line.startSeconds === 17.789) return { ...line, text: 'Please email me a copy of your insurance card 4242-4242-4242-4242 before Monday.' };
  if (line.startSeconds === 21.935) return { ...line, text: `Sure, I will email the insurance card to you tonight. ${[...cards[1]].map((digit) => spokenDigits[Number(digit)]).join(' ')} okay.` };
  return line;
});

/** Where the card words of a line lie, seconds (the fake server spreads a line's words evenly, see openAiVerboseJson). */
function spanOf(line: ScriptLine, firstWord: string, wordCount: number): { startSeconds: number; endSeconds: number } {
  const parts = line.text.split(' ');
  const step = (line.endSeconds - line.startSeconds) / parts.length;
  const index = parts.indexOf(firstWord);
  return { startSeconds: line.startSeconds + index * step, endSeconds: line.startSeconds + (index + wordCount) * step };
}
const writtenCardSpan = spanOf(script.find((line) => line.startSeconds === 14.444)!, '4111', 4);

/** A card's digits with any separators (spaces, dashes, dots, commas, tags) between them, or spoken as digit words. */
function cardPatterns(card: string): RegExp[] {
  return [
    new RegExp([...card].join('[\\s\\-.,/_"\'<>:a-z]{0,3}?'), 'i'),
    new RegExp([...card.slice(0, 8)].map((digit) => spokenDigits[Number(digit)]).join('\\W{1,3}'), 'i'),
  ];
}

function expectNoCard(where: string, text: string): void {
  for (const card of cards) {
    for (const pattern of cardPatterns(card)) {
      const found = pattern.exec(text);
      expect(found, `${where} holds card ${card.slice(-4)}: …${found ? text.slice(Math.max(0, found.index - 40), found.index + 60) : ''}…`).toBeNull();
    }
  }
}

let transcriptionServer: Server;
let transcriptionUrl: string;
beforeAll(async () => {
  transcriptionServer = createServer((request, response) => {
    void formOf(request).then(() => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openAiVerboseJson(script)));
    });
  });
  await new Promise<void>((listening) => transcriptionServer.listen(0, '127.0.0.1', listening));
  transcriptionUrl = `http://127.0.0.1:${(transcriptionServer.address() as AddressInfo).port}/v1/audio/transcriptions`;
});
afterAll(async () => { await new Promise((closed) => transcriptionServer.close(closed)); });

let callbackProvider: CallbackProvider;
beforeAll(async () => { callbackProvider = await startCallbackProvider(); });
afterAll(async () => { await callbackProvider.close(); });

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** The audio as 16 kHz mono samples in [-1, 1]. */
async function decodedSamples(path: string): Promise<Float32Array> {
  const { stdout } = await execFileAsync(resolveFfmpegBinaries().ffmpegPath, ['-v', 'error', '-i', path, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 4);
}

/** Share of a window's energy at `hz` (Goertzel): about 1 for a pure tone, near 0 for speech. */
function toneShare(samples: Float32Array, fromSeconds: number, toSeconds: number, hz: number): number {
  const [from, to] = [Math.round(fromSeconds * 16_000), Math.round(toSeconds * 16_000)];
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / 16_000);
  let [previous, beforePrevious, energy] = [0, 0, 0];
  for (let index = from; index < to; index += 1) {
    const sample = samples[index]!;
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
    energy += sample * sample;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return energy === 0 ? 0 : (2 * power) / ((to - from) * energy);
}

/** What both transcription paths start the service with: the real segmentation model, no whisper model, the built-in analyser, every log line. */
const serviceEnvironment = (dataDir: string) => ({
  SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
  WHISPER_MODEL: join(dataDir, 'no-whisper-here.bin'),
  ANALYSER: 'builtin', ANALYSIS_TIME_ZONE: 'UTC', LOG_LEVEL: 'debug',
});

/** The sweep: the call's API answers, every file under DATA_DIR, every database row, the log, and the stored audio's tone. */
async function expectNoCardAnywhere(service: ServerProcess, dataDir: string, callId: string): Promise<void> {
  const outcome = await waitForOutcome(service, 'alice', callId);
  expect(outcome.status, outcome.errorReason ?? '').toBe('COMPLETED');
  expect(outcome.actionItemTitles.length).toBeGreaterThan(0);

  // The API: every answer about the call.
  const get = async (path: string) => {
    const response = await asUser(service, 'alice', path);
    expect(response.status, path).toBe(200);
    return response;
  };
  const transcriptText = await (await get(`/api/calls/${callId}/transcript`)).text();
  const transcript = JSON.parse(transcriptText) as { cleanText: string; redaction?: unknown };
  expect(transcript.redaction).toEqual({ kinds: ['card'], counts: { card: 3 } });
  expect(transcript.cleanText.match(/\[CARD\]/g)).toHaveLength(3);
  expect(transcript.cleanText).toContain('My card is [CARD].');
  const answers: [string, string][] = [
    ['transcript', transcriptText],
    ['detail', await (await get(`/api/calls/${callId}`)).text()],
    ['analysis', await (await get(`/api/calls/${callId}/analysis`)).text()],
    ['actions', await (await get('/api/actions')).text()],
    ['calls', await (await get('/api/calls')).text()],
    ['search for the placeholder', await (await get('/api/search?q=card')).text()],
    ['search for the digits', await (await get(`/api/search?q=${cards[0].slice(0, 4)}`)).text()],
  ];
  expect(answers.find(([name]) => name === 'search for the placeholder')![1]).toContain(callId);
  for (const format of ['txt', 'srt', 'vtt', 'json']) answers.push([`${format} export`, await (await get(`/api/calls/${callId}/export?format=${format}`)).text()]);
  const docx = await docxDocument(new Uint8Array(await (await get(`/api/calls/${callId}/export?format=docx`)).arrayBuffer()));
  answers.push(['docx export (XML)', docx.xml], ['docx export (text)', docx.text]);
  expect(docx.text).toContain('[CARD]');
  for (const [name, body] of answers) expectNoCard(`the API's ${name}`, body);

  // Every file under DATA_DIR, byte for byte (the SQLite database, its WAL and journal included),
  // once the run has removed its work folder (and, in callback mode, what the call kept while it waited).
  await waitFor('the run to remove its work folders', () => !filesUnder(dataDir).some((path) => /[/\\](work|pending)[/\\]/.test(path)) || undefined, 10_000);
  const files = filesUnder(dataDir).filter((path) => statSync(path).size > 0);
  if (testDatabaseEngine === 'sqlite') expect(files.some((path) => /\.(db|sqlite)$/.test(path))).toBe(true);
  for (const path of files) expectNoCard(`the file ${path.slice(dataDir.length)}`, readFileSync(path).toString('latin1'));

  // PostgreSQL: every row of every table, as text.
  if (testDatabaseEngine === 'postgres') {
    const tables = await query<{ name: string }>(dataDir, sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`);
    expect(tables.length).toBeGreaterThan(5);
    for (const { name } of tables) {
      const rows = await query<{ row: string }>(dataDir, sql`SELECT row_to_json(t)::text AS row FROM ${sql.identifier(name)} t`);
      for (const { row } of rows) expectNoCard(`the table ${name}`, row);
    }
  }

  // Every log line.
  expect(service.output()).toContain('stage finished');
  expectNoCard('the log', service.output());

  // The stored original: a 1 kHz tone over the written card's span, the speech elsewhere untouched.
  const [stored] = await query<{ key: string }>(dataDir, sql`SELECT audio_object_key AS key FROM calls WHERE id = ${callId}`);
  const toned = await decodedSamples(join(dataDir, 'objects', stored!.key));
  const original = await decodedSamples(join(shared, 'audio/pyannote-sample/sample.wav'));
  expect(toned.length).toBe(original.length);
  const { startSeconds, endSeconds } = writtenCardSpan;
  expect(toneShare(toned, startSeconds, endSeconds, 1000)).toBeGreaterThan(0.9);
  expect(toneShare(original, startSeconds, endSeconds, 1000)).toBeLessThan(0.3);
  const sampleAt = (seconds: number) => Math.round(seconds * 16_000);
  for (let index = sampleAt(8); index < sampleAt(10); index += 1) expect(Math.abs(toned[index]! - original[index]!)).toBeLessThan(1e-3);
}

describe(`no card number survives a call (REDACT default, ${testDatabaseEngine})`, () => {
  test('transcription server: database, files, logs, API answers and exports hold no card digits; the stored audio has a 1 kHz tone over the span', async () => {
    const dataDir = newDataDir();
    const service = await startServer(dataDir, {
      ...serviceEnvironment(dataDir),
      TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: transcriptionUrl, TRANSCRIPTION_MODEL_NAME: 'large-v3',
    });
    const { callId } = (await (await uploadSample(service, 'alice', 'card-call')).json()) as { callId: string };
    await expectNoCardAnywhere(service, dataDir, callId);
  }, 180_000);

  test('callback mode: the provider\'s words are redacted when the call resumes, with the same guarantees', async () => {
    const dataDir = newDataDir();
    const secret = newWebhookSecret();
    const service = await startServer(dataDir, {
      ...serviceEnvironment(dataDir),
      PUBLIC_URL: 'http://127.0.0.1:9', TRANSCRIPTION_WEBHOOK_SECRET: secret,
      TRANSCRIPTION_PROVIDER: 'callback', TRANSCRIPTION_URL: `${callbackProvider.origin}/v1/audio/transcriptions`,
    });
    const before = callbackProvider.submissions.length;
    const { callId } = (await (await uploadSample(service, 'alice', 'card-call')).json()) as { callId: string };
    const submission = await waitFor('the submission', () => callbackProvider.submissions[before], 60_000);
    await waitFor('the call to wait for its callback', async () => {
      const [row] = await query<{ lease: string | null; since: number | null }>(dataDir, sql`SELECT worker_lease AS lease, awaiting_callback_since AS since FROM calls WHERE id = ${callId}`);
      return (row?.since !== null && row?.since !== undefined && row.lease === null) || undefined;
    }, 30_000);
    const answer = await sendCallback(service.baseUrl, { job_id: submission.jobId, transcription: openAiVerboseJson(script) }, { secret });
    expect(answer.status).toBe(202);
    await expectNoCardAnywhere(service, dataDir, callId);
  }, 180_000);
});
