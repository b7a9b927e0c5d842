import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';
import { requirePythonReference } from './pythonReference.js';

/**
 * faster-whisper-server (PyPI, 0.0.3, andyjjrt's; not speaches, once also called
 * faster-whisper-server): a small FastAPI app serving faster-whisper behind OpenAI's
 * `POST /v1/audio/transcriptions`, i.e. a real site transcription server for
 * `TRANSCRIPTION_PROVIDER=openai`, run from the Python reference environment (EVAL_MODELS_DIR/venv,
 * made by `npm run models:eval`) for tests and evaluation scripts. Never part of the service.
 */

export interface FasterWhisperServerOptions {
  /** A CTranslate2 Whisper model folder (an evaluation model's `ct2Directory`). */
  modelDirectory: string;
  /** CPU threads CTranslate2 decodes with (faster-whisper's `cpu_threads`). Defaults to `availableParallelism()`. */
  threads?: number;
  /** Receives each line the server prints (its access log and errors; never transcript text). Defaults to none. */
  log?: (line: string) => void;
}

export interface FasterWhisperServer {
  /** `http://127.0.0.1:<port>/v1/audio/transcriptions`: the `TRANSCRIPTION_URL` to give the `openai` provider. */
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL after {@link stopGraceMs}) and removes its configuration file. */
  stop(): Promise<void>;
}

/** Longest wait for `/health` after the start (Python imports faster-whisper, CTranslate2 and FastAPI first: ~5 s on 2 idle cores), ms. */
const startTimeoutMs = 90_000;
/** Wait between `/health` probes while it starts, ms. */
const probeIntervalMs = 200;
/** How long the server has to exit after SIGTERM before it is killed, ms. */
const stopGraceMs = 5000;
/** The server's last output lines quoted when it fails to start. */
const quotedLines = 12;

/**
 * The name the model is served under. The server reads the model from the form field
 * `model_name` (default `whisper-1`), not OpenAI's `model` that the service sends, so every
 * request asks for `whisper-1`, whatever `TRANSCRIPTION_MODEL_NAME` says.
 */
const servedModelName = 'whisper-1';

/**
 * Starts faster-whisper-server on a free loopback port with the model in `modelDirectory` and
 * resolves once it answers `/health`. The model itself loads on the first request (the server's
 * way), so the first transcription also pays the load (about a second for tiny.en).
 *
 * It runs in the server's configuration-file mode, the only one that takes faster-whisper's
 * model options: on the CPU, float32 compute (what CTranslate2 picks for float16 weights on a
 * CPU anyway, as scripts/models/fasterWhisperReference.py asks), `threads` CPU threads. Its
 * decoding is the server's own: faster-whisper's defaults (beam 5, temperature fallback, no VAD).
 * `HF_HUB_OFFLINE` keeps it from ever reaching the model hub.
 *
 * Fails, naming the command that fixes it, when the Python reference environment is missing or
 * stale; fails quoting the server's last lines when it exits or does not answer in time.
 */
export async function startFasterWhisperServer(options: FasterWhisperServerOptions): Promise<FasterWhisperServer> {
  const python = await requirePythonReference();
  const port = await freeLoopbackPort();
  const configDirectory = await mkdtemp(join(tmpdir(), 'callscope-faster-whisper-server-'));
  const configPath = join(configDirectory, 'models.yaml');
  // JSON is YAML: no hand-made quoting of the model's path.
  await writeFile(configPath, JSON.stringify({
    models: [{
      name: servedModelName,
      path: options.modelDirectory,
      model_options: { device: 'cpu', compute_type: 'float32', cpu_threads: options.threads ?? availableParallelism() },
    }],
  }));

  const child = spawn(python, ['-m', 'faster_whisper_server', '--config', configPath, '--host', '127.0.0.1', '--port', String(port), '--log-level', 'info'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1', HF_HUB_OFFLINE: '1' },
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
    await rm(configDirectory, { recursive: true, force: true });
  };
  const failure = async (reason: string) => {
    await stop();
    return new Error(`faster-whisper-server ${reason}; its last lines:\n    ${lastLines.join('\n    ') || '(none)'}`);
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (spawnError) throw await failure(`could not be started with ${python} (${spawnError.message})`);
    if (child.exitCode !== null || child.signalCode !== null) throw await failure(`exited while starting (${child.exitCode ?? child.signalCode})`);
    const healthy = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) }).then((response) => response.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) throw await failure(`did not answer ${baseUrl}/health within ${startTimeoutMs / 1000} s of its start`);
    await new Promise((resolve) => setTimeout(resolve, probeIntervalMs));
  }
  return { url: `${baseUrl}/v1/audio/transcriptions`, stop };
}
