import { BroadcastChannel, threadId } from 'node:worker_threads';
import { serializeFailure, type SerializedFailure } from '../../pipeline/StageFailure.js';
import { workerAckChannel, workerControlChannel, type DisposedMessage, type DisposeMessage } from './workerControl.js';
import { threadResources } from './WorkerResources.js';
import { workerTaskImplementations, type WorkerTaskName } from './workerTasks.js';

/** What the pool sends a thread: a task name and its input. */
export interface WorkerRequest {
  name: WorkerTaskName;
  input: unknown;
}

/** What a thread answers: errors cross the boundary as `{code, message}`, never as thrown objects. */
export type WorkerResponse = { ok: true; output: unknown } | { ok: false; failure: SerializedFailure };

// Freed on the pool's request before it terminates the threads (see WorkerPool.close).
const control = new BroadcastChannel(workerControlChannel);
const acknowledgements = new BroadcastChannel(workerAckChannel);
control.unref();
acknowledgements.unref();
control.onmessage = (event) => {
  if ((event as { data?: DisposeMessage }).data?.type !== 'dispose') return;
  void threadResources.disposeAll().then((resources) => {
    acknowledgements.postMessage({ type: 'disposed', threadId, resources } satisfies DisposedMessage);
  });
};

/** Piscina's entry point: runs one named task of the closed task table. */
export default async function runWorkerTask(request: WorkerRequest): Promise<WorkerResponse> {
  const implementation = workerTaskImplementations[request.name] as ((input: unknown) => Promise<unknown>) | undefined;
  if (!implementation) return { ok: false, failure: { code: 'internal', message: `unknown worker task ${String(request.name)}` } };
  try {
    return { ok: true, output: await implementation(request.input) };
  } catch (error) {
    return { ok: false, failure: serializeFailure(error) };
  }
}
