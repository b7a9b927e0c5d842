import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ProcessingLock, ProcessingLockHeld } from '../../src/processing/ProcessingLock.js';

let dataDir: string;
beforeEach(() => { dataDir = mkdtempSync(join(tmpdir(), 'callscope-lock-')); });
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

test('a DATA_DIR processed by another live process is refused, naming its pid', async () => {
  const other = spawn('sleep', ['30']);
  try {
    writeFileSync(join(dataDir, 'processing.lock'), String(other.pid));
    expect(() => new ProcessingLock(dataDir).acquire()).toThrow(ProcessingLockHeld);
    expect(() => new ProcessingLock(dataDir).acquire()).toThrow(`pid ${other.pid}`);
  } finally {
    other.kill('SIGKILL');
  }
});

test('the lock of a process that died (killed, crashed) is taken over, and released on stop', async () => {
  const dead = spawn('true');
  await new Promise((resolve) => dead.on('exit', resolve));
  writeFileSync(join(dataDir, 'processing.lock'), String(dead.pid));
  const lock = new ProcessingLock(dataDir);
  lock.acquire();
  expect(readFileSync(join(dataDir, 'processing.lock'), 'utf8')).toBe(String(process.pid));
  lock.release();
  expect(() => readFileSync(join(dataDir, 'processing.lock'))).toThrow();
});

test('the same process may start processing again (a restart within one process)', () => {
  new ProcessingLock(dataDir).acquire();
  expect(() => new ProcessingLock(dataDir).acquire()).not.toThrow();
});
