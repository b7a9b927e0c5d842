import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rm } from 'node:fs/promises';
import type { Services } from '../../../createServices.js';
import { acceptUpload } from '../../../domain/calls/acceptUpload.js';
import { maskPhoneNumber } from '../../../infrastructure/logging/maskPhoneNumber.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { idempotencyKeyOf, replayResponse, requestFingerprint } from '../../idempotency.js';
import { UploadAcceptedSchema } from '../../schemas/callSchemas.js';
import { errorResponses } from '../../schemas/commonSchemas.js';
import { audioFormats } from '../../uploads/detectAudioFormat.js';
import { receiveUpload } from '../../uploads/receiveUpload.js';
import { recogniseAudio } from '../../uploads/recogniseAudio.js';
import { describeUpload } from './uploadMetadata.js';

/** POST /api/calls/analyze: store a recording and queue it for processing. */
export const uploadCallRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post('/calls/analyze', {
    config: { idempotency: 'custom' },
    schema: {
      summary: 'Submit a call recording',
      description: 'multipart/form-data with parts `file` (audio), `metadata` (JSON envelope) or flat fields.',
      consumes: ['multipart/form-data'],
      response: { 202: UploadAcceptedSchema, ...errorResponses(400, 401, 409, 413, 415, 429, 507) },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const idempotencyKey = idempotencyKeyOf(request);
    const upload = await receiveUpload(request, {
      maxFileBytes: services.config.MAX_FILE_SIZE,
      tooLargeCode: 'payload_too_large',
      tempPath: services.store.newTempPath('.upload'),
    });
    try {
      const { metadata, fileName: flatFileName } = describeUpload(upload.fields);
      const fileName = flatFileName ?? upload.fileName;
      const format = await recogniseAudio(upload.tempPath, upload.sizeBytes, fileName, audioFormats);
      const outcome = await acceptUpload({ ...services, database: services.database.sql }, {
        userId: user.id,
        tempPath: upload.tempPath,
        sizeBytes: upload.sizeBytes,
        format,
        ...(fileName ? { fileName } : {}),
        metadata,
        ...(idempotencyKey ? { idempotency: { key: idempotencyKey, fingerprint: requestFingerprint(['upload', upload.sha256, metadata, fileName ?? null]) } } : {}),
      });
      if (outcome.kind === 'conflict') throw new ApiError('idempotency_key_conflict');
      if (outcome.kind === 'replay') {
        // The repeat's copy of the file goes before the answer does.
        await rm(upload.tempPath, { force: true });
        return replayResponse(reply, outcome.response);
      }
      request.log.info({
        callId: outcome.response.callId, format, sizeBytes: upload.sizeBytes,
        ...(metadata.phoneNumber ? { phoneNumber: maskPhoneNumber(metadata.phoneNumber) } : {}),
      }, 'call accepted');
      services.queueSignal.notify();
      return reply.code(202).send({ callId: outcome.response.callId, status: 'QUEUED' as const });
    } finally {
      await rm(upload.tempPath, { force: true });
    }
  });
};
