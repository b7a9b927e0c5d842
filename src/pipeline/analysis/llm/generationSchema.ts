import { AnalysisSchema, IntentMetadataSchema, type ActionIntent } from '../../../domain/analysis/analysisSchema.js';

/** A JSON Schema as plain data: what crosses to the worker thread and what node-llama-cpp turns into a grammar. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** Bounds on one chunk's answer, so that generation stays short and always ends (the grammar enforces them). */
export interface GenerationLimits {
  /** Longest short text (titles, item texts, notes), characters; the schema's own maxLength when smaller. Defaults to `300`. */
  maxTextLength: number;
  /** Longest prose (texts the schema allows 1000 characters or more: summary, section content), characters. Defaults to `1200`. */
  maxProseLength: number;
  /** Most items of any list in one chunk's answer; the schema's own maxItems when smaller. Defaults to `10`. */
  maxListItems: number;
  /** Most segments one item cites. Defaults to `4`. */
  maxCitations: number;
}

export const defaultGenerationLimits: GenerationLimits = { maxTextLength: 300, maxProseLength: 1200, maxListItems: 10, maxCitations: 4 };

/** What the model may cite in one chunk: the grammar only lets it write these ids. */
export interface GenerationScope {
  /** The chunk's segments (`seg_NNNN`). */
  segmentIds: readonly string[];
  /** The transcript's speakers (`spk_N`). */
  speakerIds: readonly string[];
}

/**
 * Properties the analyser fills itself rather than the model: fixed values, its own warnings,
 * and speaker names and roles, copied from the speaker the item cites by `speakerId` (so the
 * model never writes a name for a speaker).
 */
export const analyserFilledProperties: ReadonlySet<string> = new Set([
  'schemaVersion', 'qualityWarnings',
  'speakerLabel', 'speakerDisplayName', 'speakerRole',
  'ownerSpeakerLabel', 'ownerDisplayName', 'ownerRole',
]);

/** Which intent metadata fields the model writes for each intent (the specification's table). */
const intentMetadataFields: Record<ActionIntent, readonly string[]> = {
  meeting: ['providerHint', 'attendees', 'proposedAt', 'durationMinutes', 'title', 'location'],
  email: ['toEmail', 'toName', 'subject', 'bodyPreview'],
  call: ['phoneNumber', 'contactName'],
  message: ['channel', 'providerHint', 'phoneNumber', 'handle', 'bodyPreview'],
  reminder: ['remindAt', 'title', 'notes'],
  task: ['title', 'notes'],
  none: [],
};

/** Strings the schema describes as ISO date-times without a pattern: the grammar's `date-time` format writes them. */
const dateTimeProperties: ReadonlySet<string> = new Set(['proposedAt', 'remindAt']);

/**
 * Patterns of AnalysisSchema the grammar cannot express, and what is generated instead; the
 * answer is checked against the real pattern afterwards. A new pattern in the schema needs an
 * entry here (building the schema throws otherwise).
 */
const patternStandIns: Record<string, (scope: GenerationScope) => JsonSchema> = {
  '^seg_\\d{4,}$': (scope) => enumOf(scope.segmentIds),
  '^spk_\\d+$': (scope) => enumOf(scope.speakerIds),
  '^\\d{4}-\\d{2}-\\d{2}$': () => ({ type: 'string', format: 'date' }),
  '^\\d{2}:\\d{2}$': () => ({ type: 'string', maxLength: 5 }),
  '^[A-Z]{3}$': () => ({ type: 'string', maxLength: 3 }),
};

const nullSchema: JsonSchema = { type: 'null' };
/** Texts of at least this many characters (in AnalysisSchema) are prose, bounded by `maxProseLength`. */
const proseLength = 1000;

/**
 * The schema the model's answer for one chunk is generated under, derived from AnalysisSchema:
 * - properties in {@link analyserFilledProperties} are left out;
 * - `anyOf` becomes `oneOf` (what node-llama-cpp reads); a nullable list becomes a plain list (empty says "none");
 * - optional properties become required-but-nullable (the grammar writes every property);
 * - segment and speaker ids become enums of the chunk's ids, other patterns their stand-ins;
 * - `maxLength` and `maxItems` are tightened to `limits`, citations to `maxCitations`;
 * - number bounds are dropped (checked and clamped afterwards), as are `$id`, titles and descriptions;
 * - `intentMetadata` becomes one object per intent with that intent's fields only.
 * Properties keep AnalysisSchema's order, which is also the order the model writes them in.
 */
export function analysisGenerationSchema(scope: GenerationScope, limits: GenerationLimits = defaultGenerationLimits): JsonSchema {
  return derive(AnalysisSchema as unknown as JsonSchema, '', { scope, limits });
}

interface Derivation {
  scope: GenerationScope;
  limits: GenerationLimits;
}

function derive(schema: JsonSchema, propertyName: string, derivation: Derivation): JsonSchema {
  if ('const' in schema) return { const: schema.const };
  if (Array.isArray(schema.enum)) return enumOf(schema.enum as unknown[]);
  if (Array.isArray(schema.anyOf)) {
    const variants = (schema.anyOf as JsonSchema[]).map((variant) => derive(variant, propertyName, derivation));
    const list = variants.find((variant) => variant.type === 'array');
    if (list && variants.length === 2 && variants.some((variant) => variant.type === 'null')) return list;
    return { oneOf: variants };
  }
  switch (schema.type) {
    case 'object': return deriveObject(schema, propertyName, derivation);
    case 'array': return deriveArray(schema, propertyName, derivation);
    case 'string': return deriveString(schema, propertyName, derivation);
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { type: schema.type };
    default:
      throw new Error(`analysis schema: no generation rule for ${JSON.stringify(schema).slice(0, 80)}`);
  }
}

function deriveObject(schema: JsonSchema, propertyName: string, derivation: Derivation): JsonSchema {
  if (propertyName === 'intentMetadata') return intentMetadataVariants(derivation);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return objectOf(Object.entries(properties).filter(([name]) => !analyserFilledProperties.has(name)), required, derivation);
}

function objectOf(entries: ReadonlyArray<[string, JsonSchema]>, required: ReadonlySet<string>, derivation: Derivation): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of entries) {
    const derived = derive(property, name, derivation);
    properties[name] = required.has(name) ? derived : nullable(derived);
  }
  return { type: 'object', properties, additionalProperties: false };
}

function intentMetadataVariants(derivation: Derivation): JsonSchema {
  const properties = IntentMetadataSchema.properties as unknown as Record<string, JsonSchema>;
  return {
    oneOf: Object.values(intentMetadataFields).map((fields) =>
      objectOf(fields.map((name) => [name, properties[name]!]), new Set(), derivation)),
  };
}

function deriveArray(schema: JsonSchema, propertyName: string, derivation: Derivation): JsonSchema {
  const items = schema.items as JsonSchema;
  const isCitations = items.pattern === '^seg_\\d{4,}$';
  const cap = isCitations ? derivation.limits.maxCitations : derivation.limits.maxListItems;
  const maxItems = Math.min(cap, typeof schema.maxItems === 'number' ? schema.maxItems : cap);
  const minItems = typeof schema.minItems === 'number' ? Math.min(schema.minItems, maxItems) : 0;
  return { type: 'array', items: derive(items, propertyName, derivation), ...(minItems > 0 ? { minItems } : {}), maxItems };
}

function deriveString(schema: JsonSchema, propertyName: string, { scope, limits }: Derivation): JsonSchema {
  if (typeof schema.pattern === 'string') {
    const standIn = patternStandIns[schema.pattern];
    if (!standIn) throw new Error(`analysis schema: no grammar stand-in for the pattern ${schema.pattern}`);
    return standIn(scope);
  }
  if (dateTimeProperties.has(propertyName)) return { type: 'string', format: 'date-time' };
  const own = typeof schema.maxLength === 'number' ? schema.maxLength : limits.maxTextLength;
  return { type: 'string', maxLength: Math.min(own, own >= proseLength ? limits.maxProseLength : limits.maxTextLength) };
}

function nullable(schema: JsonSchema): JsonSchema {
  return { oneOf: [schema, nullSchema] };
}

/** An enum, or `null` only when there is nothing to choose from (a grammar cannot have an empty choice). */
function enumOf(values: readonly unknown[]): JsonSchema {
  return values.length > 0 ? { enum: [...values] } : nullSchema;
}
