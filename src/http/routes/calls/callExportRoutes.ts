import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { analysisTimeZoneOf } from '../../../config/loadConfig.js';
import type { Services } from '../../../createServices.js';
import type { ActionItemRecord } from '../../../domain/actions/ActionItemRepository.js';
import type { ArtifactKind } from '../../../domain/artifacts/ArtifactRepository.js';
import { readCallDocument } from '../../../domain/artifacts/readCallDocument.js';
import type { CallRecord } from '../../../domain/calls/callTypes.js';
import type { VersionedDocument } from '../../../domain/calls/storeCallResults.js';
import { toCallExport, type CallExport } from '../../../domain/exports/CallExport.js';
import { exportFileName } from '../../../domain/exports/exportFileName.js';
import { renderDocx } from '../../../domain/exports/renderDocx.js';
import { renderSrt } from '../../../domain/exports/renderSrt.js';
import { renderTxt } from '../../../domain/exports/renderTxt.js';
import { renderVtt } from '../../../domain/exports/renderVtt.js';
import type { Transcript } from '../../../domain/transcripts/transcriptSchema.js';
import { recordCallAccess } from '../../accessAudit.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import {
  CallExportQuerySchema, CallExportResponseSchema, exportContentTypes, type CallExportDocument, type ExportFormat,
} from '../../schemas/callExportSchemas.js';
import { errorResponses, IdParams } from '../../schemas/commonSchemas.js';
import { toActionItem } from '../actions/actionItemPresenter.js';
import { toCallDetail } from './callPresenters.js';

/** A completed call's stored records, as the exports read them. */
interface StoredCall {
  call: CallRecord;
  transcript: Transcript;
  analysis: VersionedDocument;
  actionItems: ActionItemRecord[];
}

/** Each format's body, from the stored records and their display form. */
const renderers: Record<ExportFormat, (stored: StoredCall, display: CallExport) => string | Promise<Buffer>> = {
  txt: (_stored, display) => renderTxt(display),
  srt: (_stored, display) => renderSrt(display.segments),
  vtt: (_stored, display) => renderVtt(display.segments),
  docx: (_stored, display) => renderDocx(display),
  json: (stored) => `${JSON.stringify(exportDocument(stored), null, 2)}\n`,
};

/** GET /api/calls/{id}/export: a completed call's transcript as a file to download. */
export const callExportRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const timeZone = analysisTimeZoneOf(services.config);

  app.get('/calls/:id/export', {
    schema: {
      summary: 'Download a completed call\'s transcript as TXT, SRT, VTT, DOCX or JSON',
      description: 'Speaker names and timestamps as the stored transcript has them (speaker corrections included). '
        + '`docx` adds the call\'s details, the summary and the action items with their current status; `json` holds the call detail, '
        + 'transcript, analysis and action items in the shapes of their own endpoints. Only the call\'s owner can export it; '
        + 'the call must be COMPLETED (otherwise 422 `call_not_completed`).',
      params: IdParams,
      querystring: CallExportQuerySchema,
      response: { 200: CallExportResponseSchema, ...errorResponses(400, 401, 404, 422, 429) },
    },
  }, async (request, reply) => {
    const call = await services.calls.findOwned(currentUser(request).id, request.params.id.toLowerCase());
    if (!call) throw new ApiError('call_not_found');
    if (call.status !== 'COMPLETED') throw new ApiError('call_not_completed', undefined, { status: call.status });
    const [transcript, analysis, actionItems] = await Promise.all([
      readDocument<Transcript>(call, 'transcript'), readDocument<VersionedDocument>(call, 'analysis'), services.actionItems.listForCall(call.id),
    ]);
    const stored = { call, transcript, analysis, actionItems };
    const display = toCallExport({ ...stored, timeZone });
    const { format } = request.query;
    const body = await renderers[format](stored, display);
    recordCallAccess(services.accessAudit, request, 'call.export', call.id, { format });
    return reply
      .header('content-type', exportContentTypes[format])
      .header('content-disposition', attachment(exportFileName(display.recorded.date, display.title, format)))
      // A transcript is personal data: no shared cache keeps a copy.
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });

  async function readDocument<T>(call: CallRecord, kind: ArtifactKind): Promise<T> {
    return (await readCallDocument<T>(services.artifacts, services.store, call.id, kind)).document;
  }
};

function exportDocument({ call, transcript, analysis, actionItems }: StoredCall): CallExportDocument {
  return { call: toCallDetail(call), transcript, analysis, actionItems: actionItems.map(toActionItem) };
}

/** `attachment; filename="…"`, plus RFC 5987's `filename*=UTF-8''…` when the name has non-ASCII letters. */
function attachment(name: { ascii: string; unicode: string | null }): string {
  const encoded = name.unicode === null ? '' : `; filename*=UTF-8''${encodeURIComponent(name.unicode).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return `attachment; filename="${name.ascii}"${encoded}`;
}
