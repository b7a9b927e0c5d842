import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The onnxruntime execution providers to try, in order: CUDA first when onnxruntime-node's CUDA
 * provider library is installed (the GPU image installs it; a plain `npm ci` does not) and
 * `GPU` is not `off`, then always the CPU. Read from the environment because worker threads,
 * which create the sessions, share it. A CUDA provider that cannot start (no driver, no device)
 * makes session creation fail, and {@link createSessionWithFallback} retries on the CPU.
 */
export function onnxExecutionProviders(): ('cuda' | 'cpu')[] {
  if (process.env.GPU === 'off') return ['cpu'];
  return cudaProviderInstalled() ? ['cuda', 'cpu'] : ['cpu'];
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

/** Creates a session with the GPU providers when available, falling back to the CPU alone if that fails. */
export async function createSessionWithFallback<Session>(create: (providers: ('cuda' | 'cpu')[]) => Promise<Session>): Promise<Session> {
  const providers = onnxExecutionProviders();
  if (providers.length === 1) return create(providers);
  try {
    return await create(providers);
  } catch {
    return create(['cpu']);
  }
}
