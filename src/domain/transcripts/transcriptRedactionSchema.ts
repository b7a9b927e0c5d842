import { Type, type Static } from 'typebox';
import { redactionKinds } from '../../pipeline/redaction/redactionKinds.js';

const RedactionKindSchema = Type.Enum(redactionKinds);
const SpanCount = Type.Integer({ minimum: 0 });

/**
 * What local redaction (`REDACT`) took out of a transcript: the kinds it looked for and how
 * many spans of each it replaced, never the values. Additive: absent when redaction was off
 * (and on transcripts made before it existed).
 */
export const TranscriptRedactionSchema = Type.Object({
  kinds: Type.Array(RedactionKindSchema, { description: 'The kinds looked for (`REDACT`), e.g. `["card"]`.' }),
  counts: Type.Object({
    card: Type.Optional(SpanCount),
    iban: Type.Optional(SpanCount),
    national_id: Type.Optional(SpanCount),
    date_of_birth: Type.Optional(SpanCount),
    email: Type.Optional(SpanCount),
    phone: Type.Optional(SpanCount),
  }, { description: 'Spans replaced per kind looked for (0 when none was found), e.g. `{"card": 2}`. Each span is one placeholder word (`[CARD]`) in the text.' }),
}, { description: 'What local redaction replaced by placeholders (`[CARD]`, `[IBAN]`, `[NATIONAL_ID]`, `[DATE_OF_BIRTH]`, `[EMAIL]`, `[PHONE]`), as counts per kind; absent when redaction is off.' });
export type TranscriptRedaction = Static<typeof TranscriptRedactionSchema>;
