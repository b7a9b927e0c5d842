/**
 * Writes the JSON Schema documents of the stored artifacts from their single source (the TypeBox
 * schemas in src/domain): `docs/schemas/analysis-v2.schema.json`. A test checks the committed
 * file is current. Run with `npm run schemas`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { analysisJsonSchema } from '../src/domain/analysis/analysisJsonSchema.js';

const target = resolve(import.meta.dirname, '../docs/schemas/analysis-v2.schema.json');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, analysisJsonSchema());
console.log(`wrote ${target}`);
