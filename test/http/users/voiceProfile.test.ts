import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, tempFiles } from '../../helpers/callInspection.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { speakerClips } from '../../pipeline/voice/toyVoiceModel.js';
import {
  deleteVoiceProfile, isoTimestamp, postVoiceSample, speakerSample, statusOf, toyModelFolder, transcode, uploadCounts, userIdOf,
  voiceEnv, voiceProfileRow, voiceProfileRows, voiceProfileStatusPath, type VoiceProfileCreated,
} from './voiceProfileHelpers.js';

let model: Awaited<ReturnType<typeof toyModelFolder>>;
beforeAll(async () => { model = await toyModelFolder(); });
afterAll(() => { model.remove(); });

describe('with voice profiles off (the default)', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp({ EMBEDDING_MODEL: model.modelPath }); });
  afterAll(async () => { await testApp?.close(); });

  test.each([
    ['POST with a sample and consent attached', (app: TestApp) => postVoiceSample(app.as('olivia'), speakerSample())],
    ['GET status', (app: TestApp) => app.as('olivia')(voiceProfileStatusPath)],
    ['DELETE', (app: TestApp) => deleteVoiceProfile(app.as('olivia'))],
  ])('%s answers 404 feature_not_available with details.enabled false', async (_case, send) => {
    const response = await send(testApp);

    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error).toEqual({ code: 'feature_not_available', message: expect.any(String), details: { enabled: false } });
    expect(error.message.length).toBeGreaterThan(0);
  });

  test('nothing is stored and no encryption key is created while the feature is off', async () => {
    expect((await postVoiceSample(testApp.as('oscar'), speakerSample())).status).toBe(404);

    expect(await voiceProfileRows(testApp)).toBe(0);
    expect(existsSync(join(testApp.dataDir, 'keys'))).toBe(false);
    expect(tempFiles(testApp.dataDir)).toEqual([]);
    expect(await uploadCounts(testApp)).toEqual({ created: 0, rejected: 0, provider_error: 0 });
  });
});

describe('with voice profiles on', () => {
  let testApp: TestApp;
  let mp3Sample: Buffer;
  let m4aSample: Buffer;
  beforeAll(async () => {
    testApp = await startTestApp(voiceEnv(model.modelPath, { SERVICE_VOICE_CONSENT_VERSION: '2024-06' }));
    [mp3Sample, m4aSample] = await Promise.all([
      transcode(speakerClips.speaker1a, join(model.folder, 'speaker1a.mp3')),
      transcode(speakerClips.speaker1a, join(model.folder, 'speaker1a.m4a'), ['-c:a', 'aac']),
    ]);
  });
  afterAll(async () => { await testApp?.close(); });

  async function created(response: Response): Promise<VoiceProfileCreated> {
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as VoiceProfileCreated;
  }

  describe('GET /api/users/me/voice-profile/status', () => {
    test('a user without a profile gets 200 {enabled: true, status: MISSING} and nothing else', async () => {
      const response = await testApp.as('mallory')(voiceProfileStatusPath);

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ enabled: true, status: 'MISSING' });
    });
  });

  describe('POST /api/users/me/voice-profile', () => {
    test('a WAV sample with consent creates the profile: 201 ACTIVE with provider, consent version, createdAt and whole-second duration only', async () => {
      const alice = testApp.as('alice');
      const countsBefore = await uploadCounts(testApp);
      const before = Date.now();

      const body = await created(await postVoiceSample(alice, speakerSample(), { fileName: 'sample.wav' }));
      const after = Date.now();

      expect(body).toEqual({ status: 'ACTIVE', provider: 'callscope-local', consentVersion: '2024-06', createdAt: expect.stringMatching(isoTimestamp), sampleDurationSeconds: 8 });
      const createdAt = Date.parse(body.createdAt);
      expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(createdAt).toBeLessThanOrEqual(after + 1000);
      expect(await voiceProfileRows(testApp, await userIdOf(alice))).toBe(1);
      expect(await uploadCounts(testApp)).toEqual({ ...countsBefore, created: countsBefore.created + 1 });
      expect(tempFiles(testApp.dataDir)).toEqual([]);
    });

    test('afterwards the status is 200 ACTIVE with the same provider, consent version and createdAt (no duration, no embedding)', async () => {
      const bea = testApp.as('bea');
      const body = await created(await postVoiceSample(bea, speakerSample()));

      expect(await statusOf(bea)).toEqual({ enabled: true, status: 'ACTIVE', provider: 'callscope-local', consentVersion: '2024-06', createdAt: body.createdAt });
    });

    test.each([
      ['an MP3', 'sample.mp3', () => mp3Sample],
      ['an M4A (AAC)', 'sample.m4a', () => m4aSample],
    ])('%s sample transcoded from the same recording is accepted too', async (_format, fileName, sample) => {
      const user = testApp.as(`transcoded-${fileName}`);

      const body = await created(await postVoiceSample(user, sample(), { fileName }));

      expect(body).toEqual({ status: 'ACTIVE', provider: 'callscope-local', consentVersion: '2024-06', createdAt: expect.stringMatching(isoTimestamp), sampleDurationSeconds: 8 });
      expect((await statusOf(user)).status).toBe('ACTIVE');
      expect(tempFiles(testApp.dataDir)).toEqual([]);
    });

    test('a re-upload replaces the profile: new createdAt and embedding, still one profile', async () => {
      const carol = testApp.as('carol');
      const carolId = await userIdOf(carol);
      const first = await created(await postVoiceSample(carol, speakerSample()));
      const firstEmbedding = (await testApp.services.voiceProfiles.embeddingOf(carolId))!.vector;
      await new Promise((resolve) => setTimeout(resolve, 5));

      const second = await created(await postVoiceSample(carol, speakerSample(), { fileName: 'again.wav' }));
      const third = await created(await postVoiceSample(carol, readFileSync(speakerClips.speaker2a)));

      expect(Date.parse(second.createdAt)).toBeGreaterThan(Date.parse(first.createdAt));
      expect(Date.parse(third.createdAt)).toBeGreaterThan(Date.parse(second.createdAt));
      expect(await voiceProfileRows(testApp, carolId)).toBe(1);
      expect((await voiceProfileRow(testApp, carolId))!.created_at).toBe(Date.parse(third.createdAt));
      expect(await statusOf(carol)).toMatchObject({ status: 'ACTIVE', createdAt: third.createdAt });
      // speaker2a is another voice: the stored embedding is the new sample's.
      expect(Array.from((await testApp.services.voiceProfiles.embeddingOf(carolId))!.vector)).not.toEqual(Array.from(firstEmbedding));
    });
  });

  describe('DELETE /api/users/me/voice-profile', () => {
    test('removes the profile: 204 with an empty body, then the status is MISSING and the row is gone', async () => {
      const dora = testApp.as('dora');
      const doraId = await userIdOf(dora);
      await created(await postVoiceSample(dora, speakerSample()));

      const response = await deleteVoiceProfile(dora);

      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(await statusOf(dora)).toEqual({ enabled: true, status: 'MISSING' });
      expect(await voiceProfileRows(testApp, doraId)).toBe(0);
      expect(await testApp.services.voiceProfiles.embeddingOf(doraId)).toBeUndefined();
    });

    test('is idempotent: 204 when no profile exists, and again after a deletion', async () => {
      const ed = testApp.as('ed');
      expect((await deleteVoiceProfile(ed)).status).toBe(204);
      await created(await postVoiceSample(ed, speakerSample()));
      expect((await deleteVoiceProfile(ed)).status).toBe(204);

      const again = await deleteVoiceProfile(ed);

      expect(again.status).toBe(204);
      expect(await statusOf(ed)).toEqual({ enabled: true, status: 'MISSING' });
    });

    test('a new sample after a deletion creates a fresh profile', async () => {
      const fay = testApp.as('fay');
      const first = await created(await postVoiceSample(fay, speakerSample()));
      expect((await deleteVoiceProfile(fay)).status).toBe(204);

      const second = await created(await postVoiceSample(fay, speakerSample()));

      expect(Date.parse(second.createdAt)).toBeGreaterThan(Date.parse(first.createdAt));
      expect(await statusOf(fay)).toMatchObject({ status: 'ACTIVE', createdAt: second.createdAt });
    });
  });

  describe('isolation between users', () => {
    test('a user only ever sees and removes their own profile', async () => {
      const ann = testApp.as('iso-ann');
      const ben = testApp.as('iso-ben');
      const [annId, benId] = [await userIdOf(ann), await userIdOf(ben)];
      const annProfile = await created(await postVoiceSample(ann, speakerSample()));

      expect(await statusOf(ben)).toEqual({ enabled: true, status: 'MISSING' });
      expect((await deleteVoiceProfile(ben)).status).toBe(204);
      expect(await statusOf(ann)).toMatchObject({ status: 'ACTIVE', createdAt: annProfile.createdAt });
      expect(await voiceProfileRows(testApp, annId)).toBe(1);

      const benProfile = await created(await postVoiceSample(ben, speakerSample()));
      expect(await statusOf(ann)).toMatchObject({ status: 'ACTIVE', createdAt: annProfile.createdAt });
      expect((await deleteVoiceProfile(ann)).status).toBe(204);

      expect(await statusOf(ann)).toEqual({ enabled: true, status: 'MISSING' });
      expect(await statusOf(ben)).toMatchObject({ status: 'ACTIVE', createdAt: benProfile.createdAt });
      expect(await voiceProfileRows(testApp, benId)).toBe(1);
    });
  });

  describe('DELETE /api/users/me', () => {
    test('removes the user\'s voice profile row with the account, and only theirs', async () => {
      const gus = testApp.as('gus');
      const hal = testApp.as('hal');
      const gusId = await userIdOf(gus);
      await created(await postVoiceSample(gus, speakerSample()));
      await created(await postVoiceSample(hal, speakerSample()));
      const total = () => voiceProfileRows(testApp);
      const before = await total();

      const response = await gus('/api/users/me', { method: 'DELETE' });

      expect(response.status).toBe(204);
      expect(await total()).toBe(before - 1);
      expect(await voiceProfileRows(testApp, gusId)).toBe(0);
      expect((await statusOf(hal)).status).toBe('ACTIVE');
      // The same identity comes back as a new user, without a profile.
      expect(await statusOf(gus)).toEqual({ enabled: true, status: 'MISSING' });
    });
  });

  describe('Idempotency-Key', () => {
    test('the same key with the same file and consent replays the identical 201 without creating the profile anew', async () => {
      const ivy = testApp.as('ivy');
      const ivyId = await userIdOf(ivy);
      const key = randomUUID();
      const first = await postVoiceSample(ivy, speakerSample(), { headers: { 'idempotency-key': key } });
      const firstBody = await first.text();
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const rowAfterFirst = (await voiceProfileRow(testApp, ivyId))!;
      const countsAfterFirst = await uploadCounts(testApp);

      const repeat = await postVoiceSample(ivy, speakerSample(), { headers: { 'idempotency-key': key } });

      expect(repeat.status).toBe(201);
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      const repeatBody = JSON.parse(await repeat.text()) as VoiceProfileCreated;
      expect(repeatBody).toEqual(JSON.parse(firstBody));
      expect(await voiceProfileRows(testApp, ivyId)).toBe(1);
      expect(await voiceProfileRow(testApp, ivyId)).toEqual(rowAfterFirst);
      expect(await uploadCounts(testApp)).toEqual(countsAfterFirst);
      // The repeat's copy of the sample is gone before the replay is answered.
      expect(tempFiles(testApp.dataDir)).toEqual([]);
    });

    test('the same key with a different file is refused with 409 idempotency_key_conflict and the profile is unchanged', async () => {
      const jon = testApp.as('jon');
      const jonId = await userIdOf(jon);
      const key = randomUUID();
      expect((await postVoiceSample(jon, speakerSample(), { headers: { 'idempotency-key': key } })).status).toBe(201);
      const rowAfterFirst = (await voiceProfileRow(testApp, jonId))!;

      const conflict = await postVoiceSample(jon, mp3Sample, { fileName: 'sample.mp3', headers: { 'idempotency-key': key } });

      expect(conflict.status).toBe(409);
      expect((await errorOf(conflict)).code).toBe('idempotency_key_conflict');
      expect(await voiceProfileRow(testApp, jonId)).toEqual(rowAfterFirst);
      expect(tempFiles(testApp.dataDir)).toEqual([]);
    });

    test('the same key and file without the consent part is a conflict too', async () => {
      const kim = testApp.as('kim');
      const key = randomUUID();
      expect((await postVoiceSample(kim, speakerSample(), { headers: { 'idempotency-key': key } })).status).toBe(201);

      const conflict = await postVoiceSample(kim, speakerSample(), { consentAccepted: null, headers: { 'idempotency-key': key } });

      expect(conflict.status).toBe(409);
      expect((await errorOf(conflict)).code).toBe('idempotency_key_conflict');
    });

    test('keys are per user: another user with the same key and file gets a profile of their own', async () => {
      const key = randomUUID();
      const lea = testApp.as('lea');
      const max = testApp.as('max');
      await created(await postVoiceSample(lea, speakerSample(), { headers: { 'idempotency-key': key } }));

      const other = await postVoiceSample(max, speakerSample(), { headers: { 'idempotency-key': key } });

      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect(await voiceProfileRows(testApp, await userIdOf(max))).toBe(1);
    });
  });

});
