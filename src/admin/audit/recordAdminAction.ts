import type { FastifyRequest } from 'fastify';
import type { Services } from '../../createServices.js';
import type { AdminAuditEntry } from './AdminAuditLog.js';

/** Writes an admin action to the audit table and the log, with the client's IP; `entry` must hold no secrets. */
export async function recordAdminAction(services: Pick<Services, 'admin' | 'clock'>, request: FastifyRequest, entry: Omit<AdminAuditEntry, 'clientIp'>): Promise<void> {
  await services.admin.audit.record({ ...entry, clientIp: request.ip }, services.clock());
  request.log.info({ adminAction: entry.action, actor: entry.actor, target: entry.target, detail: entry.detail }, 'admin action');
}
