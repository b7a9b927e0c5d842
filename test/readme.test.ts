import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ErrorCodes } from '../src/http/errors.js';
import { configTableBlock, configTableMarkdown } from '../scripts/configTable.js';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

const readme = read('README.md');
/** Every Markdown file of the repository root and docs/, as paths relative to the repository. */
const markdownFiles = [
  ...readdirSync(root).filter((name) => name.endsWith('.md')),
  ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
];

test('docs/configuration.md holds exactly the configuration table generated from the config schema', () => {
  // Regenerate with: npm run docs:config (npx tsx scripts/configTable.ts --write)
  expect(configTableBlock(read('docs/configuration.md'))).toBe(configTableMarkdown());
});

test('docs/api.md lists every error code', () => {
  const api = read('docs/api.md');
  for (const code of Object.keys(ErrorCodes)) expect(api, code).toContain(`\`${code}\``);
});

test('the README is a front door: at most 300 lines, with the two quick-start commands', () => {
  expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  expect(readme).toContain('npm ci && LOCAL_AUTH=true npm start');
  expect(readme).toMatch(/^npm test\b/m);
});

test('every relative link in the README and docs/ points at a file that exists', () => {
  const broken: string[] = [];
  for (const file of ['README.md', ...markdownFiles.filter((path) => path.startsWith('docs/'))]) {
    // Inline links and images: [text](target) or [text](target "title").
    for (const [, target = ''] of read(file).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^(https?:|mailto:|#)/i.test(target)) continue;
      const path = decodeURIComponent(target.replace(/#.*$/, ''));
      if (!existsSync(new URL(path, new URL(file, root)))) broken.push(`${file}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

test('no Markdown file names an absolute path of a machine', () => {
  for (const file of markdownFiles) {
    expect(read(file), file).not.toMatch(/(^|[\s`'"(])\/(work|home|root|Users|tmp)\//m);
  }
});
