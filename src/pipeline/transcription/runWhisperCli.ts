import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { watchResidentMemory } from '../../infrastructure/processes/processStatus.js';
import type { StageContext } from '../StageContext.js';

export interface WhisperCliOutcome {
  /** Exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (not ours: an abort throws instead), e.g. `SIGKILL` from the OOM killer. */
  signal: NodeJS.Signals | null;
  /** True when this function killed it for holding more than `maxResidentBytes` (`signal` is then `SIGKILL`). */
  exceededMemory: boolean;
  /**
   * The stderr lines this stage reads (VAD mapping, errors), nothing else. Diagnostics only:
   * they may hold file paths, so they are matched, never logged.
   */
  diagnosticLines: string[];
}

/** stderr lines kept: whisper-cli's error lines and VAD's time mapping (numbers only). */
const diagnosticLine = /^error:|failed|vad_segment_info:/;
/** How often the child's resident memory is read, ms. */
const memoryCheckIntervalMs = 250;
/** whisper-cli `-pp`: `whisper_print_progress_callback: progress =  40%`. */
const progressLine = /progress =\s*(\d+)%/;
/** stdout, one line per segment as it is decoded: `[00:01:02.340 --> 00:01:05.000]  text`; only the end time is read. */
const segmentLine = /^\[\d+:\d+:[\d.]+ --> (\d+):(\d+):([\d.]+)\]/;

/**
 * Runs whisper-cli with an argument array (no shell) and waits for it to exit. Progress comes
 * from its `-pp` lines on stderr and from the end time of each segment it prints on stdout
 * (finer-grained, and proof of life between two 5 % steps on a long call), reported to
 * `context.reportProgress` only when it grows. The text it prints is read line by line and
 * dropped, never kept or logged.
 *
 * Kills whisper-cli (SIGKILL) and throws the signal's reason when `context.signal` aborts;
 * resolves or throws only after the process has exited, so the caller may then remove files.
 * Also kills it when its resident memory passes `maxResidentBytes` (read from /proc every
 * 250 ms where there is one): a damaged model can make whisper.cpp allocate without bound, and
 * left alone it takes the box's memory until the kernel's OOM killer picks a victim.
 */
export async function runWhisperCli(
  binaryPath: string,
  args: readonly string[],
  durationSeconds: number,
  context: Pick<StageContext, 'signal' | 'reportProgress'>,
  maxResidentBytes = Number.POSITIVE_INFINITY,
): Promise<WhisperCliOutcome> {
  const { signal } = context;
  signal.throwIfAborted();
  const child = spawn(binaryPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const kill = () => child.kill('SIGKILL');
  signal.addEventListener('abort', kill, { once: true });
  let exceededMemory = false;
  const stopMemoryWatch = Number.isFinite(maxResidentBytes) && child.pid !== undefined
    ? watchResidentMemory(child.pid, maxResidentBytes, () => {
      exceededMemory = true;
      kill();
    }, memoryCheckIntervalMs)
    : undefined;

  let reported = 0;
  const report = (fraction: number) => {
    const clamped = Math.min(1, Math.max(0, fraction));
    if (clamped <= reported) return;
    reported = clamped;
    context.reportProgress(clamped);
  };

  const diagnosticLines: string[] = [];
  createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
    const progress = progressLine.exec(line);
    // With VAD, whisper.cpp measures progress against the shortened audio and overshoots 100 %.
    if (progress) report(Number(progress[1]) / 100);
    else if (diagnosticLine.test(line) && diagnosticLines.length < maxDiagnosticLines) diagnosticLines.push(line);
  });
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const segment = segmentLine.exec(line);
    if (segment && durationSeconds > 0) {
      const [hours, minutes, seconds] = segment.slice(1).map(Number) as [number, number, number];
      report((hours * 3600 + minutes * 60 + seconds) / durationSeconds);
    }
  });

  try {
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
      child.once('error', (error) => resolve({ error }));
      child.once('close', (code, exitSignal) => resolve({ code, signal: exitSignal }));
    });
    signal.throwIfAborted();
    if ('error' in ended) throw new Error(`whisper-cli could not be started (${(ended.error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
    return { exitCode: ended.code, signal: ended.signal, exceededMemory, diagnosticLines };
  } finally {
    stopMemoryWatch?.();
    signal.removeEventListener('abort', kill);
  }
}

/** Bound on the stderr lines kept (a VAD line per stretch of speech: a 2-hour call has a few hundred). */
const maxDiagnosticLines = 10_000;
