import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { testLanguageModel, testTranscription, type InferenceTestResult } from '../inference/testInference.js';
import { InferenceTestResultSchema } from '../schemas/adminSchemas.js';

/** The Settings page's "Test" buttons for speech recognition and the language model. */
export const inferenceRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tested = (what: string) => async (request: Parameters<typeof recordAdminAction>[1], result: InferenceTestResult) => {
    await recordAdminAction(services, request, { actor: 'admin', action: 'inference_test', target: what, detail: { provider: result.provider, ok: result.ok, seconds: result.seconds } });
    return result;
  };

  app.post('/inference/transcription/test', {
    schema: {
      summary: 'Send one second of audio to speech recognition as calls use it now; the answer and the time taken',
      response: { 200: InferenceTestResultSchema, ...errorResponses(401, 403) },
    },
  }, async (request) => tested('transcription')(request, await testTranscription(services.config)));

  app.post('/inference/language-model/test', {
    schema: {
      summary: 'Ask the language model server one short question; the answer and the time taken',
      response: { 200: InferenceTestResultSchema, ...errorResponses(401, 403) },
    },
  }, async (request) => tested('language_model')(request, await testLanguageModel(services.config)));
};
