import { AnalysisSchema } from './analysisSchema.js';

/** The Analysis v2 schema as a standalone JSON Schema (draft 2020-12) document, as committed in `docs/schemas/`. */
export function analysisJsonSchema(): string {
  return `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...AnalysisSchema }, null, 2)}\n`;
}
