import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../createServices.js';
import { deleteCall } from '../../../domain/calls/deleteCall.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError, ErrorCodes } from '../../errors.js';
import { BulkDeleteBodySchema, BulkDeleteResultSchema } from '../../schemas/callSchemas.js';
import { isUuid } from '../../../domain/ids.js';
import { errorResponses, IdParams } from '../../schemas/commonSchemas.js';

/** DELETE /api/calls/{id} and the bulk DELETE /api/calls. */
export const callDeletionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.delete('/calls/:id', {
    schema: { summary: 'Delete a call and everything derived from it', params: IdParams, response: { 204: {}, ...errorResponses(400, 401, 404, 409, 429) } },
  }, async (request, reply) => {
    const deletion = await deleteCall(services, currentUser(request).id, request.params.id.toLowerCase());
    if (deletion.outcome === 'missing') throw new ApiError('call_not_found');
    if (deletion.outcome === 'in_progress') throw new ApiError('call_in_progress', 'The call is still being processed; delete it once it has completed or failed', { status: deletion.status });
    return reply.code(204).send();
  });

  app.delete('/calls', {
    schema: {
      summary: 'Delete several calls; each id is handled on its own',
      description: 'Absent and foreign ids count as `missing`; in-flight calls, malformed ids and failures are listed in `failed` as `{callId, code, message}`.',
      body: BulkDeleteBodySchema,
      response: { 200: BulkDeleteResultSchema, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const userId = currentUser(request).id;
    const callIds = [...new Set(request.body.callIds)];
    if (callIds.length > services.config.STATUS_MAX_IDS) {
      throw new ApiError('validation_failed', `At most ${services.config.STATUS_MAX_IDS} ids per request`, { fields: [{ path: 'body/callIds', message: `at most ${services.config.STATUS_MAX_IDS} ids` }] });
    }
    const result = { deleted: 0, missing: 0, failed: [] as { callId: string; code: string; message: string }[] };
    for (const callId of callIds) {
      if (!isUuid(callId)) {
        result.failed.push({ callId, code: 'validation_failed', message: 'Not a UUID' });
        continue;
      }
      try {
        const deletion = await deleteCall(services, userId, callId.toLowerCase());
        if (deletion.outcome === 'deleted') result.deleted += 1;
        else if (deletion.outcome === 'missing') result.missing += 1;
        else result.failed.push({ callId, code: 'call_in_progress', message: ErrorCodes.call_in_progress.message });
      } catch (error) {
        request.log.error({ err: error, callId }, 'call deletion failed');
        result.failed.push({ callId, code: 'internal_error', message: 'Deletion failed; retry later' });
      }
    }
    return result;
  });
};
