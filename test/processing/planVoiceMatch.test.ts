import { expect, test } from 'vitest';
import { planVoiceMatch } from '../../src/processing/productionPipeline.js';

const profile = { vector: Float32Array.from([0.6, 0.8]), model: 'embedding.onnx' };
// Async, as the repository reads the database: a failure to decrypt arrives as a rejection.
const repository = (embeddingOf: () => typeof profile | undefined) => ({ embeddingOf: async () => embeddingOf() });

test('voice profiles off: DISABLED, and the profile is not even read', async () => {
  let read = false;
  expect(await planVoiceMatch({ SERVICE_VOICE_EMBEDDING_ENABLED: false }, { voiceProfiles: repository(() => { read = true; return profile; }) }, 'u')).toEqual({ status: 'DISABLED' });
  expect(read).toBe(false);
});

test('on, without a profile: NO_PROFILE; with one: READY with the decrypted embedding', async () => {
  expect(await planVoiceMatch({ SERVICE_VOICE_EMBEDDING_ENABLED: true }, { voiceProfiles: repository(() => undefined) }, 'u')).toEqual({ status: 'NO_PROFILE' });
  expect(await planVoiceMatch({ SERVICE_VOICE_EMBEDDING_ENABLED: true }, { voiceProfiles: repository(() => profile) }, 'u')).toEqual({ status: 'READY', profile });
});

test('a profile that cannot be decrypted (lost or changed key) fails softly with a warning', async () => {
  const plan = await planVoiceMatch({ SERVICE_VOICE_EMBEDDING_ENABLED: true }, { voiceProfiles: repository(() => { throw new Error('unsupported state or unable to authenticate data'); }) }, 'u');
  expect(plan).toEqual({ status: 'FAILED', warning: expect.stringContaining('could not be read') });
});
