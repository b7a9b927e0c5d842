import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { aacFile, mp3File, oggFile, wavFile } from '../../helpers/audioFixtures.js';
import { errorOf, tempFiles, type ErrorBody } from '../../helpers/callInspection.js';
import { pcmWav, readPcmWav } from '../../helpers/pcmWav.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { speakerClips } from '../../pipeline/voice/toyVoiceModel.js';
import {
  postVoiceSample, speakerSample, statusOf, toyModelFolder, transcode, uploadCounts, userIdOf, voiceEnv, voiceProfilePath, voiceProfileRow, voiceProfileRows,
} from './voiceProfileHelpers.js';

let model: Awaited<ReturnType<typeof toyModelFolder>>;
beforeAll(async () => { model = await toyModelFolder(); });
afterAll(() => { model.remove(); });

/** Deterministic bytes that are no audio format. */
function noiseBytes(length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let index = 0; blocks.length * 32 < length; index++) blocks.push(createHash('sha256').update(`noise ${index}`).digest());
  const bytes = Buffer.concat(blocks).subarray(0, length);
  bytes[0] = 0x42; // never a sync byte
  return bytes;
}

/**
 * Sends the sample as `user`, expects the refusal `status`/`code`, and checks nothing was left
 * behind: no profile for the user, nothing in `<DATA_DIR>/tmp`, status still MISSING.
 */
async function expectRefused(
  testApp: TestApp,
  user: string,
  send: () => Promise<Response>,
  status: number,
  code: string,
): Promise<ErrorBody> {
  const client = testApp.as(user);
  const response = await send();
  expect(response.status, await response.clone().text()).toBe(status);
  const error = await errorOf(response);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(await voiceProfileRows(testApp, await userIdOf(client))).toBe(0);
  expect(await statusOf(client)).toEqual({ enabled: true, status: 'MISSING' });
  expect(tempFiles(testApp.dataDir)).toEqual([]);
  return error;
}

describe('refusals with the toy model, samples of 5 to 60 s', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(voiceEnv(model.modelPath)); });
  afterAll(async () => { await testApp?.close(); });

  describe('consent', () => {
    test.each([
      ['missing', null],
      ['"false"', 'false'],
      ['"yes"', 'yes'],
      ['"TRUE"', 'TRUE'],
      ['empty', ''],
    ])('consentAccepted %s is refused with 400 validation_failed on the consentAccepted field', async (_case, consentAccepted) => {
      const user = `consent-${consentAccepted ?? 'missing'}`;
      const countsBefore = await uploadCounts(testApp);

      const error = await expectRefused(testApp, user, () => postVoiceSample(testApp.as(user), speakerSample(), { consentAccepted }), 400, 'validation_failed');

      expect(error.details?.fields?.[0]?.path).toBe('consentAccepted');
      expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, rejected: countsBefore.rejected + 1 });
    });

    test('an upload without consent leaves an existing profile as it was', async () => {
      const client = testApp.as('consent-keeper');
      const userId = await userIdOf(client);
      expect((await postVoiceSample(client, speakerSample())).status).toBe(201);
      const row = await voiceProfileRow(testApp, userId);

      const refused = await postVoiceSample(client, speakerSample(), { consentAccepted: 'false' });

      expect(refused.status).toBe(400);
      expect(await voiceProfileRow(testApp, userId)).toEqual(row);
      expect((await statusOf(client)).status).toBe('ACTIVE');
    });
  });

  describe('missing or empty file', () => {
    test('a request without a file part is refused with 400 validation_failed on the file field', async () => {
      const form = new FormData();
      form.append('consentAccepted', 'true');

      const error = await expectRefused(testApp, 'no-file', () => testApp.as('no-file')(voiceProfilePath, { method: 'POST', body: form }), 400, 'validation_failed');

      expect(error.details?.fields?.[0]?.path).toBe('file');
    });

    test('an empty file is refused with 400 validation_failed on the file field', async () => {
      const error = await expectRefused(testApp, 'empty-file', () => postVoiceSample(testApp.as('empty-file'), Buffer.alloc(0)), 400, 'validation_failed');

      expect(error.details?.fields?.[0]?.path).toBe('file');
    });
  });

  describe('media type', () => {
    test.each([
      ['an OGG file', oggFile(), 'sample.ogg'],
      ['OGG content without extension', oggFile(), 'sample'],
      ['an ADTS AAC stream', aacFile(), 'sample.aac'],
      ['ADTS AAC content without extension', aacFile(), 'sample'],
      ['bytes that are no audio format, named .wav', noiseBytes(4096), 'sample.wav'],
      ['a real WAV sample named .txt', speakerSample(), 'sample.txt'],
      ['MP3 content named .wav', mp3File(), 'sample.wav'],
      ['a RIFF/WAVE header with no audio chunks behind it', Buffer.concat([Buffer.from('RIFF\u0000\u0010\u0000\u0000WAVE', 'latin1'), noiseBytes(4096)]), 'sample.wav'],
    ])('%s is refused with 415 unsupported_media_type', async (_case, content, fileName) => {
      const user = `media-${fileName}-${content.length}-${content[0]}`;
      const countsBefore = await uploadCounts(testApp);

      await expectRefused(testApp, user, () => postVoiceSample(testApp.as(user), content, { fileName }), 415, 'unsupported_media_type');

      expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, rejected: countsBefore.rejected + 1 });
    });
  });

  describe('silence', () => {
    test('20 s of digital silence is refused with 400 voice_sample_too_short', async () => {
      const countsBefore = await uploadCounts(testApp);

      await expectRefused(testApp, 'silent', () => postVoiceSample(testApp.as('silent'), wavFile(20)), 400, 'voice_sample_too_short');

      expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, rejected: countsBefore.rejected + 1 });
    });

    test('a sample long enough but holding under half the minimum of speech is refused with 400 voice_sample_too_short', async () => {
      // 1.5 s of speaker1a, then 10 s of digital silence: 11.5 s long, 1.5 s of speech (2.5 s needed).
      const speech = (await readPcmWav(speakerClips.speaker1a)).samples.subarray(16000 * 2, 16000 * 3.5);
      const samples = new Int16Array(speech.length + 16000 * 10);
      samples.set(speech);

      const error = await expectRefused(testApp, 'mostly-silent', () => postVoiceSample(testApp.as('mostly-silent'), pcmWav(samples)), 400, 'voice_sample_too_short');

      expect(error.details).toMatchObject({ minSpeechSeconds: 2.5 });
      expect(error.details?.speechSeconds).toBeLessThan(2.5);
    });
  });
});

describe('a sample under the minimum duration (default SERVICE_VOICE_SAMPLE_MIN_SECONDS 10)', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp({ SERVICE_VOICE_EMBEDDING_ENABLED: 'true', EMBEDDING_MODEL: model.modelPath }); });
  afterAll(async () => { await testApp?.close(); });

  test('the 7.8 s recording is refused with 400 voice_sample_too_short, giving its duration and the minimum', async () => {
    const countsBefore = await uploadCounts(testApp);

    const error = await expectRefused(testApp, 'short', () => postVoiceSample(testApp.as('short'), speakerSample()), 400, 'voice_sample_too_short');

    expect(error.details).toEqual({ durationSeconds: 7.8, minSeconds: 10 });
    expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, rejected: countsBefore.rejected + 1 });
  });
});

describe('a sample over the maximum duration (SERVICE_VOICE_SAMPLE_MAX_SECONDS 6)', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(voiceEnv(model.modelPath, { SERVICE_VOICE_SAMPLE_MAX_SECONDS: '6' })); });
  afterAll(async () => { await testApp?.close(); });

  test('the 7.8 s recording is refused with 400 voice_sample_too_long, giving the maximum', async () => {
    const countsBefore = await uploadCounts(testApp);

    const error = await expectRefused(testApp, 'long', () => postVoiceSample(testApp.as('long'), speakerSample()), 400, 'voice_sample_too_long');

    expect(error.details).toMatchObject({ maxSeconds: 6 });
    expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, rejected: countsBefore.rejected + 1 });
  });
});

describe('a sample over the size limit (SERVICE_VOICE_SAMPLE_MAX_SIZE_MB 0.1)', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(voiceEnv(model.modelPath, { SERVICE_VOICE_SAMPLE_MAX_SIZE_MB: '0.1' })); });
  afterAll(async () => { await testApp?.close(); });

  test('the 250 KB WAV is refused with 413 voice_sample_too_large, giving the limit in bytes, and counted as rejected', async () => {
    const countsBefore = await uploadCounts(testApp);
    const error = await expectRefused(testApp, 'large', () => postVoiceSample(testApp.as('large'), speakerSample()), 413, 'voice_sample_too_large');

    expect(error.details).toEqual({ maxBytes: Math.floor(0.1 * 1024 * 1024) });
    expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, rejected: countsBefore.rejected + 1 });
  });

  test('the same recording as a 32 kbit/s MP3 (about 31 KB) fits and is accepted', async () => {
    const mp3 = await transcode(speakerClips.speaker1a, join(model.folder, 'small.mp3'), ['-b:a', '32k']);
    expect(mp3.length).toBeLessThan(0.1 * 1024 * 1024);

    const response = await postVoiceSample(testApp.as('small'), mp3, { fileName: 'small.mp3' });

    expect(response.status, await response.clone().text()).toBe(201);
  });
});

describe('no usable speaker-embedding model', () => {
  let missingModelApp: TestApp;
  let brokenModelApp: TestApp;
  beforeAll(async () => {
    const brokenModel = join(model.folder, 'broken.onnx');
    writeFileSync(brokenModel, 'this is not an ONNX model');
    [missingModelApp, brokenModelApp] = await Promise.all([
      startTestApp(voiceEnv(join(model.folder, 'missing.onnx'))),
      startTestApp(voiceEnv(brokenModel)),
    ]);
  });
  afterAll(async () => { await Promise.all([missingModelApp?.close(), brokenModelApp?.close()]); });

  test('without a model file at EMBEDDING_MODEL a valid sample is answered 502 voice_provider_error saying none is installed', async () => {
    const countsBefore = await uploadCounts(missingModelApp);

    const error = await expectRefused(missingModelApp, 'nomodel', () => postVoiceSample(missingModelApp.as('nomodel'), speakerSample()), 502, 'voice_provider_error');

    expect(error.message).toMatch(/no speaker-embedding model is installed/i);
    // The file name may be named; the server's folders are not.
    expect(error.message).not.toContain(model.folder);
    expect(await uploadCounts(missingModelApp)).toEqual({ ...countsBefore, provider_error: countsBefore.provider_error + 1 });
  });

  test('the status and DELETE endpoints still answer without a model', async () => {
    const client = missingModelApp.as('nomodel-status');
    expect(await statusOf(client)).toEqual({ enabled: true, status: 'MISSING' });
    expect((await client(voiceProfilePath, { method: 'DELETE' })).status).toBe(204);
  });

  test('a model file that is not a usable ONNX model is answered 502 voice_provider_error', async () => {
    const countsBefore = await uploadCounts(brokenModelApp);

    const error = await expectRefused(brokenModelApp, 'broken', () => postVoiceSample(brokenModelApp.as('broken'), speakerSample()), 502, 'voice_provider_error');

    expect(error.message).not.toContain(model.folder);
    expect(await uploadCounts(brokenModelApp)).toEqual({ ...countsBefore, provider_error: countsBefore.provider_error + 1 });
  });

  test('a 502 does not use up the Idempotency-Key: a retry runs again (and fails again here)', async () => {
    const client = missingModelApp.as('nomodel-retry');
    const headers = { 'idempotency-key': 'voice-retry-0001' };
    const first = await postVoiceSample(client, speakerSample(), { headers });
    expect(first.status).toBe(502);

    const retry = await postVoiceSample(client, speakerSample(), { headers });

    expect(retry.status).toBe(502);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });
});
