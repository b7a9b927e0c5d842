import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { Value } from 'typebox/value';
import { AnalysisSchema } from '../../src/domain/analysis/analysisSchema.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { voiceProfileProvider } from '../../src/domain/voiceProfiles/VoiceProfileRepository.js';
import { embedVoices } from '../../src/pipeline/voice/embedVoices.js';
import { createServicePipeline, startProcessing, type Processing } from '../../src/processing/startProcessing.js';
import { postUpload } from '../helpers/callInspection.js';
import { waitFor } from '../helpers/processingHarness.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';
import { speakerClips, writeToyVoiceModel } from '../pipeline/voice/toyVoiceModel.js';

const shared = resolve(import.meta.dirname, '../../../shared');
const models = {
  SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
  WHISPER_MODEL: join(shared, 'models/whisper-test-stub-tiny.en.bin'),
  VAD_MODEL: join(shared, 'models/silero-vad-v6.2.0-ggml.bin'),
};

let dir: string;
let modelPath: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'callscope-voice-wiring-'));
  modelPath = await writeToyVoiceModel(join(dir, 'toy-voice.onnx'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Log lines written by the processing side. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as Record<string, unknown>); } });
  return { logger, lines };
}

async function voiceMatchCount(testApp: TestApp, outcome: string): Promise<number> {
  const metric = await testApp.services.metrics.voiceMatches.get();
  return metric.values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

describe('the service pipeline with voice profiles enabled', () => {
  let testApp: TestApp;
  let processing: Processing;
  const log = capturingLogger();
  beforeAll(async () => {
    testApp = await startTestApp({ ...models, EMBEDDING_MODEL: modelPath, SERVICE_VOICE_EMBEDDING_ENABLED: 'true', WORKER_THREADS: '1', WORKER_CONCURRENCY: '1' });
    processing = await startProcessing(testApp.services, log.logger as never, createServicePipeline(testApp.services, log.logger as never));
  });
  afterAll(async () => {
    await processing.stop(0);
    await testApp.close();
  });

  test('a call of a user with a profile is matched: one log line and one metric per outcome, without scores or vectors', async () => {
    const alice = testApp.as('alice');
    const me = (await (await alice('/api/users/me')).json()) as { id: string };
    const embedded = await embedVoices({ audioPath: speakerClips.speaker1a, embeddingModelPath: modelPath, voices: { sample: [{ startSeconds: 0, endSeconds: 60 }] } });
    await testApp.services.voiceProfiles.save(me.id, {
      provider: voiceProfileProvider, consentVersion: '1', sampleDurationSeconds: 8,
      embedding: { vector: embedded.voices.sample!.vector, model: embedded.model },
    }, Date.now());

    const { callId } = (await (await postUpload(alice, uploadForm(await readFile(speakerClips.speaker1b), 'call.wav'))).json()) as { callId: string };
    const line = await waitFor('the voice match log line', () => log.lines.find((entry) => entry.msg === 'voice match' && entry.callId === callId), 60_000);
    // The structure-only whisper model recognises no words, so the transcript has no speakers to compare.
    expect(line).toMatchObject({ outcome: 'NO_MATCH', comparedSpeakers: 0 });
    expect(Object.keys(line)).not.toContain('scores');
    expect(JSON.stringify(line)).not.toMatch(/\d\.\d{5,}/);
    expect(await voiceMatchCount(testApp, 'no_match')).toBe(1);

    // The call completes, and its transcript says matching was tried.
    await waitFor('the call to complete', async () => (await (await alice(`/api/calls/${callId}`)).json() as { status: string }).status === 'COMPLETED', 60_000);
    const transcript = (await (await alice(`/api/calls/${callId}/transcript`)).json()) as { speakerResolution: Record<string, unknown> };
    expect(transcript.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceMatchStatus: 'NO_MATCH', voiceProfileUsed: false });
  }, 90_000);

  test('a user without a profile is not matched: no log line, no metric', async () => {
    const bob = testApp.as('bob');
    const before = log.lines.filter((entry) => entry.msg === 'voice match').length;
    const { callId } = (await (await postUpload(bob, uploadForm(await readFile(speakerClips.speaker2a), 'call.wav'))).json()) as { callId: string };
    await waitFor('the call to end', () => log.lines.find((entry) => entry.callId === callId && (entry.msg === 'call failed' || entry.msg === 'call completed')), 60_000);
    expect(log.lines.filter((entry) => entry.msg === 'voice match')).toHaveLength(before);
    const transcript = (await (await bob(`/api/calls/${callId}/transcript`)).json()) as { speakerResolution: Record<string, unknown> };
    expect(transcript.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceMatchStatus: 'NO_PROFILE' });
  }, 90_000);
});

describe('the service pipeline with voice profiles off (the default)', () => {
  let testApp: TestApp;
  let processing: Processing;
  beforeAll(async () => {
    testApp = await startTestApp({ ...models, WORKER_THREADS: '1', WORKER_CONCURRENCY: '1' });
    processing = await startProcessing(testApp.services, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await processing.stop(0);
    await testApp.close();
  });

  test('a call completes with a valid built-in analysis, and its transcript says voice matching is DISABLED', async () => {
    const carol = testApp.as('carol');
    const { callId } = (await (await postUpload(carol, uploadForm(await readFile(speakerClips.speaker1b), 'call.wav'))).json()) as { callId: string };
    await waitFor('the call to complete', async () => (await (await carol(`/api/calls/${callId}`)).json() as { status: string }).status === 'COMPLETED', 60_000);
    const transcript = (await (await carol(`/api/calls/${callId}/transcript`)).json()) as { speakerResolution: Record<string, unknown> };
    expect(transcript.speakerResolution).toMatchObject({ voiceEmbeddingEnabled: false, voiceMatchStatus: 'DISABLED', voiceProfileUsed: false });
    const analysis = await (await carol(`/api/calls/${callId}/analysis`)).json();
    expect([...Value.Errors(AnalysisSchema, analysis)]).toEqual([]);
    // The structure-only whisper model hears no words: an honest, nearly empty analysis that says why.
    expect((analysis as { qualityWarnings: string[] }).qualityWarnings.length).toBeGreaterThan(0);
  }, 90_000);
});
