import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileStats } from '../../src/infrastructure/models/ModelDigestCache.js';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';
import { PackageFetchError } from './fetchWheel.js';
import { runCommand } from './runCommand.js';

export const referenceRequirementsPath = fileURLToPath(new URL('./referenceRequirements.txt', import.meta.url));

/** Lines of pip's output quoted when it fails. */
const quotedPipLines = 8;

/**
 * The Python virtual environment `EVAL_MODELS_DIR/venv` with the pinned reference
 * implementations (faster-whisper, whisper-normalizer, jiwer), made with the system `python3`
 * and pip unless one made from the same requirements is there. Returns its interpreter's path
 * relative to `directory`.
 */
export async function ensurePythonReference(directory: string, log: (line: string) => void): Promise<{ python: string; requirements: string }> {
  const venv = join(directory, 'venv');
  const python = join(venv, 'bin', 'python');
  const stamp = join(venv, 'callscope-requirements.txt');
  const requirements = await readFile(referenceRequirementsPath, 'utf8');
  const result = { python: relative(directory, python), requirements: relative(packageRoot, referenceRequirementsPath) };
  if ((await fileStats(python)) && (await readFile(stamp, 'utf8').catch(() => undefined)) === requirements) {
    log('python reference: venv up to date (cached)');
    return result;
  }
  await rm(venv, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  log('python reference: making venv/ with faster-whisper, whisper-normalizer and jiwer (pip)…');
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', venv]],
    [python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--progress-bar', 'off', '-r', referenceRequirementsPath]],
  ];
  for (const [command, args] of steps) {
    const { exitCode, output } = await runCommand(command, args);
    if (exitCode !== 0) {
      throw new PackageFetchError('python reference', `python reference: \`${command} ${args.join(' ')}\` failed (${exitCode === null ? 'could not start' : `exit ${exitCode}`}):\n    ${output.trim().split('\n').slice(-quotedPipLines).join('\n    ')}`);
    }
  }
  await writeFile(stamp, requirements);
  log('python reference: venv ready');
  return result;
}
