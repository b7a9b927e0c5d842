import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileStats } from '../../src/infrastructure/models/ModelDigestCache.js';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';
import { evalModelsDir } from './evalModels.js';
import { PackageFetchError } from './fetchWheel.js';
import { runCommand } from './runCommand.js';

export const referenceRequirementsPath = fileURLToPath(new URL('./referenceRequirements.txt', import.meta.url));

/** A Python virtual environment in EVAL_MODELS_DIR made from a pinned requirements file. */
export interface PythonEnvironment {
  /** For progress lines and errors. */
  label: string;
  /** Its folder in EVAL_MODELS_DIR. */
  folder: string;
  requirementsPath: string;
  /** What it holds, for the progress line. */
  holds: string;
  /** The `models:eval --only` id that makes it. */
  makeWith: string;
  /** Environment variables for pip's install (a package compiled from source reads its build options there). Defaults to none. */
  installEnv?: Record<string, string>;
}

/**
 * The reference environment of conversions and scoring (faster-whisper, whisper-normalizer, jiwer,
 * kaldi-native-fbank) and faster-whisper-server: small enough for every CI run.
 */
export const referenceEnvironment: PythonEnvironment = {
  label: 'python reference', folder: 'venv', requirementsPath: referenceRequirementsPath,
  holds: 'faster-whisper, whisper-normalizer, jiwer, kaldi-native-fbank and faster-whisper-server', makeWith: 'python-reference',
};

/**
 * Resemblyzer's own code with torch, to check the project's GE2E voice encoder against: about
 * 5 GB (torch from PyPI brings its CUDA libraries even for the CPU), so never part of CI.
 */
export const voiceEncoderEnvironment: PythonEnvironment = {
  label: 'voice-encoder reference', folder: 'venv-voice-encoder', requirementsPath: fileURLToPath(new URL('./voiceEncoderRequirements.txt', import.meta.url)),
  holds: 'resemblyzer with torch (about 5 GB)', makeWith: 'voice-encoder-reference',
};

/**
 * llama-cpp-python's OpenAI-compatible chat server, the `openai` language-model provider's real
 * counterpart (scripts/models/chatServer.ts): PyPI has only its sources, so pip compiles
 * llama.cpp (minutes on 2 cores); its own environment, so that the reference one stays quick.
 */
export const chatServerEnvironment: PythonEnvironment = {
  label: 'chat server', folder: 'venv-chat-server', requirementsPath: fileURLToPath(new URL('./chatServerRequirements.txt', import.meta.url)),
  holds: 'llama-cpp-python\'s server (compiled from source)', makeWith: 'chat-server',
  // No multimodal (llava/mtmd) library: the server is only asked for text; every core compiles.
  installEnv: { CMAKE_ARGS: '-DLLAVA_BUILD=OFF', CMAKE_BUILD_PARALLEL_LEVEL: String(availableParallelism()) },
};

/** Lines of pip's output quoted when it fails. */
const quotedPipLines = 8;

/**
 * `directory/<environment's folder>`: its interpreter, the file that records the requirements it
 * was made from, and whether those are today's.
 */
async function pythonEnvironmentIn(directory: string, environment: PythonEnvironment) {
  const venv = join(directory, environment.folder);
  const python = join(venv, 'bin', 'python');
  const stamp = join(venv, 'callscope-requirements.txt');
  const requirements = await readFile(environment.requirementsPath, 'utf8');
  const current = Boolean(await fileStats(python)) && (await readFile(stamp, 'utf8').catch(() => undefined)) === requirements;
  return { venv, python, stamp, requirements, current };
}

/**
 * The Python virtual environment `environment` (default: the reference environment,
 * `EVAL_MODELS_DIR/venv`), made with the system `python3` and pip unless one made from the same
 * requirements is there. Returns its interpreter's path relative to `directory`.
 */
export async function ensurePythonReference(directory: string, log: (line: string) => void, environment: PythonEnvironment = referenceEnvironment): Promise<{ python: string; requirements: string }> {
  const { venv, python, stamp, requirements, current } = await pythonEnvironmentIn(directory, environment);
  const result = { python: relative(directory, python), requirements: relative(packageRoot, environment.requirementsPath) };
  const { label } = environment;
  if (current) {
    log(`${label}: ${environment.folder}/ up to date (cached)`);
    return result;
  }
  await rm(venv, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  log(`${label}: making ${environment.folder}/ with ${environment.holds} (pip)…`);
  const steps: [string, string[], Record<string, string>?][] = [
    ['python3', ['-m', 'venv', venv]],
    [python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--progress-bar', 'off', '-r', environment.requirementsPath], environment.installEnv],
  ];
  for (const [command, args, env] of steps) {
    const { exitCode, output } = await runCommand(command, args, env ? { env } : {});
    if (exitCode !== 0) {
      throw new PackageFetchError(label, `${label}: \`${command} ${args.join(' ')}\` failed (${exitCode === null ? 'could not start' : `exit ${exitCode}`}):\n    ${output.trim().split('\n').slice(-quotedPipLines).join('\n    ')}`);
    }
  }
  await writeFile(stamp, requirements);
  log(`${label}: ${environment.folder}/ ready`);
  return result;
}

/**
 * The absolute path of the venv's interpreter, for tests and scripts that run it. Fails (never
 * skips) with the command that makes it when the venv is missing or was made from other
 * requirements (then it lacks what they pin).
 */
export async function requirePythonReference(directory = evalModelsDir(), environment: PythonEnvironment = referenceEnvironment): Promise<string> {
  const { python, current } = await pythonEnvironmentIn(directory, environment);
  if (!current) {
    throw new Error(`The ${environment.label} environment in ${directory} is missing or older than ${relative(packageRoot, environment.requirementsPath)}: run \`npm run models:eval -- --only ${environment.makeWith}\`.`);
  }
  return python;
}
