import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { UserClient } from '../helpers/callInspection.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import {
  postVoiceSample, speakerSample, statusOf, toyModelFolder, userIdOf, voiceEnv, voiceProfileRow, voiceProfileRows,
} from '../http/users/voiceProfileHelpers.js';
import { completeSetup, errorCodeOf, type AdminBrowser } from './adminClient.js';

// The admin page's Voice profiles section: who has a profile (never the embedding), deleting them
// all, and what a change of SERVICE_VOICE_CONSENT_VERSION on the Settings page means for them.

interface AdminVoiceProfile {
  userId: string; displayName: string | null; email: string | null; provider: string; embeddingModel: string;
  consentVersion: string; consentCurrent: boolean; sampleDurationSeconds: number; createdAt: string; updatedAt: string;
}
interface AdminVoiceProfiles { enabled: boolean; consentVersion: string; profiles: AdminVoiceProfile[] }

let model: Awaited<ReturnType<typeof toyModelFolder>>;
let testApp: TestApp;
let browser: AdminBrowser;
beforeAll(async () => {
  model = await toyModelFolder();
  testApp = await startTestApp(voiceEnv(model.modelPath));
  browser = await completeSetup(testApp);
});
afterAll(async () => {
  await testApp?.close();
  model?.remove();
});

const listed = async (): Promise<AdminVoiceProfiles> => {
  const response = await browser.fetch('/admin/api/voice-profiles');
  expect(response.status).toBe(200);
  return (await response.json()) as AdminVoiceProfiles;
};
const deleteAll = (body?: unknown, headers?: Record<string, string>) => browser.fetch('/admin/api/voice-profiles/delete-all', { method: 'POST', body, ...(headers ? { headers } : {}) });
const setConsentVersion = async (version: string | null) => {
  expect((await browser.fetch('/admin/api/settings', { method: 'PATCH', body: { values: { SERVICE_VOICE_CONSENT_VERSION: version } } })).status).toBe(200);
};

async function enrol(client: UserClient): Promise<void> {
  const response = await postVoiceSample(client, speakerSample());
  expect(response.status, await response.clone().text()).toBe(201);
}

/** A user with a display name and a voice profile; the user's id. */
async function enrolledUser(name: string, displayName: string): Promise<string> {
  const client = testApp.as(name);
  expect((await client('/api/users/me', { method: 'PATCH', body: JSON.stringify({ displayName }), headers: { 'content-type': 'application/json' } })).status).toBe(200);
  await enrol(client);
  return userIdOf(client);
}

describe('the list', () => {
  test('needs the admin session', async () => {
    const response = await fetch(`${testApp.baseUrl}/admin/api/voice-profiles`);
    expect(response.status).toBe(401);
  });

  test('shows each user with a profile, its model, consent version and times, and no byte of the embedding', async () => {
    const aliceId = await enrolledUser('vp-alice', 'Alice Adams');
    const bobId = await enrolledUser('vp-bob', 'Bob Brown');
    await userIdOf(testApp.as('vp-carol')); // a user without a profile is not listed

    const body = await listed();
    expect(body.enabled).toBe(true);
    expect(body.consentVersion).toBe('1');
    expect(body.profiles.map((profile) => profile.userId).sort()).toEqual([aliceId, bobId].sort());
    const alice = body.profiles.find((profile) => profile.userId === aliceId)!;
    expect(alice).toEqual({
      userId: aliceId, displayName: 'Alice Adams', email: null, provider: 'callscope-local', embeddingModel: 'toy-embedding.onnx',
      consentVersion: '1', consentCurrent: true, sampleDurationSeconds: 8, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    // Most recently recorded first.
    expect(body.profiles[0]!.userId).toBe(bobId);

    // No field that could carry the vector, and none of its stored bytes in any encoding.
    const text = JSON.stringify(body);
    for (const profile of body.profiles) {
      expect(Object.keys(profile).filter((key) => /vector|encrypted|dimension|^embedding$/i.test(key))).toEqual([]);
      const sealed = (await voiceProfileRow(testApp, profile.userId))!.encrypted_embedding;
      for (const encoding of ['base64', 'base64url', 'hex'] as const) expect(text).not.toContain(sealed.toString(encoding).slice(0, 24));
    }
    expect(text).not.toMatch(/\[\s*-?\d+\.\d+\s*,/); // no array of floats
  });
});

describe('a new consent version', () => {
  test('outdates the stored profiles: the list says so, and the user\'s status GET carries requiredConsentVersion until the user records again', async () => {
    const dora = testApp.as('vp-dora');
    await enrol(dora);
    const doraId = await userIdOf(dora);
    expect(await statusOf(dora)).toEqual({ enabled: true, status: 'ACTIVE', provider: 'callscope-local', consentVersion: '1', createdAt: expect.any(String) });

    await setConsentVersion('2');
    try {
      const body = await listed();
      expect(body.consentVersion).toBe('2');
      expect(body.profiles.find((profile) => profile.userId === doraId)).toMatchObject({ consentVersion: '1', consentCurrent: false });
      // The profile still exists (the user can delete it), but the app learns it is not used.
      expect(await statusOf(dora)).toEqual({
        enabled: true, status: 'ACTIVE', provider: 'callscope-local', consentVersion: '1', createdAt: expect.any(String), requiredConsentVersion: '2',
      });

      // Recording again under the current consent stamps the new version.
      await enrol(dora);
      expect(await statusOf(dora)).toEqual({ enabled: true, status: 'ACTIVE', provider: 'callscope-local', consentVersion: '2', createdAt: expect.any(String) });
      expect((await listed()).profiles.find((profile) => profile.userId === doraId)).toMatchObject({ consentVersion: '2', consentCurrent: true });
    } finally {
      await setConsentVersion(null);
    }
    // Back to version 1: the re-recorded profile is the outdated one now.
    expect((await statusOf(dora))).toMatchObject({ consentVersion: '2', requiredConsentVersion: '1' });
  });
});

describe('delete all', () => {
  test('refuses without the confirmation word, with a wrong one, or without the CSRF token, and deletes nothing', async () => {
    const before = await voiceProfileRows(testApp);
    expect(before).toBeGreaterThan(0);

    for (const body of [undefined, {}, { confirm: 'delete' }, { confirm: 'yes' }, { confirm: 'DELETE', also: 1 }]) {
      const response = await deleteAll(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorCodeOf(response)).toBe('validation_failed');
    }
    const withoutCsrf = await fetch(`${testApp.baseUrl}/admin/api/voice-profiles/delete-all`, {
      method: 'POST', headers: { cookie: browser.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ confirm: 'DELETE' }),
    });
    expect(withoutCsrf.status).toBe(403);
    expect(await voiceProfileRows(testApp)).toBe(before);
  });

  test('removes every profile, answers the count, is audited, and each user\'s status GET then says MISSING', async () => {
    const users = ['vp-alice', 'vp-bob', 'vp-dora'].map((name) => testApp.as(name));
    const before = await voiceProfileRows(testApp);
    expect(before).toBe(3);

    const response = await deleteAll({ confirm: 'DELETE' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 3 });

    expect(await voiceProfileRows(testApp)).toBe(0);
    expect((await listed()).profiles).toEqual([]);
    for (const user of users) expect(await statusOf(user)).toEqual({ enabled: true, status: 'MISSING' });
    const [entry] = await testApp.services.admin.audit.newest(1);
    expect(entry).toMatchObject({ actor: 'admin', action: 'voice_profiles_delete_all', target: 'voice_profiles', detail: { deleted: 3 }, clientIp: '127.0.0.1' });

    // Nothing left: 0, not an error.
    expect(await (await deleteAll({ confirm: 'DELETE' })).json()).toEqual({ deleted: 0 });
  });
});

test('the page is served, framed, and linked in the top bar', async () => {
  const response = await fetch(`${testApp.baseUrl}/admin/voice-profiles`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('<script type="module" src="/admin/voice-profiles.js">');
  expect(html).toContain('href="/admin/voice-profiles"');
  expect(html).toContain('Delete all voice profiles');
  expect((await fetch(`${testApp.baseUrl}/admin/voice-profiles.js`)).status).toBe(200);
});

test('with voice profiles switched off, stored profiles are still listed (enabled: false) and can be deleted', async () => {
  const offApp = await startTestApp();
  try {
    const admin = await completeSetup(offApp);
    const userId = await userIdOf(offApp.as('vp-off'));
    await offApp.services.voiceProfiles.save(userId, {
      provider: 'callscope-local', consentVersion: '1', sampleDurationSeconds: 20, embedding: { vector: Float32Array.from([0.6, 0.8]), model: 'model.onnx' },
    }, Date.now());

    const body = (await (await admin.fetch('/admin/api/voice-profiles')).json()) as AdminVoiceProfiles;
    expect(body).toMatchObject({ enabled: false, profiles: [{ userId, consentCurrent: true, sampleDurationSeconds: 20, embeddingModel: 'model.onnx' }] });
    expect(await (await admin.fetch('/admin/api/voice-profiles/delete-all', { method: 'POST', body: { confirm: 'DELETE' } })).json()).toEqual({ deleted: 1 });
    expect(await voiceProfileRows(offApp)).toBe(0);
  } finally {
    await offApp.close();
  }
});
