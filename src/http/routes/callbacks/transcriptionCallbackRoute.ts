import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../createServices.js';
import { shortMessage } from '../../../infrastructure/inference/inferenceRequests.js';
import { verifyWebhook } from '../../../infrastructure/inference/standardWebhooks.js';
import { checkedVerboseJson, VerboseJsonError } from '../../../pipeline/transcription/verboseJson.js';
import { ProcessingQueue } from '../../../processing/ProcessingQueue.js';
import { TranscriptionJobs } from '../../../processing/TranscriptionJobs.js';
import { ApiError } from '../../errors.js';
import { errorResponses } from '../../schemas/commonSchemas.js';

/** Largest callback body accepted, bytes: a 2-hour call's words in verbose_json are a few MB. */
export const callbackBodyLimitBytes = 32 * 1024 ** 2;

const CallbackAnswerSchema = Type.Object({ status: Type.Enum(['accepted', 'duplicate']) });

/**
 * `POST /api/callbacks/transcription`: the transcription provider's answer in callback mode
 * (`TRANSCRIPTION_PROVIDER=callback`). The one `/api` route without a user token or API key:
 * nothing is read before its Standard Webhooks signature is verified against the secret in
 * force now (`webhook-id`, `webhook-timestamp`, `webhook-signature`; see standardWebhooks.ts).
 *
 * Body: `{"job_id": "…", "transcription": <verbose_json>}` or `{"job_id": "…", "error": {"message": "…"}}`.
 * Answers: 202 accepted (the call goes on, or fails with the provider's message); 200 duplicate
 * (a replay of an accepted `webhook-id`: nothing changes); 401 `callback_signature_invalid`;
 * 400 `validation_failed` (signed but malformed); 404 `transcription_job_not_found`; 409
 * `transcription_job_not_waiting` (the call is no longer waiting for this job: answered, failed,
 * timed out, deleted, or reprocessed under another job); 413 over {@link callbackBodyLimitBytes}.
 */
export const transcriptionCallbackRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const database = services.database.sql;
  const queue = new ProcessingQueue(database, services.webhooks);
  const count = (outcome: string) => services.metrics.transcriptionCallbacks.inc({ outcome });

  // The signature covers the exact bytes: the body is kept raw, whatever its declared type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: callbackBodyLimitBytes }, (_request, body, done) => done(null, body));

  app.post('/transcription', {
    bodyLimit: callbackBodyLimitBytes,
    schema: {
      summary: 'The transcription provider\'s callback (callback mode), signed with Standard Webhooks',
      description: 'Headers `webhook-id`, `webhook-timestamp` (Unix seconds, within 5 minutes) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`, key = the base64 part of the `whsec_` secret; several space-separated signatures allowed). '
        + 'Body `{"job_id": "…", "transcription": <verbose_json>}` or `{"job_id": "…", "error": {"message": "…"}}`. No user token or API key. See docs/inference.md.',
      tags: ['callbacks'],
      response: { 200: CallbackAnswerSchema, 202: CallbackAnswerSchema, ...errorResponses(400, 401, 404, 409, 413) },
    },
  }, async (request, reply) => {
    const secret = await services.transcriptionWebhookSecret.current();
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const refusal = secret === undefined
      ? 'no_secret_configured'
      : verifyWebhook(secret, { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') }, rawBody, Math.floor(services.clock() / 1000));
    if (refusal) {
      count(refusal);
      // Why, for the provider's operator; never the body or the secret.
      request.log.warn({ refusal }, 'transcription callback refused');
      throw new ApiError('callback_signature_invalid', undefined, { reason: refusal });
    }
    const webhookId = header('webhook-id')!;
    const replayed = () => {
      count('duplicate');
      return reply.code(200).send({ status: 'duplicate' });
    };
    if (await services.transcriptionJobs.seen(webhookId)) return replayed();

    let payload: CallbackPayload;
    try {
      payload = parsePayload(rawBody);
    } catch (error) {
      count('malformed');
      throw error;
    }
    const job = await services.transcriptionJobs.find(payload.jobId);
    if (!job) {
      count('unknown_job');
      throw new ApiError('transcription_job_not_found');
    }
    if (job.state !== 'waiting' || !(await services.calls.existsEvenDeleting(job.callId))) {
      // The same callback sent at once: another copy may have ended the job between the replay
      // check above and this read. Its receipt is committed with the job's end, so it is seen now.
      if (await services.transcriptionJobs.seen(webhookId)) return replayed();
      count('not_waiting');
      throw new ApiError('transcription_job_not_waiting');
    }

    const now = services.clock();
    if (payload.kind === 'error') {
      const reason = `The transcription server could not transcribe the call: ${payload.message}`;
      const ended = await database.transaction(async (tx) => {
        const jobs = new TranscriptionJobs(tx);
        if (!(await jobs.end(job.jobId, 'failed', now, reason))) return (await jobs.seen(webhookId)) ? 'duplicate' : 'not_waiting';
        await jobs.remember(webhookId, job.jobId, now);
        return 'ended';
      });
      if (ended === 'duplicate') return replayed();
      if (ended === 'not_waiting') throw new ApiError('transcription_job_not_waiting');
      if (await queue.failWaiting(job.callId, reason, now)) {
        services.metrics.callsFinished.inc({ status: 'FAILED' });
        await services.callbackTranscription.forget(job.callId);
      }
      count('provider_error');
      request.log.info({ callId: job.callId }, 'transcription provider reported a failure');
      return reply.code(202).send({ status: 'accepted' });
    }

    // The transcript is written first, and put in place (where the resumed run reads it) only by the
    // transaction that accepts this callback: of two callbacks arriving at once, only the winner's counts.
    const staged = await services.callbackTranscription.stageTranscript(job.callId, payload.transcription);
    const resumed = await database.transaction(async (tx) => {
      const jobs = new TranscriptionJobs(tx);
      // The same callback sent twice at once (to any node): the second finds the first's receipt.
      if (!(await jobs.end(job.jobId, 'received', now))) return (await jobs.seen(webhookId)) ? 'duplicate' : 'not_waiting';
      services.callbackTranscription.commitTranscript(job.callId, staged);
      await jobs.remember(webhookId, job.jobId, now);
      // A call not marked as waiting yet (a provider faster than the run's end) is queued by the run itself.
      return new ProcessingQueue(tx).resumeAfterCallback(job.callId, now);
    });
    if (resumed === 'duplicate' || resumed === 'not_waiting') await services.callbackTranscription.discardTranscript(staged);
    if (resumed === 'duplicate') return replayed();
    if (resumed === 'not_waiting') throw new ApiError('transcription_job_not_waiting');
    if (resumed) services.queueSignal.notify();
    count('accepted');
    request.log.info({ callId: job.callId, resumed }, 'transcription callback accepted');
    return reply.code(202).send({ status: 'accepted' });
  });
};

type CallbackPayload = { kind: 'transcription'; jobId: string; transcription: string } | { kind: 'error'; jobId: string; message: string };

/** The signed body, checked: 400 `validation_failed` naming the field that is wrong. */
function parsePayload(rawBody: Buffer): CallbackPayload {
  const invalid = (path: string, message: string) => new ApiError('validation_failed', 'The callback\'s payload is not valid', { fields: [{ path, message }] });
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw invalid('body', 'is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'must be an object');
  const { job_id: jobId, transcription, error } = body as { job_id?: unknown; transcription?: unknown; error?: unknown };
  if (typeof jobId !== 'string' || jobId.length === 0 || jobId.length > 200) throw invalid('body/job_id', 'must be the job id sent with the audio');
  if (transcription !== undefined) {
    try {
      checkedVerboseJson(transcription);
    } catch (caught) {
      throw invalid('body/transcription', caught instanceof VerboseJsonError ? caught.message : 'is not a verbose_json transcription');
    }
    return { kind: 'transcription', jobId, transcription: JSON.stringify(transcription) };
  }
  if (typeof error === 'object' && error !== null) {
    // The provider's own words, shortened as other servers' messages are.
    const { message } = error as { message?: unknown };
    return { kind: 'error', jobId, message: (typeof message === 'string' ? shortMessage(message) : '') || 'no reason given' };
  }
  throw invalid('body', 'must hold either `transcription` or `error`');
}
