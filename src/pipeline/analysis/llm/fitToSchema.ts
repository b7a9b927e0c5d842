import type { JsonSchema } from './generationSchema.js';

/** What fitting a value to a schema changed. */
export interface FitReport {
  /** Values dropped or changed to fit: items and properties that did not validate, texts cut to length, numbers clamped. */
  repaired: number;
  /** Required properties that were absent and were filled with their empty value (null, [] or the constant). */
  filled: number;
}

type Fitted = { ok: true; value: unknown } | { ok: false };

const failed: Fitted = { ok: false };

/**
 * The value made to validate against `schema` by mechanical repairs only: texts cut to
 * `maxLength`, numbers clamped to their bounds (integers rounded), enum values matched
 * ignoring case, invalid list items and unknown properties dropped, lists cut to `maxItems`,
 * optional properties that are null or invalid left out, and required properties that are
 * absent or invalid set to their empty value (null when nullable, [] for a list, the
 * constant); an object lacking such a fallback fails, and the list holding it drops it.
 * Returns undefined when the value as a whole cannot be made to fit. Nothing is invented.
 *
 * Covers the JSON Schema that TypeBox writes for AnalysisSchema: object, array, string,
 * number, integer, null, const, enum, anyOf.
 */
export function fitToSchema(schema: JsonSchema, value: unknown, report: FitReport = { repaired: 0, filled: 0 }): unknown {
  const fitted = fit(schema, value, report);
  return fitted.ok ? fitted.value : undefined;
}

function fit(schema: JsonSchema, value: unknown, report: FitReport): Fitted {
  if ('const' in schema) {
    if (value !== schema.const) report.repaired += 1;
    return { ok: true, value: schema.const };
  }
  if (Array.isArray(schema.enum)) return fitEnum(schema.enum as unknown[], value, report);
  if (Array.isArray(schema.anyOf)) return fitAnyOf(schema.anyOf as JsonSchema[], value, report);
  switch (schema.type) {
    case 'object': return fitObject(schema, value, report);
    case 'array': return fitArray(schema, value, report);
    case 'string': return fitString(schema, value, report);
    case 'number':
    case 'integer':
      return fitNumber(schema, value, report);
    case 'null': return value === null ? { ok: true, value } : failed;
    default: return failed;
  }
}

function fitEnum(values: readonly unknown[], value: unknown, report: FitReport): Fitted {
  if (values.includes(value)) return { ok: true, value };
  if (typeof value !== 'string') return failed;
  const folded = value.trim().toLowerCase();
  const match = values.find((candidate) => typeof candidate === 'string' && candidate.toLowerCase() === folded);
  if (match === undefined) return failed;
  report.repaired += 1;
  return { ok: true, value: match };
}

function fitAnyOf(variants: readonly JsonSchema[], value: unknown, report: FitReport): Fitted {
  const allowsNull = variants.some((variant) => variant.type === 'null');
  if (value === null && allowsNull) return { ok: true, value };
  for (const variant of variants) {
    if (variant.type === 'null') continue;
    const attempt: FitReport = { repaired: 0, filled: 0 };
    const fitted = fit(variant, value, attempt);
    if (fitted.ok) {
      report.repaired += attempt.repaired;
      report.filled += attempt.filled;
      return fitted;
    }
  }
  return failed;
}

function fitObject(schema: JsonSchema, value: unknown, report: FitReport): Fitted {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return failed;
  const source = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const present = Object.hasOwn(source, name) && source[name] !== undefined;
    if (!required.has(name)) {
      // An optional property: null is how the generation schema says "absent".
      if (!present || source[name] === null) continue;
      const fitted = fit(property, source[name], report);
      if (fitted.ok) result[name] = fitted.value;
      else report.repaired += 1;
      continue;
    }
    const fitted = present ? fit(property, source[name], report) : failed;
    if (fitted.ok) {
      result[name] = fitted.value;
      continue;
    }
    const fallback = emptyValue(property);
    if (fallback === undefined) return failed;
    if (present) report.repaired += 1;
    else report.filled += 1;
    result[name] = fallback.value;
  }
  const unknown = Object.keys(source).filter((name) => !Object.hasOwn(properties, name)).length;
  report.repaired += unknown;
  return { ok: true, value: result };
}

function fitArray(schema: JsonSchema, value: unknown, report: FitReport): Fitted {
  if (!Array.isArray(value)) return failed;
  const items = schema.items as JsonSchema;
  const fittedItems: unknown[] = [];
  for (const item of value) {
    const fitted = fit(items, item, report);
    if (fitted.ok) fittedItems.push(fitted.value);
    else report.repaired += 1;
  }
  if (typeof schema.maxItems === 'number' && fittedItems.length > schema.maxItems) {
    report.repaired += fittedItems.length - schema.maxItems;
    fittedItems.length = schema.maxItems;
  }
  if (typeof schema.minItems === 'number' && fittedItems.length < schema.minItems) return failed;
  return { ok: true, value: fittedItems };
}

function fitString(schema: JsonSchema, value: unknown, report: FitReport): Fitted {
  if (typeof value !== 'string') return failed;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return failed;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
    report.repaired += 1;
    return { ok: true, value: value.slice(0, schema.maxLength) };
  }
  return { ok: true, value };
}

function fitNumber(schema: JsonSchema, value: unknown, report: FitReport): Fitted {
  if (typeof value !== 'number' || !Number.isFinite(value)) return failed;
  let fitted = schema.type === 'integer' ? Math.round(value) : value;
  if (typeof schema.minimum === 'number') fitted = Math.max(schema.minimum, fitted);
  if (typeof schema.maximum === 'number') fitted = Math.min(schema.maximum, fitted);
  if (fitted !== value) report.repaired += 1;
  return { ok: true, value: fitted };
}

/** What a required property falls back to when absent or invalid; undefined when it has no empty value. */
function emptyValue(schema: JsonSchema): { value: unknown } | undefined {
  if ('const' in schema) return { value: schema.const };
  if (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((variant) => variant.type === 'null')) return { value: null };
  if (schema.type === 'null') return { value: null };
  if (schema.type === 'array' && !(typeof schema.minItems === 'number' && schema.minItems > 0)) return { value: [] };
  return undefined;
}
