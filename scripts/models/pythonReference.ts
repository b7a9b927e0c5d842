import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileStats } from '../../src/infrastructure/models/ModelDigestCache.js';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';
import { evalModelsDir } from './evalModels.js';
import { PackageFetchError } from './fetchWheel.js';
import { runCommand } from './runCommand.js';

export const referenceRequirementsPath = fileURLToPath(new URL('./referenceRequirements.txt', import.meta.url));

/** Lines of pip's output quoted when it fails. */
const quotedPipLines = 8;

/**
 * `directory/venv`: its interpreter, the file that records the requirements it was made from,
 * and whether those are today's (scripts/models/referenceRequirements.txt).
 */
async function pythonReferenceIn(directory: string) {
  const venv = join(directory, 'venv');
  const python = join(venv, 'bin', 'python');
  const stamp = join(venv, 'callscope-requirements.txt');
  const requirements = await readFile(referenceRequirementsPath, 'utf8');
  const current = Boolean(await fileStats(python)) && (await readFile(stamp, 'utf8').catch(() => undefined)) === requirements;
  return { venv, python, stamp, requirements, current };
}

/**
 * The Python virtual environment `EVAL_MODELS_DIR/venv` with the pinned reference
 * implementations (faster-whisper, whisper-normalizer, jiwer) and faster-whisper-server, made
 * with the system `python3` and pip unless one made from the same requirements is there.
 * Returns its interpreter's path relative to `directory`.
 */
export async function ensurePythonReference(directory: string, log: (line: string) => void): Promise<{ python: string; requirements: string }> {
  const { venv, python, stamp, requirements, current } = await pythonReferenceIn(directory);
  const result = { python: relative(directory, python), requirements: relative(packageRoot, referenceRequirementsPath) };
  if (current) {
    log('python reference: venv up to date (cached)');
    return result;
  }
  await rm(venv, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  log('python reference: making venv/ with faster-whisper, whisper-normalizer, jiwer and faster-whisper-server (pip)…');
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

/**
 * The absolute path of the venv's interpreter, for tests and scripts that run it. Fails (never
 * skips) with the command that makes it when the venv is missing or was made from other
 * requirements (then it lacks what they pin).
 */
export async function requirePythonReference(directory = evalModelsDir()): Promise<string> {
  const { python, current } = await pythonReferenceIn(directory);
  if (!current) {
    throw new Error(`The Python reference environment in ${directory} is missing or older than ${relative(packageRoot, referenceRequirementsPath)}: run \`npm run models:eval -- --only python-reference\` (or \`npm run models:eval\`).`);
  }
  return python;
}
