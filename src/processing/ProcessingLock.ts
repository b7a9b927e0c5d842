import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process already processes calls from this DATA_DIR. */
export class ProcessingLockHeld extends Error {
  constructor(readonly pid: number) {
    super(`Another Callscope process (pid ${pid}) is already processing calls from this DATA_DIR; stop it first`);
    this.name = 'ProcessingLockHeld';
  }
}

/**
 * One processing engine per DATA_DIR: start-up recovery hands back every call held by another
 * lease, which is only right when that other holder is dead. The lock is a file naming the
 * holder's pid; a lock whose process is gone (killed, crashed) is taken over.
 */
export class ProcessingLock {
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'processing.lock');
  }

  acquire(): void {
    const holder = this.holderPid();
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) throw new ProcessingLockHeld(holder);
    writeFileSync(this.path, String(process.pid));
  }

  release(): void {
    if (this.holderPid() === process.pid) rmSync(this.path, { force: true });
  }

  private holderPid(): number | undefined {
    try {
      const pid = Number(readFileSync(this.path, 'utf8').trim());
      return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
