import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../createServices.js';
import type { SpeakerCorrection } from '../../../domain/speakerCorrections/applySpeakerCorrection.js';
import { correctCallSpeakers } from '../../../domain/speakerCorrections/correctCallSpeakers.js';
import { TranscriptSchema, type Transcript } from '../../../domain/transcripts/transcriptSchema.js';
import type { FastifyRequest } from 'fastify';
import { recordCallAccess } from '../../accessAudit.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { errorResponses, IdParams } from '../../schemas/commonSchemas.js';
import { SpeakerMergeSchema, SpeakerParams, SpeakerPatchSchema } from '../../schemas/speakerSchemas.js';

const correctionRules = 'The call\'s owner only (404 otherwise); completed calls only (409 `call_not_correctable` otherwise). '
  + 'Names and roles follow at once in the transcript, the analysis and the action items\' owners, without running speech recognition again; '
  + 'a later reprocess applies the call\'s corrections again, in order (one whose speakers the new run does not have is skipped). Answers the corrected transcript.';

/** Speaker correction: PATCH /calls/{id}/speakers/{speakerId} and POST /calls/{id}/speakers/merge. */
export const speakerCorrectionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const correct = async (request: FastifyRequest, callId: string, correction: SpeakerCorrection): Promise<Transcript> => {
    const result = await correctCallSpeakers({ database: services.database.sql, store: services.store, clock: services.clock }, currentUser(request).id, callId.toLowerCase(), correction);
    switch (result.outcome) {
      case 'corrected':
        // Which speakers and which fields, never the names given.
        recordCallAccess(services.accessAudit, request, correction.kind === 'merge' ? 'speaker.merge' : 'speaker.correct', callId.toLowerCase(), correction.kind === 'merge'
          ? { speakerId: correction.speakerId, intoSpeakerId: correction.intoSpeakerId }
          : { speakerId: correction.speakerId, displayName: correction.displayName !== undefined, role: correction.role ?? null });
        return result.transcript;
      case 'call_not_found': throw new ApiError('call_not_found');
      case 'not_completed': throw new ApiError('call_not_correctable', undefined, { status: result.status });
      case 'speaker_not_found': throw new ApiError('speaker_not_found');
      case 'same_speaker': throw new ApiError('validation_failed', 'from and into must be different speakers', { fields: [{ path: 'body/into', message: 'same as from' }] });
    }
  };

  app.patch('/calls/:id/speakers/:speakerId', {
    schema: {
      summary: 'Correct a speaker\'s name and/or role (labelSource MANUAL, confidence HIGH)',
      description: correctionRules,
      params: SpeakerParams,
      body: SpeakerPatchSchema,
      response: { 200: TranscriptSchema, ...errorResponses(400, 401, 404, 409, 429) },
    },
  }, async (request) => correct(request, request.params.id, {
    kind: 'label',
    speakerId: request.params.speakerId,
    ...(request.body.displayName !== undefined ? { displayName: request.body.displayName.trim() } : {}),
    ...(request.body.role !== undefined ? { role: request.body.role } : {}),
  }));

  app.post('/calls/:id/speakers/merge', {
    schema: {
      summary: 'Merge one speaker into another (diarization split one person in two)',
      description: `Every segment of \`from\` becomes \`into\`'s and \`from\` is removed; segment ids stay. ${correctionRules}`,
      params: IdParams,
      body: SpeakerMergeSchema,
      response: { 200: TranscriptSchema, ...errorResponses(400, 401, 404, 409, 429) },
    },
  }, async (request) => correct(request, request.params.id, { kind: 'merge', speakerId: request.body.from, intoSpeakerId: request.body.into }));
};
