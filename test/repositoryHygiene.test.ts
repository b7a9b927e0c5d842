import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * An absolute path of a machine: a home, a work tree or a temp folder with at least one more
 * segment after it (the checkout's own parent folder, someone's home), at the start of a word
 * or string. A path inside the tree (`calls/<id>/work/<run>`) is relative and does not match.
 */
const machinePath = /(?:^|[\s'"`(=:])\/(?:work|home|root|Users|tmp)\/[A-Za-z0-9._-]+\//m;

/** Files whose text may legitimately hold such strings: generated lock data, and binary fixtures. */
const skipped = [/^package-lock\.json$/, /\.(wav|mp3|m4a|ogg|onnx|bin|gguf|png|jpg|ico)$/];

test('no tracked file names an absolute path of a machine (name files relative to the repository or ../shared)', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: projectRoot, encoding: 'utf8' }).split('\n').filter(Boolean)
    .filter((file) => !skipped.some((pattern) => pattern.test(file)));
  expect(files.length).toBeGreaterThan(100);
  const offenders = files.flatMap((file) => {
    const text = readFileSync(join(projectRoot, file), 'utf8');
    return text.split('\n').flatMap((line, index) => (machinePath.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 120)}`] : []));
  });
  expect(offenders).toEqual([]);
});
