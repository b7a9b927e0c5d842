import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { staleBuildReason } from '../../scripts/buildFreshness.mjs';

// `npm start` builds only when the build is missing or older than its sources.

let root: string;
const at = (path: string, secondsAgo: number) => {
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(join(root, path), when, when);
};
const write = (path: string, secondsAgo: number) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), '// x\n');
  at(path, secondsAgo);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'callscope-freshness-'));
  write('src/server.ts', 100);
  write('src/http/routes/calls.ts', 90);
  write('src/admin/ui/status.html', 10); // not a build input: served from src/
  write('tsconfig.json', 100);
  write('tsconfig.build.json', 100);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('staleBuildReason', () => {
  test('no build yet', () => {
    expect(staleBuildReason(root)).toBe('no build yet');
  });

  test('a build newer than every source is current (files that are not build inputs do not count)', () => {
    write('dist/server.js', 50);
    expect(staleBuildReason(root)).toBeUndefined();
  });

  test('a source changed after the build, however deep, makes it stale', () => {
    write('dist/server.js', 50);
    at('src/http/routes/calls.ts', 5);
    expect(staleBuildReason(root)).toBe('sources changed since the last build');
  });

  test('a tsconfig changed after the build makes it stale', () => {
    write('dist/server.js', 50);
    at('tsconfig.build.json', 5);
    expect(staleBuildReason(root)).toBe('sources changed since the last build');
  });
});
