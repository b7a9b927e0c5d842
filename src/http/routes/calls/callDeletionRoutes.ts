import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../createServices.js';
import { deleteCall } from '../../../domain/calls/deleteCall.js';
import { auditActorOf } from '../../accessAudit.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError, ErrorCodes } from '../../errors.js';
import { BulkDeleteBodySchema, BulkDeleteResultSchema } from '../../schemas/callSchemas.js';
import { isUuid } from '../../../domain/ids.js';
import { heldCallIds } from '../../../domain/legalHolds/heldCalls.js';
import { errorResponses, IdParams } from '../../schemas/commonSchemas.js';

/** DELETE /api/calls/{id} and the bulk DELETE /api/calls. */
export const callDeletionRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.delete('/calls/:id', {
    schema: {
      summary: 'Delete a call and everything derived from it',
      description: 'Refused with 409 `call_in_progress` while the call is processed, and with 409 `legal_hold` while an admin\'s legal hold covers it (an extension of the specification).',
      params: IdParams,
      response: { 204: {}, ...errorResponses(400, 401, 404, 409, 429) },
    },
  }, async (request, reply) => {
    const deletion = await deleteCall(services, currentUser(request).id, request.params.id.toLowerCase(), auditActorOf(request));
    if (deletion.outcome === 'missing') throw new ApiError('call_not_found');
    if (deletion.outcome === 'in_progress') throw new ApiError('call_in_progress', 'The call is still being processed; delete it once it has completed or failed', { status: deletion.status });
    if (deletion.outcome === 'held') throw new ApiError('legal_hold', undefined, { callIds: [request.params.id.toLowerCase()] });
    return reply.code(204).send();
  });

  app.delete('/calls', {
    schema: {
      summary: 'Delete several calls; each id is handled on its own',
      description: 'Absent and foreign ids count as `missing`; in-flight calls, malformed ids and failures are listed in `failed` as `{callId, code, message}`. '
        + 'When a legal hold covers any of the caller\'s calls among them, nothing is deleted: 409 `legal_hold` with `details.callIds` (an extension of the specification, only once an admin placed a hold).',
      body: BulkDeleteBodySchema,
      response: { 200: BulkDeleteResultSchema, ...errorResponses(400, 401, 409, 429) },
    },
  }, async (request) => {
    const userId = currentUser(request).id;
    const callIds = [...new Set(request.body.callIds)];
    if (callIds.length > services.config.STATUS_MAX_IDS) {
      throw new ApiError('validation_failed', `At most ${services.config.STATUS_MAX_IDS} ids per request`, { fields: [{ path: 'body/callIds', message: `at most ${services.config.STATUS_MAX_IDS} ids` }] });
    }
    // All or nothing for holds: one held call refuses the whole request before anything is deleted. Only the caller's own calls are asked (a foreign id stays `missing`).
    const ownIds = (await services.calls.statusesOwned(userId, callIds.filter(isUuid).map((callId) => callId.toLowerCase()))).map((call) => call.id);
    const held = await heldCallIds(services.database.sql, ownIds);
    if (held.length > 0) throw new ApiError('legal_hold', undefined, { callIds: held });
    const result = { deleted: 0, missing: 0, failed: [] as { callId: string; code: string; message: string }[] };
    for (const callId of callIds) {
      if (!isUuid(callId)) {
        result.failed.push({ callId, code: 'validation_failed', message: 'Not a UUID' });
        continue;
      }
      try {
        const deletion = await deleteCall(services, userId, callId.toLowerCase(), auditActorOf(request));
        if (deletion.outcome === 'deleted') result.deleted += 1;
        else if (deletion.outcome === 'missing') result.missing += 1;
        // A hold placed since the check above.
        else if (deletion.outcome === 'held') result.failed.push({ callId, code: 'legal_hold', message: ErrorCodes.legal_hold.message });
        else result.failed.push({ callId, code: 'call_in_progress', message: ErrorCodes.call_in_progress.message });
      } catch (error) {
        request.log.error({ err: error, callId }, 'call deletion failed');
        result.failed.push({ callId, code: 'internal_error', message: 'Deletion failed; retry later' });
      }
    }
    return result;
  });
};
