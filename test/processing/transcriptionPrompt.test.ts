import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sampleCall, waitForOutcome } from '../faults/faultSetup.js';
import { sampleCallScript } from '../faults/scriptedWhisper.js';
import { uploadForm } from '../helpers/uploads.js';
import { asUser, newDataDir, startServer } from '../helpers/serverProcess.js';
import { openAiVerboseJson } from './callbackProvider.js';
import { formOf } from '../helpers/requestForm.js';

// Names as hotwords through the real service: the user's display name, the call's contact name
// and the admin's vocabulary reach the site's OpenAI-compatible transcription server (played by
// the test on loopback) as the `prompt` form field, and appear in no log line.

const shared = resolve(import.meta.dirname, '../../../shared');

let server: Server;
let url: string;
/** The text fields of each request the transcription server received, in order. */
const requests: Record<string, string[]>[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    void formOf(request).then((form) => {
      const fields: Record<string, string[]> = {};
      for (const [name, value] of form.entries()) if (typeof value === 'string') (fields[name] ??= []).push(value);
      requests.push(fields);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openAiVerboseJson(sampleCallScript)));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/audio/transcriptions`;
});
afterAll(async () => { await new Promise((closed) => server.close(closed)); });

describe('names as hotwords (real service, an OpenAI-compatible transcription server played by the test)', () => {
  test('the transcription request carries the vocabulary, the user\'s and the contact\'s names as `prompt`; no log line holds them', async () => {
    const dataDir = newDataDir();
    const service = await startServer(dataDir, {
      SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
      WHISPER_MODEL: join(dataDir, 'no-whisper-here.bin'),
      TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url,
      TRANSCRIPTION_VOCABULARY: 'Callscope, Zentrix\nNorthwind Legal',
      ANALYSER: 'builtin', ANALYSIS_TIME_ZONE: 'UTC', LOG_LEVEL: 'debug', LOG_FORMAT: 'json',
    });
    const renamed = await asUser(service, 'kwame', '/api/users/me', {
      method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'Kwame Mensah' }),
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const upload = await asUser(service, 'kwame', '/api/calls/analyze', {
      method: 'POST', headers: { 'idempotency-key': 'hotwords-call' },
      body: uploadForm(sampleCall(), 'sample.wav', { metadata: { contactName: 'Siobhán Ní Bhriain', recordedAt: '2026-11-20T10:00:00Z' } }),
    });
    expect(upload.status, await upload.clone().text()).toBe(202);
    const { callId } = (await upload.json()) as { callId: string };
    expect((await waitForOutcome(service, 'kwame', callId)).status).toBe('COMPLETED');

    const [request] = requests.slice(-1);
    expect(request?.prompt).toEqual(['Callscope, Zentrix, Northwind Legal, Kwame Mensah, Siobhán Ní Bhriain.']);
    // The prompt holds names: it goes to the transcriber only.
    for (const secret of ['Zentrix', 'Kwame Mensah', 'Siobhán']) expect(service.output()).not.toContain(secret);
  }, 180_000);
});
