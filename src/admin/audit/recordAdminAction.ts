import type { FastifyRequest } from 'fastify';
import type { Services } from '../../createServices.js';
import type { AuditDetail } from '../../domain/audit/auditChain.js';
import type { AdminAuditEntry } from './AdminAuditLog.js';

/**
 * Writes an admin action to the audit table, the access audit trail (as `admin.<action>`) and the
 * log, with the client's IP; `entry` must hold no secrets.
 */
export async function recordAdminAction(services: Pick<Services, 'admin' | 'clock' | 'accessAudit'>, request: FastifyRequest, entry: Omit<AdminAuditEntry, 'clientIp'>): Promise<void> {
  await services.admin.audit.record({ ...entry, clientIp: request.ip }, services.clock());
  services.accessAudit.record({
    actorKind: 'admin',
    actorId: entry.actor,
    action: `admin.${entry.action}`,
    ...(entry.target !== undefined ? { target: entry.target } : {}),
    clientIp: request.ip,
    ...(entry.detail ? { detail: flatDetail(entry.detail) } : {}),
  });
  request.log.info({ adminAction: entry.action, actor: entry.actor, target: entry.target, detail: entry.detail }, 'admin action');
}

/** The trail keeps plain values: a nested value (the settings changed, say) is kept as its JSON text. */
function flatDetail(detail: Record<string, unknown>): AuditDetail {
  return Object.fromEntries(Object.entries(detail).map(([key, value]) => [key,
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value) ?? null]));
}
