import type { AccessAuditRecord } from '../../domain/audit/auditChain.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';

export const accessAuditCsvHeader = 'seq,at,actor_kind,actor_id,action,call_id,target,client_ip,detail,previous_hash,hash\r\n';

/** One record as a CSV line (RFC 4180: CRLF, quoted where needed). */
export function accessAuditCsvLine(record: AccessAuditRecord): string {
  return [
    String(record.seq), toIsoTimestamp(record.at), record.actorKind, record.actorId, record.action, record.callId,
    record.target, record.clientIp, record.detail, record.previousHash, record.hash,
  ].map(csvCell).join(',') + '\r\n';
}

/**
 * A value as a CSV cell: quoted (quotes doubled) when it holds a comma, quote or line break; one
 * starting like a spreadsheet formula gets a leading `'`, so opening the file runs nothing.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
