import { Type, type Static } from 'typebox';
import { TranscriptSchema } from '../../domain/transcripts/transcriptSchema.js';
import { ActionItemSchema } from './actionItemSchemas.js';
import { StoredAnalysisSchema } from './analysisSchema.js';
import { CallDetailSchema } from './callSchemas.js';

export const exportFormats = ['txt', 'srt', 'vtt', 'docx', 'json'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** The `Content-Type` each format is answered with. */
export const exportContentTypes: Record<ExportFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  json: 'application/json; charset=utf-8',
};

export const CallExportQuerySchema = Type.Object({
  format: Type.Enum(exportFormats, {
    description: '`txt` (plain text), `srt` (SubRip subtitles), `vtt` (WebVTT captions), `docx` (Word document) or `json` (every stored record of the call)',
  }),
});

/** The `json` export: the call and its records, each in the shape its own endpoint answers with. */
export const CallExportDocumentSchema = Type.Object({
  call: CallDetailSchema,
  transcript: TranscriptSchema,
  analysis: StoredAnalysisSchema,
  actionItems: Type.Array(ActionItemSchema, { description: 'The call\'s action items with their current status, in extraction order' }),
});
export type CallExportDocument = Static<typeof CallExportDocumentSchema>;

const text = (description: string) => ({ schema: Type.String({ description }) });

/**
 * The 200 response, by media type: exports are files, not JSON resources, so each format
 * documents its own content (the route sends the rendered bytes; nothing is serialised from these).
 */
export const CallExportResponseSchema = {
  description: 'The export as a download: `Content-Type` is the format\'s (text formats in UTF-8), `Content-Disposition: attachment` names the file',
  headers: {
    'Content-Disposition': Type.String({
      description: '`attachment; filename="<YYYY-MM-DD>-<title-slug>.<format>"`: the recording date and an ASCII slug of the title; titles with non-ASCII letters add `filename*=UTF-8\'\'…` (RFC 5987) with those letters kept',
    }),
  },
  content: {
    'text/plain': text('`txt`: a header (title, date, direction, duration, participants), a blank line, then `[HH:MM:SS] Name: text` per segment'),
    'application/x-subrip': text('`srt`: numbered cues `HH:MM:SS,mmm --> HH:MM:SS,mmm` with `Name: text`'),
    'text/vtt': text('`vtt`: `WEBVTT`, then cues identified by segment id, timed `HH:MM:SS.mmm --> HH:MM:SS.mmm`, text in a voice span `<v Name>text`'),
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
      // Bytes, documented as OpenAPI's binary string; typed as bytes so the route may send a Buffer.
      schema: Type.Unsafe<Uint8Array>({
        type: 'string',
        format: 'binary',
        description: '`docx`: title, date, direction, contact, duration, participants, summary bullets, action items (owner, due date, status) and the transcript with timestamps and speaker names',
      }),
    },
    'application/json': { schema: CallExportDocumentSchema },
  },
};
