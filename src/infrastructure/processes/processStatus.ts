import { readdir, readFile } from 'node:fs/promises';

/** What `/proc/<pid>/status` (Linux) says of a process's name and memory. */
export interface ProcessStatus {
  /** The program's file name, cut to 15 characters (`Name`). */
  name: string;
  /** Resident memory now, kB (`VmRSS`); undefined for a zombie, which holds none. */
  residentKilobytes?: number;
  /** Peak resident memory so far, kB (`VmHWM`); undefined for a zombie. */
  peakResidentKilobytes?: number;
}

/** The status of process `pid`; undefined once it is gone, or where there is no /proc. */
export async function processStatus(pid: number): Promise<ProcessStatus | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'latin1').catch(() => undefined);
  return status === undefined ? undefined : parseProcessStatus(status);
}

/** The fields of {@link ProcessStatus} from the text of a `/proc/<pid>/status` file; undefined when it names no program. */
export function parseProcessStatus(status: string): ProcessStatus | undefined {
  const name = /^Name:\t(.*)$/m.exec(status)?.[1];
  if (name === undefined) return undefined;
  const kilobytes = (field: string) => {
    const value = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
    return value === undefined ? undefined : Number(value);
  };
  return { name, residentKilobytes: kilobytes('VmRSS'), peakResidentKilobytes: kilobytes('VmHWM') };
}

/** The direct children of process `pid`, started by any of its threads (`/proc/<pid>/task/<tid>/children`). */
export async function childProcessIds(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')));
  return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
}

/**
 * Reads `pid`'s resident memory every `intervalMs` (one read at a time: a slow /proc read must
 * not pile up checks) and calls `onExceeded` once it passes `maxBytes`. Returns the stop
 * function. A whisper.cpp fed a damaged model can allocate without bound; left alone it takes
 * the box's memory until the kernel's OOM killer picks a victim.
 */
export function watchResidentMemory(pid: number, maxBytes: number, onExceeded: () => void, intervalMs = 250): () => void {
  let checking = false;
  let exceeded = false;
  const timer = setInterval(() => {
    if (checking || exceeded) return;
    checking = true;
    void processStatus(pid).then((status) => {
      checking = false;
      if (status?.residentKilobytes !== undefined && status.residentKilobytes * 1024 > maxBytes) {
        exceeded = true;
        onExceeded();
      }
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
