import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../createServices.js';
import { LegalHoldRepository, type LegalHoldRecord, type LegalHoldTarget } from '../../domain/legalHolds/LegalHoldRepository.js';
import { countPastRetention, duePastRetention, retentionCutoff, type RetentionKind } from '../../domain/retention/retentionCandidates.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import {
  LegalHoldListQuerySchema, LegalHoldListSchema, LegalHoldParams, LegalHoldSchema, LiftLegalHoldBodySchema, PlaceLegalHoldBodySchema, RetentionPreviewSchema,
} from '../schemas/legalHoldSchemas.js';

/** Calls listed per retention in the preview (the counts cover all). */
const previewListLength = 100;

/** The Retention & holds page: place, lift and list legal holds; see what the next retention runs delete. */
export const legalHoldRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const holds = new LegalHoldRepository(services.database.sql);

  app.get('/legal-holds', {
    schema: { summary: 'Legal holds, active ones first', querystring: LegalHoldListQuerySchema, response: { 200: LegalHoldListSchema, ...errorResponses(400, 401) } },
  }, async (request) => ({ holds: (await holds.list(request.query.limit)).map(toHoldView) }));

  app.post('/legal-holds', {
    schema: {
      summary: 'Place a legal hold on a user (all their calls) or on one call',
      description: 'While the hold is active, deleting what it covers answers 409 `legal_hold` and deletes nothing: the owner\'s call deletion, bulk deletion and account deletion, and call and audio retention skip it. An unknown user or call is a 400 on its field.',
      body: PlaceLegalHoldBodySchema,
      response: { 201: LegalHoldSchema, ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => {
    const { body } = request;
    const reason = reasonOf(body.reason, 'body/reason');
    const target = targetOf(body);
    const placement = await holds.placeHold(target, reason, services.clock());
    if (placement.outcome === 'missing') {
      const field = target.scope === 'user' ? 'userId' : 'callId';
      throw new ApiError('validation_failed', `No such ${target.scope}`, { fields: [{ path: `body/${field}`, message: `no such ${target.scope}` }] });
    }
    const { hold } = placement;
    await recordAdminAction(services, request, {
      actor: 'admin', action: 'legal_hold_place', target: `legal_hold:${hold.id}`,
      detail: { scope: hold.scope, userId: hold.userId, callId: hold.callId, reason: hold.reason },
    });
    return reply.code(201).send(toHoldView(hold));
  });

  app.post('/legal-holds/:id/lift', {
    schema: {
      summary: 'Lift an active legal hold; what it covered can be deleted again (unless another hold covers it)',
      params: LegalHoldParams,
      body: LiftLegalHoldBodySchema,
      response: { 200: LegalHoldSchema, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const reason = reasonOf(request.body.reason, 'body/reason');
    const lifted = await holds.liftHold(request.params.id.toLowerCase(), reason, services.clock());
    if (!lifted) throw new ApiError('admin_legal_hold_not_found');
    await recordAdminAction(services, request, {
      actor: 'admin', action: 'legal_hold_lift', target: `legal_hold:${lifted.id}`,
      detail: { scope: lifted.scope, userId: lifted.userId, callId: lifted.callId, reason },
    });
    return toHoldView(lifted);
  });

  app.get('/retention/preview', {
    schema: {
      summary: 'What the next call and audio retention runs would delete, and what legal holds keep',
      response: { 200: RetentionPreviewSchema, ...errorResponses(401) },
    },
  }, async () => {
    const now = services.clock();
    return {
      calls: await retentionPlan('call', services.config.CALL_RETENTION_DAYS, now),
      audio: await retentionPlan('audio', services.config.AUDIO_RETENTION_DAYS, now),
    };
  });

  async function retentionPlan(kind: RetentionKind, days: number, now: number) {
    const cutoff = retentionCutoff(now, days);
    if (cutoff === undefined) return { retentionDays: days, cutoff: null, due: 0, heldSkipped: 0, calls: [] };
    const db = services.database.sql;
    const counts = await countPastRetention(db, kind, cutoff);
    const first = await duePastRetention(db, kind, cutoff, previewListLength);
    return {
      retentionDays: days,
      cutoff: toIsoTimestamp(cutoff),
      due: counts.due,
      heldSkipped: counts.held,
      calls: first.map((call) => ({ callId: call.callId, userId: call.userId, since: toIsoTimestamp(call.since) })),
    };
  }
};

/** The reason without surrounding spaces; only spaces is no reason (the schema cannot tell). */
function reasonOf(reason: string, path: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') throw new ApiError('validation_failed', 'A reason is required', { fields: [{ path, message: 'must not be empty' }] });
  return trimmed;
}

function targetOf(body: { scope: 'user' | 'call'; userId?: string; callId?: string }): LegalHoldTarget {
  const [needed, other] = body.scope === 'user' ? ['userId', 'callId'] as const : ['callId', 'userId'] as const;
  const id = body[needed];
  const problems = [
    ...(id === undefined ? [{ path: `body/${needed}`, message: `required for a ${body.scope} hold` }] : []),
    ...(body[other] !== undefined ? [{ path: `body/${other}`, message: `not allowed in a ${body.scope} hold` }] : []),
  ];
  if (id === undefined || problems.length > 0) throw new ApiError('validation_failed', undefined, { fields: problems });
  return body.scope === 'user' ? { scope: 'user', userId: id.toLowerCase() } : { scope: 'call', callId: id.toLowerCase() };
}

function toHoldView(hold: LegalHoldRecord) {
  return {
    id: hold.id,
    scope: hold.scope,
    userId: hold.userId,
    callId: hold.callId,
    reason: hold.reason,
    placedAt: toIsoTimestamp(hold.placedAt),
    active: hold.liftedAt === null,
    liftedAt: hold.liftedAt === null ? null : toIsoTimestamp(hold.liftedAt),
    liftReason: hold.liftReason,
  };
}
