import type { FastifyRequest } from 'fastify';
import type { AccessAuditTrail, AuditActor } from '../domain/audit/AccessAuditTrail.js';
import type { AuditDetail } from '../domain/audit/auditChain.js';
import { currentUser } from './auth/authenticate.js';

/** The signed-in API user behind a request, as the access audit trail names them. */
export function auditActorOf(request: FastifyRequest): AuditActor {
  return { actorKind: 'user', actorId: currentUser(request).id, clientIp: request.ip };
}

/** Records that the request's user did `action` (`transcript.read`, `call.export`, …) to a call. */
export function recordCallAccess(
  trail: Pick<AccessAuditTrail, 'record'>, request: FastifyRequest, action: string, callId: string, detail?: AuditDetail,
): void {
  trail.record({ ...auditActorOf(request), action, callId, ...(detail ? { detail } : {}) });
}
