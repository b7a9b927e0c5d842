import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { postMultipart, type HttpAnswer } from '../../infrastructure/inference/inferenceRequests.js';
import { modelFileVersion } from '../../infrastructure/models/modelLoadFailures.js';
import { sameFileVersion, type FileVersion } from '../../infrastructure/models/ModelDigestCache.js';
import { packageRoot } from '../../infrastructure/packageRoot.js';
import { watchResidentMemory } from '../../infrastructure/processes/processStatus.js';
import type { StageContext } from '../StageContext.js';
import { freeLoopbackPort } from '../../infrastructure/processes/freeLoopbackPort.js';
import { probeHttp } from '../../infrastructure/health/probeHttp.js';
import { whisperDtwArguments, whisperDtwFor, type WhisperDtwSetting } from './whisperDtw.js';

/** Where `npm run build:native` (scripts/buildWhisper.mjs) puts whisper-server. */
export const defaultWhisperServerPath = join(packageRoot, 'native', 'bin', 'whisper-server');

export interface WhisperServerSettings {
  binaryPath: string;
  modelPath: string;
  /** Silero VAD ggml model; the server runs with `--vad` when the file is there at its start (and restarts when it appears or changes). */
  vadModelPath?: string;
  /** CPU threads per request. */
  threads: number;
  /** False passes `--no-gpu`. */
  useGpu: boolean;
  /** How words are timed (`WHISPER_DTW`), fixed at each start: DTW is a start flag of whisper-server. Defaults to `"auto"`. */
  dtw?: WhisperDtwSetting;
  /** Resident memory above which the server is killed, bytes (a damaged model can make whisper.cpp allocate without bound). Defaults to twice the model file plus 2 GiB, as for whisper-cli. */
  maxResidentBytes?: number;
}

/** What one request to the server returned: its answer and the stderr lines logged meanwhile that the stage reads. */
export interface WhisperServerAnswer {
  answer: HttpAnswer;
  /** VAD mapping and error lines (numbers and whisper's words only: matched, never logged). */
  diagnosticLines: string[];
}

/** The server could not be started, or died; `diagnosticLines` are its last stderr lines of the kinds the stage reads. */
export class WhisperServerFailure extends Error {
  constructor(message: string, readonly diagnosticLines: readonly string[], readonly exceededMemory = false) {
    super(message);
    this.name = 'WhisperServerFailure';
  }
}

/** stderr lines kept for the stage: errors, and VAD's time mapping. */
const diagnosticLine = /^error:|failed|vad_segment_info:/;
/** `whisper_print_progress_callback: progress =  40%` (with `-pp`). */
const progressLine = /progress =\s*(\d+)%/;
/** Longest wait for a running server's `/health` before a call, ms (it answers in under one while idle). */
const healthTimeoutMs = 2000;
/** Longest wait for a started server to answer `/health` (it loads the model first), ms. */
const startTimeoutMs = 120_000;
/** How often the server's resident memory is read, ms. */
const memoryCheckIntervalMs = 250;
/** Bound on the lines kept per request (a VAD line per stretch of speech). */
const maxDiagnosticLines = 10_000;

/**
 * whisper.cpp's `whisper-server` as a persistent child process of the service: the model is
 * loaded once, not once per call as with whisper-cli. It listens on a loopback port only, is
 * started on first use, started again when it has died or when the model file has changed,
 * killed when a request is abandoned (it cannot cancel one) or its memory runs away, and
 * stopped with the service. Requests go one at a time (the server serialises them anyway),
 * and the stderr lines it logs during a request (VAD mapping, progress) belong to that request.
 */
export class WhisperServerProcess {
  private child: ChildProcess | undefined;
  private baseUrl: string | undefined;
  /** The versions of the model and VAD files the running server loaded. */
  private loaded: { model: FileVersion | undefined; vad: FileVersion | undefined } | undefined;
  private starting: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The current request's collector of stderr lines and progress, if one runs. */
  private listener: ((line: string) => void) | undefined;
  private recentLines: string[] = [];
  private exceededMemory = false;
  private stopMemoryWatch: (() => void) | undefined;
  private stopped = false;
  /** Starts since this object was made (the first start included). */
  starts = 0;

  constructor(private readonly settings: WhisperServerSettings) {}

  /** Transcribes the WAV at `audioPath` with the given form fields, one request at a time. */
  transcribe(audioPath: string, fields: readonly (readonly [string, string])[], durationSeconds: number, context: Pick<StageContext, 'signal' | 'reportProgress'>): Promise<WhisperServerAnswer> {
    const run = this.queue.then(() => this.request(audioPath, fields, durationSeconds, context));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Whether a call is being sent to the server now (its request is in flight). */
  get isBusy(): boolean {
    return this.listener !== undefined;
  }

  /** Whether a server process is running now. */
  get isRunning(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Stops the server (SIGTERM, then SIGKILL after 2 s); later requests are refused. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.kill('SIGTERM');
  }

  private async request(audioPath: string, fields: readonly (readonly [string, string])[], durationSeconds: number, context: Pick<StageContext, 'signal' | 'reportProgress'>): Promise<WhisperServerAnswer> {
    context.signal.throwIfAborted();
    await this.ensureStarted();
    const diagnosticLines: string[] = [];
    let reported = 0;
    this.listener = (line) => {
      const progress = progressLine.exec(line);
      if (progress) {
        // With VAD, whisper.cpp measures progress against the shortened audio and overshoots 100 %.
        const fraction = Math.min(1, Number(progress[1]) / 100);
        if (fraction > reported) context.reportProgress((reported = fraction));
      } else if (diagnosticLine.test(line) && diagnosticLines.length < maxDiagnosticLines) {
        diagnosticLines.push(line);
      }
    };
    // An abandoned request keeps the server busy until it ends: kill it, the next call starts it again.
    const abandon = () => void this.kill('SIGKILL');
    context.signal.addEventListener('abort', abandon, { once: true });
    try {
      const answer = await postMultipart(`${this.baseUrl}/inference`, {
        fields,
        file: { field: 'file', path: audioPath, fileName: 'call.wav', contentType: 'audio/wav' },
        // The server answers at the end of the work; bounded by the stale-job sweep, not here.
        timeoutMs: Math.max(600_000, durationSeconds * 1000 * 10),
        signal: context.signal,
      }).catch((error: unknown) => {
        if (context.signal.aborted) throw error;
        throw new WhisperServerFailure(this.exceededMemory ? 'whisper-server was stopped for its memory' : `whisper-server stopped answering (${(error as Error).message})`, this.recentLines, this.exceededMemory);
      });
      return { answer, diagnosticLines };
    } finally {
      context.signal.removeEventListener('abort', abandon);
      this.listener = undefined;
    }
  }

  /** A healthy server for the current model file: the running one, or a new one. */
  private async ensureStarted(): Promise<void> {
    if (this.stopped) throw new WhisperServerFailure('whisper-server is stopped (the service is shutting down)', []);
    const files = {
      model: await modelFileVersion(this.settings.modelPath),
      vad: this.settings.vadModelPath === undefined ? undefined : await modelFileVersion(this.settings.vadModelPath),
    };
    const same = (a: FileVersion | undefined, b: FileVersion | undefined) => (a === undefined ? b === undefined : b !== undefined && sameFileVersion(a, b));
    // Health-checked before each call: a server that runs but no longer answers (hung) is replaced.
    const current = this.isRunning && this.loaded && same(files.model, this.loaded.model) && same(files.vad, this.loaded.vad);
    if (current && (await probeHttp(`${this.baseUrl}/health`, { timeoutMs: healthTimeoutMs })).answering) return;
    if (this.isRunning) await this.kill('SIGTERM');
    this.starting ??= this.start(files).finally(() => { this.starting = undefined; });
    await this.starting;
  }

  private async start(files: { model: FileVersion | undefined; vad: FileVersion | undefined }): Promise<void> {
    const port = await freeLoopbackPort();
    const dtw = await whisperDtwFor(this.settings.dtw ?? 'auto', this.settings.modelPath);
    const args = [
      '-m', this.settings.modelPath,
      '--host', '127.0.0.1', '--port', String(port),
      '-t', String(this.settings.threads),
      // Progress lines on stderr. The decoding settings travel in each request (whisperServerFields).
      '-pp',
      // verbose_json would otherwise add every language's probability, at the cost of a second
      // encoder pass per call (the detected language is in the answer either way).
      '--no-language-probabilities',
      ...(this.settings.vadModelPath !== undefined && files.vad !== undefined ? ['--vad', '-vm', this.settings.vadModelPath] : []),
      ...(this.settings.useGpu ? [] : ['--no-gpu']),
      // verbose_json then carries each token's `t_dtw` (with `token_timestamps`, see whisperServerFields).
      ...whisperDtwArguments(dtw),
    ];
    this.recentLines = [];
    this.exceededMemory = false;
    const child = spawn(this.settings.binaryPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    // A binary that cannot be started (removed, not executable) emits 'error', never 'exit'.
    let spawnError: NodeJS.ErrnoException | undefined;
    child.once('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
      if (this.child === child) this.child = undefined;
    });
    // Never outlive the service, however it ends (a SIGKILLed service's process group or cgroup takes it too).
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.removeListener('exit', killOnExit));
    this.starts += 1;
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (line) => {
      if (diagnosticLine.test(line)) this.recentLines = [...this.recentLines.slice(-50), line];
      this.listener?.(line);
    });
    this.watchMemory(child, this.settings.maxResidentBytes ?? 2 * (files.model?.sizeBytes ?? 0) + 2 * 1024 ** 3);
    child.once('exit', () => {
      this.stopMemoryWatch?.();
      if (this.child === child) this.child = undefined;
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + startTimeoutMs;
    for (;;) {
      if (spawnError) throw new WhisperServerFailure(`whisper-server could not be started (${spawnError.code ?? spawnError.message}); run \`npm run build:native\``, []);
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new WhisperServerFailure(`whisper-server exited while starting (${child.exitCode ?? child.signalCode})`, this.recentLines, this.exceededMemory);
      }
      const healthy = await fetch(`${baseUrl}/health`).then((response) => response.ok, () => false);
      if (healthy) break;
      if (Date.now() > deadline) {
        await this.kill('SIGKILL');
        throw new WhisperServerFailure(`whisper-server did not answer within ${startTimeoutMs / 1000} s of its start`, this.recentLines);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.baseUrl = baseUrl;
    this.loaded = files;
  }

  private watchMemory(child: ChildProcess, maxResidentBytes: number): void {
    this.stopMemoryWatch?.();
    this.stopMemoryWatch = child.pid === undefined || !Number.isFinite(maxResidentBytes) ? undefined : watchResidentMemory(child.pid, maxResidentBytes, () => {
      this.exceededMemory = true;
      child.kill('SIGKILL');
    }, memoryCheckIntervalMs);
  }

  private async kill(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const late = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(late);
  }
}

