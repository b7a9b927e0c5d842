import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

// onnxruntime-node's telemetry (see src/infrastructure/inference/onnxRuntimeTelemetry.ts) keeps
// its device id and event queue under $HOME/.cache/Microsoft/DeveloperTools/.onnxruntime: a
// home folder of its own shows whether the runtime started it.

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../../..');
const shared = resolve(repoRoot, '../shared');
const scratch = mkdtempSync(join(tmpdir(), 'callscope-ort-telemetry-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** This process's environment without the opt-out, so only the product can set it. */
function environment(home: string): NodeJS.ProcessEnv {
  const { ORT_DISABLE_TELEMETRY: _ignored, ...rest } = process.env;
  return { ...rest, HOME: home, DATA_DIR: join(home, 'data') };
}

test('callscope diarize runs the segmentation model with onnxruntime\'s telemetry off: no device id, no event queue', async () => {
  const home = join(scratch, 'cli');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', 'diarize', join(shared, 'audio/jfk/jfk.wav')], {
    cwd: repoRoot,
    env: { ...environment(home), SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'), EMBEDDING_MODEL: join(home, 'none.onnx') },
  });
  expect(stdout).toMatch(/^SPEAKER jfk 1 /);
  expect(existsSync(join(home, '.cache/Microsoft'))).toBe(false);
}, 60_000);

test('the worker pool turns it off in the main thread, where its threads\' runtime reads it, before it starts any', async () => {
  const script = 'await import("./src/infrastructure/workers/WorkerPool.ts"); process.stdout.write(String(process.env.ORT_DISABLE_TELEMETRY));';
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, env: environment(join(scratch, 'pool')) });
  expect(stdout).toBe('1');
}, 30_000);
