import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mkdir, rm } from 'node:fs/promises';
import type { Services } from '../../../createServices.js';
import { voiceProfileProvider, type VoiceProfileSummary } from '../../../domain/voiceProfiles/VoiceProfileRepository.js';
import { isConsentCurrent } from '../../../domain/voiceProfiles/voiceConsent.js';
import { toIsoTimestamp } from '../../../infrastructure/clock.js';
import { inProcessStageContext } from '../../../infrastructure/workers/inProcessStageContext.js';
import { embedVoiceSample, VoiceSampleRejected, type SampleEmbedding } from '../../../pipeline/voice/embedVoiceSample.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError, type ErrorCode } from '../../errors.js';
import { claimIdempotencyKey, idempotencyDependenciesOf, replayResponse, requestFingerprint } from '../../idempotency.js';
import { errorResponses } from '../../schemas/commonSchemas.js';
import { VoiceProfileCreatedSchema, VoiceProfileStatusSchema } from '../../schemas/userSchemas.js';
import type { AudioFormat } from '../../uploads/detectAudioFormat.js';
import { receiveUpload, type ReceivedUpload } from '../../uploads/receiveUpload.js';
import { recogniseAudio } from '../../uploads/recogniseAudio.js';

/** The sample formats the specification names. */
const voiceSampleFormats: readonly AudioFormat[] = ['wav', 'mp3', 'm4a'];

const rejectionCodes: Record<VoiceSampleRejected['kind'], ErrorCode> = {
  too_short: 'voice_sample_too_short',
  too_long: 'voice_sample_too_long',
  not_audio: 'unsupported_media_type',
  provider: 'voice_provider_error',
};

/**
 * The caller's voice profile: create or replace from a sample, read its status, remove it.
 * All three answer 404 `feature_not_available` (with `details.enabled: false`) while
 * `SERVICE_VOICE_EMBEDDING_ENABLED` is off.
 */
export const voiceProfileRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { config } = services;
  app.addHook('preHandler', async () => {
    if (!config.SERVICE_VOICE_EMBEDDING_ENABLED) throw new ApiError('feature_not_available', 'Voice profiles are not enabled on this server', { enabled: false });
  });

  app.post('/users/me/voice-profile', {
    config: { idempotency: 'custom' },
    schema: {
      summary: 'Create or replace the caller\'s voice profile from a voice sample',
      description: 'multipart/form-data with parts `file` (WAV, MP3 or M4A) and `consentAccepted` (`true`). The sample is deleted as soon as its embedding exists; the embedding is stored encrypted and never returned.',
      consumes: ['multipart/form-data'],
      response: { 201: VoiceProfileCreatedSchema, ...errorResponses(400, 401, 404, 409, 413, 415, 429, 502, 507) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const workDir = services.store.newTempPath('.voice-work');
    let upload: ReceivedUpload | undefined;
    // The sample and its decoded copy are removed before any answer leaves.
    const removeSample = () => Promise.all([
      upload ? rm(upload.tempPath, { force: true }) : undefined,
      rm(workDir, { recursive: true, force: true }),
    ]);
    try {
      upload = await receiveUpload(request, {
        maxFileBytes: Math.floor(config.SERVICE_VOICE_SAMPLE_MAX_SIZE_MB * 1024 * 1024),
        tooLargeCode: 'voice_sample_too_large',
        tempPath: services.store.newTempPath('.voice-sample'),
      });
      const consentAccepted = upload.fields.consentAccepted;
      const claim = await claimIdempotencyKey(idempotencyDependenciesOf(services), request, requestFingerprint(['voice-profile', upload.sha256, consentAccepted ?? null]));
      if (claim.outcome === 'replay') {
        await removeSample();
        return replayResponse(reply, claim.response);
      }
      if (consentAccepted !== 'true') {
        throw new ApiError('validation_failed', 'The user must accept the voice-profile consent first', {
          fields: [{ path: 'consentAccepted', message: 'must be true' }],
        });
      }
      await recogniseAudio(upload.tempPath, upload.sizeBytes, upload.fileName, voiceSampleFormats);
      await mkdir(workDir);
      const embedding = await embedSample(services, upload.tempPath, workDir);
      await removeSample();
      const profile = await services.voiceProfiles.save(user.id, {
        provider: voiceProfileProvider,
        consentVersion: config.SERVICE_VOICE_CONSENT_VERSION,
        sampleDurationSeconds: Math.round(embedding.durationSeconds),
        embedding: { vector: embedding.vector, model: embedding.model },
      }, services.clock());
      services.metrics.voiceProfileUploads.inc({ outcome: 'created' });
      request.log.info({ sampleSeconds: embedding.durationSeconds, speechSeconds: embedding.speechSeconds }, 'voice profile saved');
      return reply.code(201).send({ status: 'ACTIVE' as const, ...presentProfile(profile), sampleDurationSeconds: profile.sampleDurationSeconds });
    } catch (error) {
      await removeSample();
      if (error instanceof ApiError && error.code !== 'idempotency_key_conflict' && error.code !== 'idempotency_key_in_progress') {
        services.metrics.voiceProfileUploads.inc({ outcome: error.code === 'voice_provider_error' ? 'provider_error' : 'rejected' });
      }
      throw error;
    }
  });

  app.get('/users/me/voice-profile/status', {
    schema: {
      summary: 'Whether the caller has a voice profile',
      description: '`enabled` is always true here: with voice profiles off the answer is 404 `feature_not_available` with `details.enabled: false`. An ACTIVE answer that carries `requiredConsentVersion` is a profile recorded under an earlier consent version: it is not used for matching until the user accepts the current consent and records again.',
      response: { 200: VoiceProfileStatusSchema, ...errorResponses(401, 404, 429) },
    },
  }, async (request) => {
    const profile = await services.voiceProfiles.find(currentUser(request).id);
    if (!profile) return { enabled: true as const, status: 'MISSING' as const };
    // An outdated profile still exists (and can be deleted), so it stays ACTIVE; the extra field says it is not used.
    const required = config.SERVICE_VOICE_CONSENT_VERSION;
    const outdated = isConsentCurrent(profile.consentVersion, required) ? {} : { requiredConsentVersion: required };
    return { enabled: true as const, status: 'ACTIVE' as const, ...presentProfile(profile), ...outdated };
  });

  app.delete('/users/me/voice-profile', {
    schema: {
      summary: 'Remove the caller\'s voice profile (204 also when there is none)',
      response: { 204: {}, ...errorResponses(401, 404, 429) },
    },
  }, async (request, reply) => {
    const removed = await services.voiceProfiles.remove(currentUser(request).id);
    request.log.info({ removed }, 'voice profile deleted');
    return reply.code(204).send();
  });
};

function presentProfile(profile: VoiceProfileSummary) {
  return { provider: profile.provider, consentVersion: profile.consentVersion, createdAt: toIsoTimestamp(profile.createdAt) };
}

/** The sample's embedding, its refusals as the specification's error codes. */
async function embedSample(services: Services, samplePath: string, workDir: string): Promise<SampleEmbedding> {
  const { config } = services;
  try {
    return await embedVoiceSample({
      samplePath,
      workDir,
      embeddingModel: config.EMBEDDING_MODEL,
      limits: { minSeconds: config.SERVICE_VOICE_SAMPLE_MIN_SECONDS, maxSeconds: config.SERVICE_VOICE_SAMPLE_MAX_SECONDS },
    }, inProcessStageContext());
  } catch (error) {
    if (error instanceof VoiceSampleRejected) throw new ApiError(rejectionCodes[error.kind], error.message, error.details);
    throw error;
  }
}
