/**
 * The configuration table of docs/configuration.md, generated from the config schema (the single
 * source).
 * - `npx tsx scripts/configTable.ts` prints the table.
 * - `npx tsx scripts/configTable.ts --write` (`npm run docs:config`) rewrites the block between
 *   the markers `<!-- config-table:start -->` and `<!-- config-table:end -->` in
 *   docs/configuration.md, and nothing else of the file.
 * test/readme.test.ts fails when the page's copy drifts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigSchema } from '../src/config/configSchema.js';

export const configTableStart = '<!-- config-table:start -->';
export const configTableEnd = '<!-- config-table:end -->';
export const configurationPage = new URL('../docs/configuration.md', import.meta.url);

export function configTableMarkdown(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const { description = '', default: fallback } = schema as { description?: string; default?: unknown };
    return `| \`${name}\` | ${description.replace(/ Defaults to .*$/, '')} | ${fallback === undefined ? 'unset' : `\`${String(fallback)}\``} |`;
  });
  return ['| variable | meaning | default |', '|---|---|---|', ...rows].join('\n');
}

/** The text between the markers (without the newlines next to them); throws when a marker is missing or out of order. */
export function configTableBlock(page: string): string {
  const start = page.indexOf(configTableStart);
  const end = page.indexOf(configTableEnd);
  if (start < 0 || end < 0 || end < start) throw new Error(`docs/configuration.md must contain ${configTableStart} followed by ${configTableEnd}`);
  return page.slice(start + configTableStart.length, end).replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}

/** The page with the block between the markers replaced by the current table. */
export function withCurrentConfigTable(page: string): string {
  configTableBlock(page);
  const start = page.indexOf(configTableStart) + configTableStart.length;
  const end = page.indexOf(configTableEnd);
  return `${page.slice(0, start)}\n${configTableMarkdown()}\n${page.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    const page = readFileSync(configurationPage, 'utf8');
    const updated = withCurrentConfigTable(page);
    if (updated === page) console.log('docs/configuration.md: the configuration table is current.');
    else {
      writeFileSync(configurationPage, updated);
      console.log('docs/configuration.md: configuration table rewritten from the config schema.');
    }
  } else console.log(configTableMarkdown());
}
