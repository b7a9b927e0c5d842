import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ProcessTreeMonitor } from '../../../scripts/bench/ProcessTreeMonitor.js';

/**
 * A child that holds `megabytes` of touched memory, then spins until it has used `cpuSeconds`
 * of CPU (its own clock, so a busy machine only makes it take longer), then exits when told
 * (a line on stdin), or at once without `waitForLine`.
 */
function busyChild(megabytes: number, cpuSeconds: number, waitForLine: boolean) {
  const script = `
    const held = Buffer.alloc(${megabytes} * 1024 * 1024, 1);
    const start = process.cpuUsage();
    while ((process.cpuUsage(start).user + process.cpuUsage(start).system) / 1e6 < ${cpuSeconds}) {}
    process.stdout.write('done ' + held.length + '\\n');
    if (!${waitForLine}) process.exit(0);
    process.stdin.once('data', () => process.exit(0));`;
  return spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
}

describe('ProcessTreeMonitor (the bench scripts\' CPU and memory of a process tree)', () => {
  it('counts the CPU and memory of a child while it runs and its CPU after it has ended', async () => {
    const monitor = new ProcessTreeMonitor([process.pid], { intervalMs: 20 });
    monitor.start();
    const child = busyChild(80, 0.5, true);
    await once(child.stdout, 'data');
    // Alive, holding its 80 MB: the mark samples the tree once more before closing the interval.
    const whileAlive = monitor.mark();
    expect(whileAlive.peakMegabytes).toBeGreaterThan(80);
    expect(whileAlive.cpuSeconds).toBeGreaterThanOrEqual(0.5);

    child.stdin.write('exit\n');
    await once(child, 'exit');
    const other = busyChild(1, 0.3, false);
    await once(other, 'exit');
    // Ended and waited for: its CPU moved to this process's children's time, and is still counted.
    const afterExit = monitor.mark();
    expect(afterExit.cpuSeconds).toBeGreaterThanOrEqual(0.3);
    const programs = monitor.stop();
    expect(programs.node).toBeGreaterThan(80);
  });

  it('leaves out an ignored program and what it started', async () => {
    const monitor = new ProcessTreeMonitor([process.pid], { ignoredPrograms: ['node'] });
    monitor.start();
    const child = busyChild(1, 0.2, true);
    await once(child.stdout, 'data');
    // The root itself is node here: nothing is left to count.
    expect(monitor.mark()).toEqual({ cpuSeconds: 0, peakMegabytes: 0 });
    child.stdin.write('exit\n');
    await once(child, 'exit');
    monitor.stop();
  });
});
