/**
 * Prints the README's configuration table from the config schema (the single source):
 * `npx tsx scripts/configTable.ts`. test/readme.test.ts fails when the README's copy drifts.
 */
import { ConfigSchema } from '../src/config/configSchema.js';

export function configTableMarkdown(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const { description = '', default: fallback } = schema as { description?: string; default?: unknown };
    return `| \`${name}\` | ${description.replace(/ Defaults to .*$/, '')} | ${fallback === undefined ? 'unset' : `\`${String(fallback)}\``} |`;
  });
  return ['| variable | meaning | default |', '|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(configTableMarkdown());
