import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { effectiveConcurrency } from '../../../config/effectiveConcurrency.js';
import type { Services } from '../../../createServices.js';
import type { ArtifactKind } from '../../../domain/artifacts/ArtifactRepository.js';
import { readCallDocument } from '../../../domain/artifacts/readCallDocument.js';
import { callStatuses, type CallRecord, type CallStatus } from '../../../domain/calls/callTypes.js';
import { estimateNextPollMs } from '../../../domain/calls/estimateNextPollMs.js';
import { recordCallAccess } from '../../accessAudit.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { StoredAnalysisSchema } from '../../schemas/analysisSchema.js';
import {
  CallDetailSchema, CallListQuerySchema, CallListSchema, CallStatusListSchema, CallStatusQuerySchema,
} from '../../schemas/callSchemas.js';
import { isUuid } from '../../../domain/ids.js';
import { errorResponses, IdParams } from '../../schemas/commonSchemas.js';
import { TranscriptSchema } from '../../../domain/transcripts/transcriptSchema.js';
import { toCallDetail, toCallListItem } from './callPresenters.js';

/** The read side of calls: list, bulk status, detail, transcript and analysis. */
export const callQueryRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { calls, cursor, config } = services;

  app.get('/calls', {
    schema: {
      summary: 'List calls, newest first',
      querystring: CallListQuerySchema,
      response: { 200: CallListSchema, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const limit = request.query.limit ?? 50;
    // Canonical form (known order, no repeats), so `FAILED,COMPLETED` and `COMPLETED,FAILED` page alike.
    const statusFilter = request.query.status ? callStatuses.filter((status) => request.query.status!.split(',').includes(status)).join(',') : '';
    let beforeSeq: number | undefined;
    if (request.query.cursor !== undefined) {
      const position = cursor.decode(user.id, request.query.cursor);
      if (!position || position.statusFilter !== statusFilter) throw new ApiError('invalid_cursor');
      beforeSeq = position.beforeSeq;
    }
    const statuses = statusFilter ? (statusFilter.split(',') as CallStatus[]) : undefined;
    // One extra row tells whether another page exists without a count query.
    const rows = await calls.page({ userId: user.id, ...(statuses ? { statuses } : {}), ...(beforeSeq !== undefined ? { beforeSeq } : {}), limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(toCallListItem),
      ...(rows.length > limit && last ? { nextCursor: cursor.encode(user.id, { beforeSeq: last.seq, statusFilter }) } : {}),
    };
  });

  app.get('/calls/status', {
    schema: {
      summary: 'Status of several calls at once',
      description: `Up to STATUS_MAX_IDS (default 100) comma-separated ids; unknown or foreign ids are omitted.`,
      querystring: CallStatusQuerySchema,
      response: { 200: CallStatusListSchema, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const ids = [...new Set(request.query.ids.split(',').map((id) => id.trim().toLowerCase()).filter((id) => id.length > 0))];
    if (ids.length === 0) throw new ApiError('validation_failed', 'ids must list at least one call id', { fields: [{ path: 'querystring/ids', message: 'empty' }] });
    if (ids.length > config.STATUS_MAX_IDS) {
      throw new ApiError('validation_failed', `At most ${config.STATUS_MAX_IDS} ids per request`, { fields: [{ path: 'querystring/ids', message: `at most ${config.STATUS_MAX_IDS} ids` }] });
    }
    const malformed = ids.filter((id) => !isUuid(id));
    if (malformed.length > 0) {
      throw new ApiError('validation_failed', 'ids must be UUIDs', { fields: [{ path: 'querystring/ids', message: `${malformed.length} id(s) are not UUIDs` }] });
    }
    const rows = await calls.statusesOwned(user.id, ids);
    const now = services.clock();
    // Only the queued call nearest the front can change first; one count query is enough.
    const firstQueued = rows.filter((row) => row.status === 'QUEUED')
      .sort((a, b) => (a.queuedAt ?? 0) - (b.queuedAt ?? 0) || a.seq - b.seq)[0];
    const inFlightOrQueued = rows.filter((row) => row.status !== 'COMPLETED' && row.status !== 'FAILED' && (row.status !== 'QUEUED' || row === firstQueued));
    const queuedAhead = firstQueued ? await calls.queuedBefore({ queuedAt: firstQueued.queuedAt ?? 0, seq: firstQueued.seq }) : 0;
    const nextPollMs = inFlightOrQueued.length > 0
      ? estimateNextPollMs(
        inFlightOrQueued.map((row) => ({ status: row.status, queuedAhead: row === firstQueued ? queuedAhead : 0, progress: row.progress })),
        { concurrency: effectiveConcurrency(config.WORKER_CONCURRENCY), inFlight: await calls.inFlightCount(), typicalCallMs: await services.processingStatistics.typicalCallMs(now) },
      )
      : undefined;
    // Answer in the order asked, so clients can zip results with their request.
    const byId = new Map(rows.map((row) => [row.id, row.status]));
    return {
      items: ids.flatMap((id) => {
        const status = byId.get(id);
        return status ? [{ callId: id, status }] : [];
      }),
      ...(nextPollMs !== undefined ? { nextPollMs } : {}),
    };
  });

  app.get('/calls/:id', {
    schema: { summary: 'Call detail', params: IdParams, response: { 200: CallDetailSchema, ...errorResponses(400, 401, 404, 429) } },
  }, async (request) => toCallDetail(await ownedCall(request.params.id, currentUser(request).id)));

  app.get('/calls/:id/transcript', {
    schema: {
      summary: 'Speaker-attributed transcript of a completed call',
      params: IdParams,
      response: { 200: TranscriptSchema, ...errorResponses(400, 401, 404, 422, 429) },
    },
  }, async (request) => {
    const transcript = await completedArtifact(await ownedCall(request.params.id, currentUser(request).id), 'transcript');
    recordCallAccess(services.accessAudit, request, 'transcript.read', request.params.id.toLowerCase());
    return transcript;
  });

  app.get('/calls/:id/analysis', {
    schema: {
      summary: 'Analysis of a completed call, in its stored version\'s shape',
      params: IdParams,
      response: { 200: StoredAnalysisSchema, ...errorResponses(400, 401, 404, 422, 429) },
    },
  }, async (request) => {
    const analysis = await completedArtifact(await ownedCall(request.params.id, currentUser(request).id), 'analysis');
    recordCallAccess(services.accessAudit, request, 'analysis.read', request.params.id.toLowerCase());
    return analysis;
  });

  async function ownedCall(callId: string, userId: string): Promise<CallRecord> {
    const call = await calls.findOwned(userId, callId.toLowerCase());
    if (!call) throw new ApiError('call_not_found');
    return call;
  }

  async function completedArtifact(call: CallRecord, kind: ArtifactKind): Promise<never> {
    if (call.status !== 'COMPLETED') throw new ApiError('call_not_completed', undefined, { status: call.status });
    return (await readCallDocument<never>(services.artifacts, services.store, call.id, kind)).document;
  }
};
