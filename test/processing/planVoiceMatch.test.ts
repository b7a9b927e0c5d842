import { expect, test } from 'vitest';
import { outdatedConsentWarning } from '../../src/domain/voiceProfiles/voiceConsent.js';
import { planVoiceMatch } from '../../src/processing/productionPipeline.js';

const profile = { vector: Float32Array.from([0.6, 0.8]), model: 'embedding.onnx' };
const summary = (consentVersion: string) => ({ provider: 'callscope-local', consentVersion, sampleDurationSeconds: 8, createdAt: 0 });
const on = { SERVICE_VOICE_EMBEDDING_ENABLED: true, SERVICE_VOICE_CONSENT_VERSION: '2' };
// Async, as the repository reads the database: a failure to decrypt arrives as a rejection.
// `consentVersion` is the version stamped on the stored profile; undefined: no profile.
const repository = (embeddingOf: () => typeof profile | undefined, consentVersion: string | undefined = '2') => ({
  find: async () => (consentVersion === undefined ? undefined : summary(consentVersion)),
  embeddingOf: async () => embeddingOf(),
});

test('voice profiles off: DISABLED, and the profile is not even read', async () => {
  let read = false;
  expect(await planVoiceMatch({ ...on, SERVICE_VOICE_EMBEDDING_ENABLED: false }, { voiceProfiles: repository(() => { read = true; return profile; }) }, 'u')).toEqual({ status: 'DISABLED' });
  expect(read).toBe(false);
});

test('on, without a profile: NO_PROFILE; with one: READY with the decrypted embedding', async () => {
  expect(await planVoiceMatch(on, { voiceProfiles: repository(() => undefined, undefined) }, 'u')).toEqual({ status: 'NO_PROFILE' });
  expect(await planVoiceMatch(on, { voiceProfiles: repository(() => profile) }, 'u')).toEqual({ status: 'READY', profile });
});

test('a profile stamped with another consent version is not used: NO_PROFILE with a warning, and it is not decrypted', async () => {
  let read = false;
  const stale = repository(() => { read = true; return profile; }, '1');
  expect(await planVoiceMatch(on, { voiceProfiles: stale }, 'u')).toEqual({ status: 'NO_PROFILE', warning: outdatedConsentWarning });
  expect(read).toBe(false);
  // Versions are labels, not numbers: going "back" to another version outdates it as well.
  expect(await planVoiceMatch({ ...on, SERVICE_VOICE_CONSENT_VERSION: '0' }, { voiceProfiles: repository(() => profile) }, 'u')).toMatchObject({ status: 'NO_PROFILE' });
  // Matching resumes once the versions agree again (a new recording, or the setting set back).
  expect(await planVoiceMatch({ ...on, SERVICE_VOICE_CONSENT_VERSION: '1' }, { voiceProfiles: stale }, 'u')).toEqual({ status: 'READY', profile });
});

test('a profile that cannot be decrypted (lost or changed key) fails softly with a warning', async () => {
  const plan = await planVoiceMatch(on, { voiceProfiles: repository(() => { throw new Error('unsupported state or unable to authenticate data'); }) }, 'u');
  expect(plan).toEqual({ status: 'FAILED', warning: expect.stringContaining('could not be read') });
});
