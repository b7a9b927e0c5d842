import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ErrorCodes } from '../src/http/errors.js';
import { configTableMarkdown } from '../scripts/configTable.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README\'s configuration table is the one generated from the config schema', () => {
  // Regenerate with: npx tsx scripts/configTable.ts
  expect(readme).toContain(configTableMarkdown());
});

test('the README lists every error code', () => {
  for (const code of Object.keys(ErrorCodes)) expect(readme, code).toContain(`\`${code}\``);
});
