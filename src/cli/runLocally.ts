import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadResources } from '../infrastructure/workers/WorkerResources.js';
import { StageFailure } from '../pipeline/StageFailure.js';
import { LocalPipelineRun } from './LocalPipelineRun.js';

/**
 * Runs pipeline work for a command: a temp folder (always removed), Ctrl-C aborting the running
 * stage, progress on stderr when it is a terminal. Resolves to the exit code: 0 done, 1 a stage
 * failed (its reason on stderr), 130 interrupted. stdout is left to the command's JSON or RTTM.
 */
export async function runLocally(name: string, work: (run: LocalPipelineRun, workDir: string) => Promise<void>): Promise<number> {
  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('Interrupted'));
  process.once('SIGINT', interrupt);
  const showProgress = process.stderr.isTTY;
  const run = new LocalPipelineRun({
    signal: controller.signal,
    ...(showProgress ? { onProgress: (stage: string, fraction: number) => process.stderr.write(`\r${stage} ${Math.round(fraction * 100)}%   `) } : {}),
  });
  const workDir = await mkdtemp(join(tmpdir(), `callscope-${name}-`));
  try {
    await work(run, workDir);
    if (showProgress) process.stderr.write('\r\x1b[K');
    for (const warning of run.warnings) console.error(`warning: ${warning}`);
    return 0;
  } catch (error) {
    if (showProgress) process.stderr.write('\n');
    if (controller.signal.aborted) {
      console.error('Interrupted.');
      return 130;
    }
    if (error instanceof StageFailure) {
      console.error(error.reason);
      return 1;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupt);
    await rm(workDir, { recursive: true, force: true });
    // Worker tasks ran on this thread, so models they loaded live in its resources.
    await threadResources.disposeAll();
  }
}
