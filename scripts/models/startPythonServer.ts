import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';

/**
 * A Python HTTP server of the evaluation (faster-whisper-server, llama-cpp-python's server) run
 * from one of EVAL_MODELS_DIR's virtual environments on a free loopback port, for tests and
 * `eval:*` scripts. Never part of the service.
 */
export interface PythonServerOptions {
  /** Its name in errors ("faster-whisper-server"). */
  name: string;
  /** The venv's interpreter. */
  python: string;
  /** The arguments after `python`, given the port it is to listen on (always 127.0.0.1). */
  args: (port: number) => string[];
  /** The path answered once the server is ready (`/health`). */
  readyPath: string;
  /** Longest wait for `readyPath` after the start, ms. */
  startTimeoutMs: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Receives each line the server prints (its access log and errors; never transcript text). Defaults to none. */
  log?: (line: string) => void;
  /** Runs once the server has stopped (or failed to start): removes what was made for it. */
  cleanUp?: () => Promise<void>;
}

export interface PythonServer {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** Stops the server (SIGTERM, then SIGKILL after {@link stopGraceMs}) and cleans up. */
  stop(): Promise<void>;
}

/** Wait between readiness probes while it starts, ms. */
const probeIntervalMs = 200;
/** How long the server has to exit after SIGTERM before it is killed, ms. */
const stopGraceMs = 5000;
/** The server's last output lines quoted when it fails to start. */
const quotedLines = 12;

/**
 * Starts the server and resolves once `readyPath` answers 2xx. Fails quoting the server's last
 * lines when it cannot be started, exits, or does not answer in time. The process is killed
 * with this one should the caller never stop it.
 */
export async function startPythonServer(options: PythonServerOptions): Promise<PythonServer> {
  const port = await freeLoopbackPort();
  const child = spawn(options.python, options.args(port), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1', HF_HUB_OFFLINE: '1', ...options.env },
  });
  let lastLines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      lastLines = [...lastLines.slice(1 - quotedLines), line];
      options.log?.(line);
    });
  }
  let spawnError: Error | undefined;
  child.once('error', (error) => { spawnError = error; });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && !spawnError) {
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
      await exited;
      clearTimeout(late);
    }
    process.removeListener('exit', killOnExit);
    await options.cleanUp?.();
  };
  const failure = async (reason: string) => {
    await stop();
    return new Error(`${options.name} ${reason}; its last lines:\n    ${lastLines.join('\n    ') || '(none)'}`);
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + options.startTimeoutMs;
  for (;;) {
    if (spawnError) throw await failure(`could not be started with ${options.python} (${spawnError.message})`);
    if (child.exitCode !== null || child.signalCode !== null) throw await failure(`exited while starting (${child.exitCode ?? child.signalCode})`);
    const ready = await fetch(`${baseUrl}${options.readyPath}`, { signal: AbortSignal.timeout(2000) }).then((response) => response.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw await failure(`did not answer ${baseUrl}${options.readyPath} within ${options.startTimeoutMs / 1000} s of its start`);
    await new Promise((resolve) => setTimeout(resolve, probeIntervalMs));
  }
  return { baseUrl, stop };
}
