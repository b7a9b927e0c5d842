import { Type } from 'typebox';
import type { CallMetadata } from '../../../domain/calls/callTypes.js';
import { ApiError } from '../../errors.js';
import { CallMetadataSchema } from '../../schemas/callSchemas.js';
import { validateAgainst } from '../../validateAgainst.js';

const flatNames = [...Object.keys(CallMetadataSchema.properties), 'fileName'] as const;

const FlatFieldsSchema = Type.Object({
  ...CallMetadataSchema.properties,
  fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

export interface UploadDescription {
  metadata: CallMetadata;
  /** `fileName` flat parameter: overrides the file part's own name (used only without a metadata part). */
  fileName?: string;
}

/**
 * The call metadata of an upload: the `metadata` JSON part when present (flat parameters are
 * then ignored, as the specification says), otherwise the flat parameters, which may be any
 * field of the envelope plus `fileName`. Unknown fields are ignored.
 */
export function describeUpload(fields: Record<string, unknown>): UploadDescription {
  if (fields.metadata !== undefined) {
    const parsed = typeof fields.metadata === 'string' ? parseJson(fields.metadata) : fields.metadata;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ApiError('validation_failed', 'The metadata part must be a JSON object', { fields: [{ path: 'metadata', message: 'must be a JSON object' }] });
    }
    return { metadata: pickKnown(validateAgainst(CallMetadataSchema, parsed, 'metadata')) };
  }
  const flat: Record<string, unknown> = {};
  for (const name of flatNames) {
    const value = fields[name];
    if (value === undefined) continue;
    flat[name] = name === 'durationSeconds' && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  }
  const { fileName, ...metadata } = validateAgainst(FlatFieldsSchema, flat, 'form');
  return { metadata: pickKnown(metadata), ...(fileName ? { fileName } : {}) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('validation_failed', 'The metadata part is not valid JSON', { fields: [{ path: 'metadata', message: 'malformed JSON' }] });
  }
}

/** Keeps only the envelope's fields (unknown ones are ignored, not stored). */
function pickKnown(value: Record<string, unknown>): CallMetadata {
  const known: Record<string, unknown> = {};
  for (const name of Object.keys(CallMetadataSchema.properties)) if (value[name] !== undefined) known[name] = value[name];
  return known as CallMetadata;
}
