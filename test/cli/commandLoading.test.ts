import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { commandLoaders } from '../../src/cli/commandLoaders.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');
const shared = resolve(repoRoot, '../shared');
const scratch = mkdtempSync(join(tmpdir(), 'callscope-command-loading-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Packages of the server, the database, the worker pool and the analysis: none of them diarizes. */
const NOT_FOR_DIARIZATION = ['fastify', 'better-sqlite3', 'drizzle-orm', 'pg', 'piscina', 'node-llama-cpp', 'chrono-node', 'docx', 'pino'];

test('every command loader gives the command named by its key', async () => {
  for (const [name, load] of Object.entries(commandLoaders)) expect((await load()).name).toBe(name);
});

test('callscope diarize (the real CLI, real segmentation model) loads no package of the server, the database or the analysis', async () => {
  const loadsPath = join(scratch, 'loads.txt');
  const hooks = pathToFileURL(join(repoRoot, 'test/helpers/recordModuleLoads.mjs')).href;
  const registerHooks = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(hooks)});`)}`;
  const { stdout } = await run(process.execPath, ['--import', registerHooks, '--import', 'tsx', 'src/cli/callscope.ts', 'diarize', join(shared, 'audio/jfk/jfk.wav')], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: scratch, SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'), RECORD_MODULE_LOADS: loadsPath },
  });
  expect(stdout).toMatch(/^SPEAKER jfk 1 /);
  const packages = new Set(readFileSync(loadsPath, 'utf8').split('\n').flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
  expect(packages).toContain('onnxruntime-node');
  expect(NOT_FOR_DIARIZATION.filter((name) => packages.has(name))).toEqual([]);
}, 60_000);
