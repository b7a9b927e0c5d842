import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirePythonReference } from './pythonReference.js';
import { startPythonServer } from './startPythonServer.js';

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
  /** Stops the server (SIGTERM, then SIGKILL: `startPythonServer`) and removes its configuration file. */
  stop(): Promise<void>;
}

/** Longest wait for `/health` after the start (Python imports faster-whisper, CTranslate2 and FastAPI first: ~5 s on 2 idle cores), ms. */
const startTimeoutMs = 90_000;

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
  const server = await startPythonServer({
    name: 'faster-whisper-server',
    python,
    args: (port) => ['-m', 'faster_whisper_server', '--config', configPath, '--host', '127.0.0.1', '--port', String(port), '--log-level', 'info'],
    readyPath: '/health',
    startTimeoutMs,
    ...(options.log ? { log: options.log } : {}),
    cleanUp: () => rm(configDirectory, { recursive: true, force: true }),
  });
  return { url: `${server.baseUrl}/v1/audio/transcriptions`, stop: server.stop };
}
