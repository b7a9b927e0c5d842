import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { evalModelsDir } from './evalModels.js';
import { referenceEnvironment, requirePythonReference, type PythonEnvironment } from './pythonReference.js';

/** Lines of a failed script's stderr quoted in the error. */
const quotedErrorLines = 10;

/**
 * Runs `script` (a Python file beside this one, e.g. `normaliseEnglish.py`) with the interpreter
 * of `environment` (the reference environment unless said; `requirePythonReference`), `input` as JSON on its stdin,
 * offline (no model hub); resolves to what it wrote on stdout. Fails with the end of its stderr
 * when it exits non-zero.
 */
export async function runPythonReference(script: string, input: unknown, directory = evalModelsDir(), environment: PythonEnvironment = referenceEnvironment): Promise<string> {
  const python = await requirePythonReference(directory, environment);
  const scriptPath = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return new Promise((resolvePromise, reject) => {
    const child = spawn(python, [scriptPath], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HF_HUB_OFFLINE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${script} failed (exit ${code}):\n${stderr.trim().split('\n').slice(-quotedErrorLines).join('\n')}`));
      else resolvePromise(stdout);
    });
    child.stdin.end(JSON.stringify(input));
  });
}
