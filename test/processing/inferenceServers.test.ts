import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sampleCallScript } from '../faults/scriptedWhisper.js';
import { openAiVerboseJson } from './callbackProvider.js';
import { uploadSample, waitForOutcome } from '../faults/faultSetup.js';
import { asUser, newDataDir, stageOutcomes, startServer } from '../helpers/serverProcess.js';
import { formOf } from '../helpers/requestForm.js';

// The site's own inference servers through the real service: TRANSCRIPTION_PROVIDER=openai (a
// transcription server played by the test, speaking OpenAI's /v1/audio/transcriptions, gets the
// cleaned audio and answers verbose_json with words) and LLM_PROVIDER=openai (a chat server
// played by the test answers the analysis); no whisper model or LLM is installed on the box, and
// calls do not wait for one.

const shared = resolve(import.meta.dirname, '../../../shared');
const apiKey = 'site-transcription-key-0123456789';

interface SeenRequest {
  path: string;
  authorization: string | undefined;
  fields: Record<string, string[]>;
  fileName: string | undefined;
  fileBytes: number;
}

let server: Server;
let url: string;
const seen: SeenRequest[] = [];
/** What the next answers are: a status to fail with, or the transcript. */
const failures: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    void formOf(request).then((form) => {
      const file = form.get('file');
      const fields: Record<string, string[]> = {};
      for (const [name, value] of form.entries()) if (typeof value === 'string') (fields[name] ??= []).push(value);
      seen.push({
        path: request.url ?? '', authorization: request.headers.authorization, fields,
        fileName: file instanceof File ? file.name : undefined, fileBytes: file instanceof File ? file.size : 0,
      });
      const failWith = failures.shift();
      if (failWith) return void response.writeHead(failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model is loading' } }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(openAiVerboseJson(sampleCallScript)));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/audio/transcriptions`;
});
afterAll(async () => { await new Promise((closed) => server.close(closed)); });

/** The chat server: every request seen, answered with one key point per segment of its prompt. */
let chatServer: Server;
let chatUrl: string;
const chatRequests: { authorization: string | undefined; body: { model: string; messages: { content: string }[] } }[] = [];
beforeAll(async () => {
  chatServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { model: string; messages: { content: string }[] };
      chatRequests.push({ authorization: request.headers.authorization, body });
      const segmentIds = [...body.messages[1]!.content.matchAll(/^\[(seg_\d+)\]/gm)].map((match) => match[1]!);
      const content = JSON.stringify({
        callType: 'support', tags: ['referral'],
        keyDiscussionPoints: segmentIds.slice(0, 2).map((id) => ({ text: 'The referral letter', topic: 'referral', phase: 'middle', speakerId: 'spk_0', sourceSegmentIds: [id] })),
      });
      response.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 500, completion_tokens: 80 } }));
    });
  });
  await new Promise<void>((listening) => chatServer.listen(0, '127.0.0.1', listening));
  chatUrl = `http://127.0.0.1:${(chatServer.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => { await new Promise((closed) => chatServer.close(closed)); });

describe('TRANSCRIPTION_PROVIDER=openai (real service, the site\'s transcription server played by the test)', () => {
  test('a call is transcribed by the server, completes with its action items, and names the provider in the transcript; no whisper model is needed', async () => {
    const dataDir = newDataDir();
    const missingWhisper = join(dataDir, 'no-whisper-here.bin');
    const service = await startServer(dataDir, {
      SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
      WHISPER_MODEL: missingWhisper,
      TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url, TRANSCRIPTION_API_KEY: apiKey, TRANSCRIPTION_MODEL_NAME: 'large-v3',
      ANALYSER: 'builtin', ANALYSIS_TIME_ZONE: 'UTC', LOG_LEVEL: 'info',
    });
    // One 503 first: the stage is retried once (spec: 5xx retried once).
    failures.push(503);
    const upload = await uploadSample(service, 'alice', 'via-transcription-server');
    const { callId } = (await upload.json()) as { callId: string };
    const outcome = await waitForOutcome(service, 'alice', callId);
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.actionItemTitles.length).toBeGreaterThan(0);
    expect(existsSync(missingWhisper)).toBe(false);

    const transcript = (await (await asUser(service, 'alice', `/api/calls/${callId}/transcript`)).json()) as {
      pipeline: { transcriptionProvider: string; transcriptionModel: string }; segments: { text: string }[];
    };
    expect(transcript.pipeline).toMatchObject({ transcriptionProvider: 'openai', transcriptionModel: 'large-v3' });
    expect(transcript.segments.map((segment) => segment.text).join(' ')).toContain('signed referral letter');

    // Two requests (the 503, then the retry), each with every field the protocol asks for.
    const mine = seen.slice(-2);
    expect(mine).toHaveLength(2);
    for (const request of mine) {
      expect(request.path).toBe('/v1/audio/transcriptions');
      expect(request.authorization).toBe(`Bearer ${apiKey}`);
      // The contact's name as the initial prompt (see transcriptionPrompt.ts).
      expect(request.fields).toEqual({ response_format: ['verbose_json'], model: ['large-v3'], 'timestamp_granularities[]': ['word', 'segment'], prompt: ['Sheila.'] });
      expect(request.fileName).toBe('call.wav');
      // The cleaned audio: 30 s of 16 kHz mono 16-bit PCM plus its header.
      expect(request.fileBytes).toBeGreaterThan(30 * 16_000 * 2 * 0.95);
    }
    expect((await stageOutcomes(dataDir, callId)).filter(([stage]) => stage === 'transcription')).toEqual([['transcription', 'RETRIED'], ['transcription', 'OK']]);
    // The key is never logged.
    expect(service.output()).not.toContain(apiKey);
  }, 120_000);

  test('a 4xx from the server fails the call at once with a reason naming the server and its message (no retry)', async () => {
    const dataDir = newDataDir();
    const service = await startServer(dataDir, {
      SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
      TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url, ANALYSER: 'builtin',
    });
    const before = seen.length;
    failures.push(413);
    const upload = await uploadSample(service, 'alice', 'refused-by-transcription-server');
    const { callId } = (await upload.json()) as { callId: string };
    const outcome = await waitForOutcome(service, 'alice', callId);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.errorReason).toBe(`The transcription server at ${new URL(url).host} refused the call (HTTP 413: model is loading)`);
    expect(seen.length - before).toBe(1);
    expect(seen.at(-1)!.authorization).toBeUndefined();
  }, 120_000);

  test('LLM_PROVIDER=openai with ANALYSER=llm: the chat server analyses the transcript; no local language model is needed', async () => {
    const dataDir = newDataDir();
    const missingLlm = join(dataDir, 'no-llm-here.gguf');
    const service = await startServer(dataDir, {
      SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
      TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url,
      ANALYSER: 'llm', LLM_MODEL: missingLlm, LLM_PROVIDER: 'openai', LLM_URL: chatUrl, LLM_MODEL_NAME: 'qwen2.5-7b-instruct', LLM_API_KEY: 'site-chat-key-0123456789',
      ANALYSIS_TIME_ZONE: 'UTC', LOG_LEVEL: 'info',
    });
    const before = chatRequests.length;
    const upload = await uploadSample(service, 'alice', 'analysed-by-chat-server');
    const { callId } = (await upload.json()) as { callId: string };
    const outcome = await waitForOutcome(service, 'alice', callId);
    expect(outcome.status).toBe('COMPLETED');
    expect(existsSync(missingLlm)).toBe(false);

    const mine = chatRequests.slice(before);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine[0]!.authorization).toBe('Bearer site-chat-key-0123456789');
    expect(mine[0]!.body.model).toBe('qwen2.5-7b-instruct');
    // The transcript (words from the transcription server) is in the prompt.
    expect(mine[0]!.body.messages[1]!.content).toContain('signed referral letter');
    const analysis = (await (await asUser(service, 'alice', `/api/calls/${callId}/analysis`)).json()) as { callType: string; tags: string[] };
    expect(analysis).toMatchObject({ callType: 'support' });
    expect(analysis.tags).toContain('referral');
    expect(service.output()).not.toContain('site-chat-key-0123456789');
  }, 120_000);
});
