import { readFileSync, readlinkSync } from 'node:fs';

/**
 * The set of processes a pid can be checked against: `<boot id>/<pid namespace>` (Linux). Two
 * processes with the same scope (the same boot of the same machine, the same container's pid
 * namespace) see each other's pids; a node that shares its scope with a silent node can ask the
 * kernel whether that node still runs instead of waiting out its lease. Undefined where /proc
 * does not say (another OS): such nodes are judged by their heartbeat only.
 */
export function currentProcessScope(): string | undefined {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    // e.g. `pid:[4026531836]`: the inode of this process's pid namespace.
    const pidNamespace = readlinkSync('/proc/self/ns/pid');
    return bootId && pidNamespace ? `${bootId}/${pidNamespace}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether process `pid` of this scope still runs. A zombie (killed, not yet reaped by its parent)
 * counts as gone. A reused pid reads as running: the safe side, the node then waits for the lease.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = readOptional(`/proc/${pid}/stat`);
  // `pid (comm) S ...`: the state letter follows the last `)` (comm may hold parentheses).
  const state = stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}
