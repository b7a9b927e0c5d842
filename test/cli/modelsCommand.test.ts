import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { sharedFiles, truncatedCopy } from '../infrastructure/models/modelFixtures.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'callscope-models-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The real CLI as a child process, with the shared development models and a scratch data folder. */
function callscope(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', 'models', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: scratch,
      SEGMENTATION_MODEL: sharedFiles.segmentation,
      WHISPER_MODEL: sharedFiles.whisper,
      VAD_MODEL: sharedFiles.vad,
      EMBEDDING_MODEL: join(scratch, 'no-embedding.onnx'),
      LLM_MODEL: join(scratch, 'no-llm.gguf'),
      ...env,
    },
  });
}

const failureOf = (promise: Promise<unknown>) => promise.then(() => ({ code: 0, stdout: '', stderr: '' }), (error: unknown) => error as { code: number; stdout: string; stderr: string });

test('callscope models status prints a table of the slots and exits 0 when every required model is verified (needs the shared model files)', async () => {
  const { stdout } = await callscope(['status']);
  expect(stdout).toMatch(/^SLOT\s+FILE\s+SIZE\s+SHA256\s+CHECK\s+MESSAGE/);
  expect(stdout).toMatch(/segmentation \*\s+\S*pyannote-segmentation-3\.0\.fp16\.onnx\s+2\.9 MiB\s+f3dba0c91270\s+ok\s+pyannote-segmentation-3\.0-fp16, verified/);
  expect(stdout).toMatch(/embedding\s+\S+\s+-\s+-\s+missing\s+optional/);
  expect(stdout).toMatch(/Development files are in use/);
  expect(existsSync(join(scratch, 'models-verified.json'))).toBe(true);
}, 90_000);

test('callscope models status exits 1 when a required model is missing or damaged', async () => {
  const missing = await failureOf(callscope(['status'], { WHISPER_MODEL: join(scratch, 'missing-whisper.bin') }));
  expect(missing.code).toBe(1);
  expect(missing.stdout).toMatch(/whisper \*.*missing\s+required, not installed/);

  const damaged = await truncatedCopy(sharedFiles.segmentation, join(scratch, 'pyannote-segmentation-3.0.fp16.onnx'));
  const mismatch = await failureOf(callscope(['status'], { SEGMENTATION_MODEL: damaged }));
  expect(mismatch.code).toBe(1);
  expect(mismatch.stdout).toMatch(/segmentation \*.*checksum mismatch\s+damaged or truncated/);
}, 90_000);

test('callscope models status --json prints the slots as the inventory reports them', async () => {
  const { stdout } = await callscope(['status', '--json']);
  const slots = JSON.parse(stdout) as { slot: string; check: string; required: boolean }[];
  expect(slots.map((slot) => [slot.slot, slot.check, slot.required])).toEqual([
    ['segmentation', 'ok', true], ['whisper', 'ok', true], ['embedding', 'missing', false], ['vad', 'ok', false], ['llm', 'missing', false],
  ]);
}, 90_000);

test('callscope models import refuses a damaged model file (exit 1) and installs nothing', async () => {
  const stick = join(scratch, 'stick');
  await mkdir(stick, { recursive: true });
  await truncatedCopy(sharedFiles.vad, join(stick, 'silero-vad-v6.2.0-ggml.bin'));
  const target = join(scratch, 'vad.bin');
  const result = await failureOf(callscope(['import', stick], { VAD_MODEL: target }));
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/^refused\s+silero-vad-v6\.2\.0-ggml\.bin: damaged or truncated/m);
  expect(existsSync(target)).toBe(false);
}, 90_000);

test('wrong arguments exit 64 with the usage', async () => {
  const cases = [['verify'], ['fetch', '--slot', 'speech'], ['import', join(scratch, 'absent')]];
  const results = await Promise.all(cases.map((args) => failureOf(callscope(args))));
  results.forEach((result, index) => {
    expect(result.code, cases[index]!.join(' ')).toBe(64);
    expect(result.stderr).toMatch(/Usage: callscope models/);
  });
}, 90_000);
