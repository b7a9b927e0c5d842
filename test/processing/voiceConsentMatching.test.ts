import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { outdatedConsentWarning } from '../../src/domain/voiceProfiles/voiceConsent.js';
import { createServicePipeline, startProcessing, type Processing } from '../../src/processing/startProcessing.js';
import { completeSetup, type AdminBrowser } from '../admin/adminClient.js';
import { postUpload, type UserClient } from '../helpers/callInspection.js';
import { waitFor } from '../helpers/processingHarness.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { uploadForm } from '../helpers/uploads.js';
import { postVoiceSample, speakerSample, statusOf, toyModelFolder, voiceEnv } from '../http/users/voiceProfileHelpers.js';
import { speakerClips } from '../pipeline/voice/toyVoiceModel.js';

// A change of SERVICE_VOICE_CONSENT_VERSION on the admin page, end to end: the profile recorded
// under the old version stops being used for matching (the call is processed as without one, and
// says why), the status GET tells the app, and recording again makes matching resume.

const shared = resolve(import.meta.dirname, '../../../shared');
const models = {
  SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
  WHISPER_MODEL: join(shared, 'models/whisper-test-stub-tiny.en.bin'),
  VAD_MODEL: join(shared, 'models/silero-vad-v6.2.0-ggml.bin'),
};

interface SpeakerResolution { voiceEmbeddingEnabled: boolean; voiceProfileUsed: boolean; voiceMatchStatus: string; warnings: string[] }

let model: Awaited<ReturnType<typeof toyModelFolder>>;
let testApp: TestApp;
let processing: Processing;
let admin: AdminBrowser;
const logLines: Record<string, unknown>[] = [];
beforeAll(async () => {
  model = await toyModelFolder();
  testApp = await startTestApp({ ...models, ...voiceEnv(model.modelPath), WORKER_THREADS: '1', WORKER_CONCURRENCY: '1' });
  const logger = pino({ level: 'info' }, { write: (line: string) => { logLines.push(JSON.parse(line) as Record<string, unknown>); } });
  processing = await startProcessing(testApp.services, logger as never, createServicePipeline(testApp.services, logger as never));
  admin = await completeSetup(testApp);
});
afterAll(async () => {
  await processing?.stop(0);
  await testApp?.close();
  model?.remove();
});

async function enrol(client: UserClient): Promise<void> {
  const response = await postVoiceSample(client, speakerSample());
  expect(response.status, await response.clone().text()).toBe(201);
}

/** Uploads a call, waits for it to complete; its transcript's speakerResolution and whether a voice match was logged for it. */
async function processedCall(client: UserClient): Promise<{ resolution: SpeakerResolution; matchLogged: boolean }> {
  const { callId } = (await (await postUpload(client, uploadForm(await readFile(speakerClips.speaker1b), 'call.wav'))).json()) as { callId: string };
  await waitFor('the call to complete', async () => ((await (await client(`/api/calls/${callId}`)).json()) as { status: string }).status === 'COMPLETED', 60_000);
  const transcript = (await (await client(`/api/calls/${callId}/transcript`)).json()) as { speakerResolution: SpeakerResolution };
  return { resolution: transcript.speakerResolution, matchLogged: logLines.some((line) => line.msg === 'voice match' && line.callId === callId) };
}

test('after the admin changes the consent version, the old profile is not matched and the app is told; recording again resumes matching', async () => {
  const alice = testApp.as('consent-alice');
  await enrol(alice);
  expect((await statusOf(alice))).toMatchObject({ status: 'ACTIVE', consentVersion: '1' });

  // Under the version it was recorded with, the profile is compared (the structure-only whisper
  // model hears no words, so the comparison finds no speaker: NO_MATCH, which means it was tried).
  const before = await processedCall(alice);
  expect(before.resolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceMatchStatus: 'NO_MATCH' });
  expect(before.matchLogged).toBe(true);

  // A new consent text: the Settings page, applied at once, without a restart.
  expect((await admin.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { SERVICE_VOICE_CONSENT_VERSION: '2025-01' } } })).status).toBe(200);

  const outdated = await processedCall(alice);
  expect(outdated.resolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceMatchStatus: 'NO_PROFILE', voiceProfileUsed: false });
  expect(outdated.resolution.warnings).toContain(outdatedConsentWarning);
  expect(outdated.matchLogged).toBe(false);
  expect(await statusOf(alice)).toMatchObject({ status: 'ACTIVE', consentVersion: '1', requiredConsentVersion: '2025-01' });

  // The user accepts the new consent and records again: the profile carries the new version and is used.
  await enrol(alice);
  const status = await statusOf(alice);
  expect(status).toMatchObject({ status: 'ACTIVE', consentVersion: '2025-01' });
  expect(Object.keys(status)).not.toContain('requiredConsentVersion');
  const after = await processedCall(alice);
  expect(after.resolution).toMatchObject({ voiceEmbeddingEnabled: true, voiceMatchStatus: 'NO_MATCH' });
  expect(after.resolution.warnings).not.toContain(outdatedConsentWarning);
  expect(after.matchLogged).toBe(true);
}, 240_000);
