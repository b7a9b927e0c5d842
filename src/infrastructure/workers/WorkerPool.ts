// Before any thread starts: see onnxRuntimeTelemetry.
import '../inference/onnxRuntimeTelemetry.js';
import { availableParallelism } from 'node:os';
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { deserializeFailure } from '../../pipeline/StageFailure.js';
import type { WorkerRequest, WorkerResponse } from './stageWorker.js';
import { workerAckChannel, workerControlChannel, type DisposedMessage } from './workerControl.js';
import type { WorkerTaskName, WorkerTasks } from './workerTasks.js';

/**
 * How long `close()` waits for threads to confirm they freed their resources, ms: a thread
 * starved of CPU on a busy 2-core box (whisper.cpp at work beside it) took over 5 s to answer
 * once; a stop waits at most this long for one that never does.
 */
const disposeTimeoutMs = 15_000;

/**
 * CPU-heavy stage work on worker threads (Piscina), so the event loop keeps serving the API.
 * Running from TypeScript sources (tests, `tsx`), the threads load the worker through tsx.
 */
export class WorkerPool {
  private readonly piscina: Piscina;
  private closed = false;
  /** Tasks submitted and not yet settled; resources are only freed once this is 0. */
  private running = 0;
  private idle?: () => void;

  /**
   * @param threads Worker threads; 0 = one per CPU core.
   * @param onError Told of errors Piscina reports outside any task, such as the result of a task
   *   aborted while it ran arriving from its terminated thread (without a listener, Piscina's
   *   'error' event would crash the process). Defaults to ignoring them.
   */
  constructor(threads: number, onError: (error: Error) => void = () => undefined) {
    const runningFromSources = import.meta.url.endsWith('.ts');
    const maxThreads = threads > 0 ? threads : availableParallelism();
    this.piscina = new Piscina({
      filename: new URL(`./stageWorker.${runningFromSources ? 'ts' : 'js'}`, import.meta.url).href,
      minThreads: 0,
      maxThreads,
      // Threads that sit idle give their models' memory back.
      idleTimeout: 10 * 60 * 1000,
      // Piscina's default ('sync') parks idle threads in Atomics.wait, which blocks their event
      // loop: they would never see the dispose message that close() broadcasts.
      atomics: 'disabled',
      ...(runningFromSources ? { execArgv: [...process.execArgv, '--import', 'tsx'] } : {}),
    });
    this.piscina.on('error', onError);
  }

  get threadCount(): number {
    return this.piscina.threads.length;
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async run<Name extends WorkerTaskName>(name: Name, input: WorkerTasks[Name]['input'], signal?: AbortSignal): Promise<WorkerTasks[Name]['output']> {
    if (this.closed) throw new Error('worker pool is closed');
    const request: WorkerRequest = { name, input };
    this.running += 1;
    try {
      const response = (await this.piscina.run(request, signal ? { signal } : {})) as WorkerResponse;
      if (!response.ok) throw deserializeFailure(response.failure);
      return response.output as WorkerTasks[Name]['output'];
    } finally {
      this.running -= 1;
      if (this.running === 0) this.idle?.();
    }
  }

  /**
   * Waits for running tasks, asks every thread to free its native resources (and waits for
   * their confirmation, up to `disposeTimeoutMs`), then terminates the threads.
   */
  async close(): Promise<{ threads: number; resourcesFreed: number }> {
    if (this.closed) return { threads: 0, resourcesFreed: 0 };
    this.closed = true;
    if (this.running > 0) await new Promise<void>((resolve) => { this.idle = resolve; });
    const threads = this.piscina.threads.length;
    let resourcesFreed = 0;
    if (threads > 0) {
      const control = new BroadcastChannel(workerControlChannel);
      const acknowledgements = new BroadcastChannel(workerAckChannel);
      const confirmed = new Promise<void>((resolve) => {
        let answers = 0;
        const timer = setTimeout(resolve, disposeTimeoutMs);
        acknowledgements.onmessage = (event) => {
          const message = (event as { data?: DisposedMessage }).data;
          if (message?.type !== 'disposed') return;
          resourcesFreed += message.resources;
          answers += 1;
          if (answers >= threads) {
            clearTimeout(timer);
            resolve();
          }
        };
      });
      control.postMessage({ type: 'dispose' });
      await confirmed;
      control.close();
      acknowledgements.close();
    }
    await this.piscina.close();
    return { threads, resourcesFreed };
  }
}
