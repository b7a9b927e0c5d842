import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS with a default export.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/**
 * Request validation with two Ajv instances: query strings, path parameters and headers arrive
 * as text, so they are coerced (`limit=5` → 5); JSON bodies are checked exactly, so
 * `{"displayName": 42}` is refused instead of quietly becoming "42". Unknown fields are errors
 * (never silently removed), defaults are filled in.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const options: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };
  const coercing = addFormats(new Ajv({ ...options, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...options, coerceTypes: false }));
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema as object);
}
