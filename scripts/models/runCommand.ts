import { spawn } from 'node:child_process';

/** Runs a command (with `env` added to this process's environment), collecting stdout and stderr together; exit code null when it could not start. */
export function runCommand(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.on('error', (error) => resolve({ exitCode: null, output: `${output}\n${error.message}` }));
    child.on('close', (code) => resolve({ exitCode: code ?? 1, output }));
  });
}
