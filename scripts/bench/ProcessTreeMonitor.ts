import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseProcessStatus, type ProcessStatus } from '../../src/infrastructure/processes/processStatus.js';

/** Clock ticks per second of /proc's CPU times (USER_HZ). */
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** What a process tree used between two marks. */
export interface TreeInterval {
  /** CPU seconds (user + system) of every process of the tree, the children it waited for included. */
  cpuSeconds: number;
  /** Largest resident memory of the whole tree at one sample, MB. */
  peakMegabytes: number;
}

export interface ProcessTreeMonitorOptions {
  /** Programs left out with their descendants (`/proc/<pid>/status` Name), e.g. tsx's `esbuild`: the bench's tools, not what is measured. Defaults to none. */
  ignoredPrograms?: readonly string[];
  /** How often memory is sampled, ms. Defaults to `100`. */
  intervalMs?: number;
}

/**
 * CPU time and resident memory of the process trees under `roots` (Linux /proc), for the
 * benchmarks: memory is sampled every `intervalMs` (the sum over the tree at one moment), CPU
 * is read at each {@link mark}. A process's CPU is its own (`utime + stime`, all threads) plus
 * that of the children it has waited for (`cutime + cstime`), so work of a child that has
 * ended stays counted in its parent.
 */
export class ProcessTreeMonitor {
  private timer: NodeJS.Timeout | undefined;
  private peakSinceMark = 0;
  private cpuAtMark = 0;
  /** Largest `VmHWM` seen per program name, MB: each process's own peak, exact while it was sampled alive. */
  private readonly peakByProgram = new Map<string, number>();

  constructor(private readonly roots: readonly number[], private readonly options: ProcessTreeMonitorOptions = {}) {}

  /** Starts sampling; the first interval runs from now. */
  start(): void {
    this.cpuAtMark = this.cpuSeconds();
    this.peakSinceMark = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.options.intervalMs ?? 100);
  }

  /** Closes the interval since the previous mark (or the start) and opens the next. */
  mark(): TreeInterval {
    this.sample();
    const cpu = this.cpuSeconds();
    const interval = { cpuSeconds: cpu - this.cpuAtMark, peakMegabytes: this.peakSinceMark };
    this.cpuAtMark = cpu;
    this.peakSinceMark = 0;
    return interval;
  }

  /** The largest resident memory of the tree since the previous mark, MB. */
  get peakSinceMarkMegabytes(): number {
    return this.peakSinceMark;
  }

  /** Stops sampling; returns each program's peak resident memory, MB. */
  stop(): Record<string, number> {
    clearInterval(this.timer);
    return Object.fromEntries(this.peakByProgram);
  }

  // Synchronous reads: /proc answers from memory, and a sample costs a fraction of what the
  // same reads through the thread pool would (the cost is the measured process's CPU time).
  private sample(): void {
    let kilobytes = 0;
    for (const { status } of this.processes()) {
      kilobytes += status.residentKilobytes ?? 0;
      const peak = (status.peakResidentKilobytes ?? 0) / 1024;
      if (peak > (this.peakByProgram.get(status.name) ?? 0)) this.peakByProgram.set(status.name, peak);
    }
    this.peakSinceMark = Math.max(this.peakSinceMark, kilobytes / 1024);
  }

  private cpuSeconds(): number {
    return this.processes().reduce((sum, { pid }) => sum + cpuTicks(pid), 0) / clockTicks;
  }

  /** The roots and their descendants with their status, less ignored programs and theirs (and processes gone meanwhile). */
  private processes(): { pid: number; status: ProcessStatus }[] {
    const ignored = new Set(this.options.ignoredPrograms ?? []);
    const found: { pid: number; status: ProcessStatus }[] = [];
    const walk = (pid: number) => {
      const status = parseProcessStatus(readProc(`${pid}/status`));
      if (status === undefined || ignored.has(status.name)) return;
      found.push({ pid, status });
      for (const child of childProcessIdsNow(pid)) walk(child);
    };
    for (const root of this.roots) walk(root);
    return found;
  }
}

/** `/proc/<path>`'s text, or '' once it is gone. */
function readProc(path: string): string {
  try {
    return readFileSync(`/proc/${path}`, 'latin1');
  } catch {
    return '';
  }
}

/** The direct children of `pid`, started by any of its threads (`/proc/<pid>/task/<tid>/children`). */
function childProcessIdsNow(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => readProc(`${pid}/task/${task}/children`).split(' ').filter(Boolean).map(Number));
}

/** `utime + stime + cutime + cstime` of `pid` in clock ticks (proc(5) fields 14–17); 0 once it is gone. */
function cpuTicks(pid: number): number {
  const stat = readProc(`${pid}/stat`);
  // The command name may hold spaces and parentheses: fields are counted after its last ")", from field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].reduce((sum, index) => sum + (Number(fields[index]) || 0), 0);
}

/** The 1-minute load average now, rounded to hundredths: how busy the machine was around a measurement. */
export function loadAverageNow(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}
