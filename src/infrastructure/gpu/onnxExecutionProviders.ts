import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

/** An onnxruntime execution provider the service uses. */
export type OnnxExecutionProvider = 'cuda' | 'cpu';

/**
 * The onnxruntime execution providers to try, in order: CUDA first when onnxruntime-node's CUDA
 * provider library is installed (the GPU image installs it; a plain `npm ci` does not) and
 * `GPU` is not `off`, then always the CPU. Read from the environment because worker threads,
 * which create the sessions, share it. A CUDA provider that cannot start (no driver, no device)
 * makes session creation fail, and {@link createSessionWithFallback} retries on the CPU.
 * @param cudaInstalled whether the CUDA provider library is installed. Defaults to a look in onnxruntime-node's folder.
 */
export function onnxExecutionProviders(cudaInstalled = cudaProviderInstalled()): OnnxExecutionProvider[] {
  if (process.env.GPU === 'off') return ['cpu'];
  return cudaInstalled ? ['cuda', 'cpu'] : ['cpu'];
}

let cudaInstalled: boolean | undefined;

function cudaProviderInstalled(): boolean {
  if (cudaInstalled === undefined) {
    try {
      const packageJson = createRequire(import.meta.url).resolve('onnxruntime-node/package.json');
      cudaInstalled = existsSync(join(dirname(packageJson), 'bin', 'napi-v6', platform(), arch(), 'libonnxruntime_providers_cuda.so'));
    } catch {
      cudaInstalled = false;
    }
  }
  return cudaInstalled;
}

/** What {@link createSessionWithFallback} tries, and whom it tells when a provider fails. */
export interface SessionFallbackOptions {
  /** The providers to try, best first. Defaults to {@link onnxExecutionProviders}(). */
  providers?: readonly OnnxExecutionProvider[];
  /**
   * Told when `failed` could not create the session and it is created again from `next` on.
   * Defaults to a process warning (`GpuFallbackWarning` on stderr, from worker threads too).
   */
  onFallback?: (failed: OnnxExecutionProvider, next: OnnxExecutionProvider, error: unknown) => void;
}

/**
 * Creates a session with the providers in order (`create` gets the list to hand onnxruntime):
 * when the first one cannot start (a CUDA provider without a driver or device), the session is
 * created again from the next provider on, and so on; the last provider's failure is thrown.
 */
export async function createSessionWithFallback<Session>(
  create: (providers: OnnxExecutionProvider[]) => Promise<Session>,
  options: SessionFallbackOptions = {},
): Promise<Session> {
  const providers = options.providers ?? onnxExecutionProviders();
  const onFallback = options.onFallback ?? warnOfFallback;
  for (let first = 0; ; first += 1) {
    try {
      return await create(providers.slice(first));
    } catch (error) {
      const failed = providers[first];
      const next = providers[first + 1];
      if (failed === undefined || next === undefined) throw error;
      onFallback(failed, next, error);
    }
  }
}

function warnOfFallback(failed: OnnxExecutionProvider, next: OnnxExecutionProvider, error: unknown): void {
  // The operator's cue that the GPU is not used: onnxruntime's reason says why (no driver, no device, library missing).
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(`onnxruntime could not create a session on ${failed} (${reason}); creating it on ${next}`, 'GpuFallbackWarning');
}
