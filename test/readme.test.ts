import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ConfigSchema } from '../src/config/configSchema.js';
import { ErrorCodes } from '../src/http/errors.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README documents every configuration variable with its default', () => {
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, name).toBeDefined();
    const fallback = (schema as { default?: unknown }).default;
    if (fallback !== undefined) expect(row, name).toContain(`\`${String(fallback)}\``);
  }
});

test('the README lists every error code', () => {
  for (const code of Object.keys(ErrorCodes)) expect(readme, code).toContain(`\`${code}\``);
});
