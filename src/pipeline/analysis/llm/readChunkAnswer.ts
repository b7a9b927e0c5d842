import { AnalysisSchema, type Analysis } from '../../../domain/analysis/analysisSchema.js';
import type { Speaker } from '../../../domain/transcripts/transcriptSchema.js';
import { closeTruncatedJson } from './closeTruncatedJson.js';
import { fitToSchema, type FitReport } from './fitToSchema.js';
import type { JsonSchema } from './generationSchema.js';

/** One chunk's answer as the analyser reads it. */
export interface ChunkAnswer {
  /** Valid against AnalysisSchema; empty fields where the answer had nothing usable. */
  analysis: Analysis;
  /** Plain-words notes on what went wrong (no transcript text). */
  warnings: string[];
}

/** An analysis with nothing in it: what a chunk whose answer is unusable contributes. */
export function emptyAnalysis(): Analysis {
  return fitToSchema(AnalysisSchema as unknown as JsonSchema, {}) as Analysis;
}

/**
 * The model's answer for one chunk turned into a valid Analysis: parsed (an answer cut off at
 * the token limit is closed first, see {@link closeTruncatedJson}), completed with what the
 * analyser fills itself (schema version, and each cited speaker's label, name and role), then
 * fitted to AnalysisSchema by mechanical repairs ({@link fitToSchema}). Never throws for what
 * the model wrote; `part` names the chunk in warnings ("part 2 of 3").
 */
export function readChunkAnswer(text: string, cutOff: boolean, speakers: readonly Speaker[], part: string): ChunkAnswer {
  const warnings: string[] = [];
  let parsed = parseJson(text);
  if (parsed === undefined || cutOff) {
    const closed = closeTruncatedJson(text);
    parsed = closed === undefined ? undefined : parseJson(closed);
    if (cutOff) warnings.push(`The language model's answer for ${part} reached the output limit; the fields after the cut are empty.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    warnings.push(`The language model's answer for ${part} was not usable JSON and was left out.`);
    return { analysis: emptyAnalysis(), warnings };
  }
  const report: FitReport = { repaired: 0, filled: 0 };
  const completed = withSpeakerFields({ ...(parsed as Record<string, unknown>), schemaVersion: 2, qualityWarnings: [] }, speakers);
  const analysis = fitToSchema(AnalysisSchema as unknown as JsonSchema, completed, report) as Analysis | undefined;
  if (!analysis) {
    warnings.push(`The language model's answer for ${part} did not fit the analysis schema and was left out.`);
    return { analysis: emptyAnalysis(), warnings };
  }
  if (report.repaired > 0) {
    warnings.push(`${report.repaired} value(s) in the language model's answer for ${part} did not fit the analysis schema and were dropped or shortened.`);
  }
  return { analysis, warnings };
}

/** The JSON value `text` holds, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Per list: the property naming an item's speaker by id, then those its label, name and role are copied to. */
const speakerProperties = {
  keyDiscussionPoints: ['speakerId', 'speakerLabel', 'speakerDisplayName', 'speakerRole'],
  actionItems: ['ownerSpeakerId', 'ownerSpeakerLabel', 'ownerDisplayName', 'ownerRole'],
} as const;

/** The speaker fields of key discussion points and action items, from the speaker each one names by id (null for an unknown id). */
function withSpeakerFields(answer: Record<string, unknown>, speakers: readonly Speaker[]): Record<string, unknown> {
  const byId = new Map(speakers.map((speaker) => [speaker.speakerId, speaker]));
  const completed = { ...answer };
  for (const [list, [id, label, name, role]] of Object.entries(speakerProperties)) {
    const items = answer[list];
    if (!Array.isArray(items)) continue;
    completed[list] = items.map((item: unknown) => {
      if (typeof item !== 'object' || item === null) return item;
      const fields = item as Record<string, unknown>;
      const speaker = typeof fields[id] === 'string' ? byId.get(fields[id]) : undefined;
      return {
        ...fields,
        [id]: speaker?.speakerId ?? null,
        [label]: speaker?.label ?? null,
        [name]: speaker?.displayName ?? null,
        [role]: speaker?.role ?? null,
      };
    });
  }
  return completed;
}
