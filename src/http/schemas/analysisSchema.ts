import { Type } from 'typebox';

/**
 * A stored analysis, served in the shape of the version it was stored with (v1 or v2);
 * Callscope adds no alias fields to older versions. Documents are validated against their
 * version's full schema when stored, so the response schema only pins what every version has
 * and passes the rest through unchanged.
 */
export const StoredAnalysisSchema = Type.Object({
  schemaVersion: Type.Integer({ minimum: 1 }),
}, { additionalProperties: true, $id: 'Analysis' });
