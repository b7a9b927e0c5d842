import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import type { VoiceProfileListing } from '../../domain/voiceProfiles/VoiceProfileRepository.js';
import { isConsentCurrent } from '../../domain/voiceProfiles/voiceConsent.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { AdminVoiceProfilesSchema, DeleteAllVoiceProfilesSchema, DeletedVoiceProfilesSchema } from '../schemas/voiceProfileSchemas.js';

/**
 * The Voice profiles page: which users have a profile (never the embedding), whether it was
 * recorded under the current consent version, and deleting them all. Works whether or not the
 * feature is on, so profiles can be removed after switching it off.
 */
export const voiceProfileAdminRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/voice-profiles', {
    schema: {
      summary: 'Users with a voice profile: who, which model, which consent version and whether it is current (never the embedding)',
      response: { 200: AdminVoiceProfilesSchema, ...errorResponses(401) },
    },
  }, async () => {
    const required = services.config.SERVICE_VOICE_CONSENT_VERSION;
    const profiles = await services.voiceProfiles.listAll();
    return { enabled: services.config.SERVICE_VOICE_EMBEDDING_ENABLED, consentVersion: required, profiles: profiles.map((profile) => toProfileView(profile, required)) };
  });

  app.post('/voice-profiles/delete-all', {
    schema: {
      summary: 'Delete every user\'s voice profile; the body must be `{"confirm": "DELETE"}`',
      description: 'Irreversible. Later calls are resolved from the transcript alone until users record again.',
      body: DeleteAllVoiceProfilesSchema,
      response: { 200: DeletedVoiceProfilesSchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const deleted = await services.voiceProfiles.removeAll();
    await recordAdminAction(services, request, { actor: 'admin', action: 'voice_profiles_delete_all', target: 'voice_profiles', detail: { deleted } });
    return { deleted };
  });
};

/** The listing as the API shows it: the stored fields by name, so no embedding column can slip in. */
function toProfileView(profile: VoiceProfileListing, requiredConsentVersion: string) {
  return {
    userId: profile.userId,
    displayName: profile.displayName,
    email: profile.email,
    provider: profile.provider,
    embeddingModel: profile.embeddingModel,
    consentVersion: profile.consentVersion,
    consentCurrent: isConsentCurrent(profile.consentVersion, requiredConsentVersion),
    sampleDurationSeconds: profile.sampleDurationSeconds,
    createdAt: toIsoTimestamp(profile.createdAt),
    updatedAt: toIsoTimestamp(profile.updatedAt),
  };
}
