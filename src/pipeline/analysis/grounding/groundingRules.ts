import type { TSchema } from 'typebox';
import { AnalysisSchema } from '../../../domain/analysis/analysisSchema.js';

/** How one field of the analysis is checked against the call. */
export type GroundingRule =
  /** A cited segment id: the segment must exist. */
  | 'segment'
  /** A speaker id: the speaker must exist. */
  | 'speaker'
  /** A `YYYY-MM-DD` date: a date expression in the call (or the metadata) must resolve to it. */
  | 'date'
  /** A person's name and nothing else: each of its words must have been said or supplied. */
  | 'name'
  /** Free text: each email, phone number, ISO date (or date-time), amount and name in it must be supported. */
  | 'text'
  /** A number the schema does not bound: a quantity stated in the call, whose digits must have been said. */
  | 'amount';

// Fields are named by their JSON pointer with every list index written as `*`:
// `/actionItems/*/intentMetadata/toName` is the addressee's name of any action item.
/** What grounding checks, read from a schema. */
export interface GroundingRules {
  /** Field pattern → its rule. A field the schema has but this map lacks states nothing to look up (see {@link groundingRulesOf}). */
  fields: ReadonlyMap<string, GroundingRule>;
  /** List pattern → the schema's `minItems`, for the lists that have one. */
  minItems: ReadonlyMap<string, number>;
}

type SchemaNode = { readonly [keyword: string]: unknown };

/**
 * Patterns the schema gives strings, and what each string is. A new pattern needs an entry here
 * (reading the schema throws otherwise): is it an id, a date, or a code from a fixed vocabulary?
 */
const patternRules: Record<string, GroundingRule | null> = {
  '^seg_\\d{4,}$': 'segment',
  '^spk_\\d+$': 'speaker',
  '^\\d{4}-\\d{2}-\\d{2}$': 'date',
  // A clock time (`HH:MM`) goes with its item's date, which is checked: a time alone names nothing to look up.
  '^\\d{2}:\\d{2}$': null,
  // An ISO 4217 currency code.
  '^[A-Z]{3}$': null,
};

/** The service's own notes on how the analysis was made and what was removed (never a model's): not statements about the call. */
const serviceNotes: ReadonlySet<string> = new Set(['/qualityWarnings']);

/** A string property named `name`, or ending in `Name` or `Label` (`toName`, `ownerSpeakerLabel`), holds a person's name and nothing else. */
const isNameProperty = (property: string | undefined) => property !== undefined && /^name$|.Name$|.Label$/.test(property);

/**
 * Every field of `schema` that states something the call must support, and how it is checked,
 * found by walking the schema (so a field added to it is checked without a change here):
 * - a string with a pattern: by the pattern ({@link patternRules}: ids, dates; codes are not checked);
 * - a string of a name property ({@link isNameProperty}): as a name;
 * - any other string, alone or in a list: as free text;
 * - a number without bounds: as an amount (bounded ones are the analyser's scores and durations);
 * - constants, enums (vocabularies), booleans and the service's own notes: nothing to check.
 */
export function groundingRulesOf(schema: TSchema): GroundingRules {
  const fields = new Map<string, GroundingRule>();
  const minItems = new Map<string, number>();
  const add = (pointer: string, rule: GroundingRule) => {
    const known = fields.get(pointer);
    if (known !== undefined && known !== rule) throw new Error(`grounding: ${pointer} is both a ${known} and a ${rule} in the schema`);
    fields.set(pointer, rule);
  };
  const walk = (node: SchemaNode, pointer: string, property: string | undefined): void => {
    if ('const' in node || Array.isArray(node.enum) || serviceNotes.has(pointer)) return;
    if (Array.isArray(node.anyOf)) {
      for (const variant of node.anyOf as SchemaNode[]) walk(variant, pointer, property);
      return;
    }
    switch (node.type) {
      case 'object':
        // Keys the schema does not name (a record) would hold text no pattern here could find: refuse, like an unknown pattern.
        if (node.patternProperties !== undefined || typeof node.additionalProperties === 'object') throw new Error(`grounding: no rule for the open object at ${pointer || '/'}`);
        for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, SchemaNode>)) walk(child, `${pointer}/${name}`, name);
        return;
      case 'array':
        if (typeof node.minItems === 'number' && node.minItems > 0) minItems.set(pointer, node.minItems);
        walk(node.items as SchemaNode, `${pointer}/*`, property);
        return;
      case 'string': {
        const rule = stringRule(node, pointer, property);
        if (rule) add(pointer, rule);
        return;
      }
      case 'number':
      case 'integer':
        if (node.minimum === undefined && node.maximum === undefined) add(pointer, 'amount');
        return;
      case 'boolean':
      case 'null':
        return;
      default:
        throw new Error(`grounding: no rule for the schema at ${pointer || '/'}`);
    }
  };
  walk(schema as unknown as SchemaNode, '', undefined);
  return { fields, minItems };
}

function stringRule(node: SchemaNode, pointer: string, property: string | undefined): GroundingRule | null {
  if (typeof node.pattern === 'string') {
    const rule = patternRules[node.pattern];
    if (rule === undefined) throw new Error(`grounding: no rule for the pattern ${node.pattern} of ${pointer}`);
    return rule;
  }
  return isNameProperty(property) ? 'name' : 'text';
}

/** The rules for AnalysisSchema, its action items included. */
export const analysisGroundingRules: GroundingRules = groundingRulesOf(AnalysisSchema);

// ['actionItems', '0', 'title'] → /actionItems/*/title
/** The pattern of a field's path: its list indexes as `*`. */
export function fieldPatternOf(path: readonly string[]): string {
  return path.map((segment) => (/^\d+$/.test(segment) ? '/*' : `/${segment}`)).join('');
}
