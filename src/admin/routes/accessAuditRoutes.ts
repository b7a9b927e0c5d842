import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import type { Services } from '../../createServices.js';
import type { AccessAuditFilter } from '../../domain/audit/AccessAuditRepository.js';
import type { AccessAuditRecord, AuditDetail } from '../../domain/audit/auditChain.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { toIsoTimestamp } from '../../infrastructure/clock.js';
import { accessAuditCsvHeader, accessAuditCsvLine } from '../audit/accessAuditCsv.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import {
  AccessAuditCsvQuerySchema, AccessAuditCsvResponseSchema, AccessAuditListQuerySchema, AccessAuditListSchema, type AccessAuditFilterQuery,
} from '../schemas/accessAuditSchemas.js';

/** Records read per query while the CSV streams: the download never holds the whole trail. */
const csvPageSize = 1000;

/** The Audit page: the access audit trail, filtered and paged newest first, and as a CSV download. */
export const accessAuditRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { repository } = services.accessAudit;

  app.get('/access-audit', {
    schema: {
      summary: 'The access audit trail, newest first, filtered and paged',
      description: 'Who read, exported, deleted or changed what: reads of transcripts and analyses, exports, deletions, reprocessing, '
        + 'speaker corrections, action item changes and every admin action. Records are written in batches a fraction of a second after the access.',
      querystring: AccessAuditListQuerySchema,
      response: { 200: AccessAuditListSchema, ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { limit, before } = request.query;
    const records = await repository.newest({ ...filterOf(request.query), ...(before !== undefined ? { before } : {}) }, limit);
    return {
      records: records.map(toRecordView),
      nextBefore: records.length === limit ? records.at(-1)!.seq : null,
    };
  });

  app.get('/access-audit.csv', {
    schema: {
      summary: 'The access audit trail as CSV, with the same filters as the list',
      description: 'Every matching record, newest first, streamed page by page. The download is itself recorded (`admin.audit_export`).',
      querystring: AccessAuditCsvQuerySchema,
      response: { 200: AccessAuditCsvResponseSchema, ...errorResponses(400, 401) },
    },
  }, async (request, reply) => {
    const filter = filterOf(request.query);
    await recordAdminAction(services, request, { actor: 'admin', action: 'audit_export', target: 'access_audit', detail: { filters: { ...request.query } } });
    async function* lines(): AsyncGenerator<string> {
      yield accessAuditCsvHeader;
      let before: number | undefined;
      for (;;) {
        const page = await repository.newest({ ...filter, ...(before !== undefined ? { before } : {}) }, csvPageSize);
        yield page.map(accessAuditCsvLine).join('');
        if (page.length < csvPageSize) return;
        before = page.at(-1)!.seq;
      }
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="access-audit.csv"')
      .header('cache-control', 'private, no-store')
      .send(Readable.from(lines()));
  });
};

function filterOf(query: AccessAuditFilterQuery): AccessAuditFilter {
  return {
    ...(query.callId !== undefined ? { callId: query.callId.toLowerCase() } : {}),
    ...(query.actorId !== undefined ? { actorId: query.actorId } : {}),
    ...(query.action !== undefined ? { action: query.action } : {}),
    ...(query.from !== undefined ? { from: Date.parse(query.from) } : {}),
    ...(query.to !== undefined ? { to: Date.parse(query.to) } : {}),
  };
}

function toRecordView(record: AccessAuditRecord) {
  return {
    ...record,
    at: toIsoTimestamp(record.at),
    detail: record.detail === null ? null : (JSON.parse(record.detail) as AuditDetail),
  };
}
