import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { maxPieceSeconds } from '../../../src/pipeline/transcription/transcribeInPieces.js';
import { transcribeWith, transcriptionSettingsFromConfig } from '../../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';
import { pcmWav } from '../../helpers/pcmWav.js';
import { createTestStageContext } from '../testStageContext.js';

const sampleRate = 16_000;
/** A 25-minute call: tone throughout, except a second of silence at each of these times, seconds. */
const callSeconds = 1500;
const pauses = [480, 980];

/** What the loopback transcription server was sent: each request's audio length, seconds, and its first sample. */
const received: { seconds: number; firstSample: number }[] = [];
let server: Server;
let workDir: string;
let audioPath: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'callscope-pieces-'));
  // Each sample holds (its second of the call + 1), so a piece's first sample says where it starts; pauses are 0.
  const samples = new Int16Array(callSeconds * sampleRate);
  for (let index = 0; index < samples.length; index++) {
    const second = Math.floor(index / sampleRate);
    samples[index] = pauses.includes(second) ? 0 : second + 1;
  }
  audioPath = join(workDir, 'call.wav');
  await writeFile(audioPath, pcmWav(samples));
  // An OpenAI-compatible server that hears one word, one second into whatever it is sent.
  server = createServer((request, response) => {
    void new Request('http://loopback.test/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: request as unknown as ReadableStream, duplex: 'half' } as RequestInit)
      .formData().then(async (form) => {
        const wav = Buffer.from(await (form.get('file') as Blob).arrayBuffer());
        const seconds = (wav.length - 44) / (2 * sampleRate);
        received.push({ seconds, firstSample: wav.readInt16LE(44) });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ task: 'transcribe', language: 'english', duration: seconds, text: 'word', words: [{ word: 'word', start: 1, end: 1.5 }], segments: [] }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(workDir, { recursive: true, force: true });
});

describe('transcribeWith on a call longer than ten and a half minutes', () => {
  it('sends it in pieces of at most ten minutes, cut in its pauses, and puts the words back on the call\'s timeline', async () => {
    const settings = transcriptionSettingsFromConfig(loadConfig({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/audio/transcriptions`,
    }));
    const progress: number[] = [];
    const context = { ...createTestStageContext(), reportProgress: (fraction: number) => { progress.push(fraction); } };
    const transcription = await transcribeWith(settings, { audioPath, durationSeconds: callSeconds }, workDir, context);

    // Three pieces of about 500 s (none longer than ten minutes), each cut in the middle of the pause in its last 30 s.
    expect(received.map((piece) => piece.seconds).every((seconds) => seconds <= maxPieceSeconds)).toBe(true);
    expect(received.map((piece) => piece.seconds)).toEqual([480.5, 500, 519.5]);
    // Each piece starts in a pause (sample value 0) and nothing of the call is lost or sent twice.
    expect(received.map((piece) => piece.firstSample)).toEqual([1, 0, 0]);
    expect(received.reduce((sum, piece) => sum + piece.seconds, 0)).toBeCloseTo(callSeconds, 3);
    // One word a second into each piece, at its place in the whole call.
    expect(transcription.words.map((word) => Math.round(word.startSeconds * 10) / 10)).toEqual([1, 481.5, 981.5]);
    expect(transcription.language).toBe('en');
    expect(progress.at(-1)).toBe(1);
    // The pieces' files are gone.
    expect((await readdir(workDir)).filter((name) => name !== 'call.wav')).toEqual([]);
  });
});
