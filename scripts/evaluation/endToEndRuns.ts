/**
 * The whole pipeline run as an operator runs it, for `npm run eval:end-to-end`: the built
 * `npx callscope process` as a child process, and the built service (`dist/server.js`, what
 * `npm start` runs) as a child process taking uploads over HTTP. Both run the same build, and
 * read their models and settings from `env`.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { Analysis } from '../../src/domain/analysis/analysisSchema.js';
import type { Transcript } from '../../src/domain/transcripts/transcriptSchema.js';
import type { DiarizedTranscriptInput } from '../../src/pipeline/normalization/diarizedTranscriptInput.js';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';
import { packageRoot } from '../../src/infrastructure/packageRoot.js';
import { waitForAnswer } from '../benchSupport.js';
import type { EndToEndRecording } from './endToEndRecordings.js';

const execute = promisify(execFile);

/** What a run of the whole pipeline gives for a recording, and its wall-clock time. */
export interface PipelineOutput {
  transcript: Transcript;
  analysis: Analysis;
  seconds: number;
}

/** Longest wait for the service to process one recording, ms. */
const processingTimeoutMs = 30 * 60_000;
/** How often the API is polled for the call's status, ms (the spec's lowest `nextPollMs`). */
const pollMs = 1000;

/**
 * `npx callscope process <audio> [--user-name NAME] [--metadata meta.json]`, the metadata file
 * written into `workDir`; its JSON parsed.
 */
export async function processWithCli(recording: EndToEndRecording, env: NodeJS.ProcessEnv, workDir: string): Promise<PipelineOutput> {
  const metadataPath = join(workDir, `${recording.id}.metadata.json`);
  await writeFile(metadataPath, JSON.stringify(recording.metadata));
  return runCallscope(['process', recording.audio, '--metadata', metadataPath, ...(recording.userDisplayName ? ['--user-name', recording.userDisplayName] : [])], env);
}

/**
 * `npx callscope analyze-transcript <input.json>`: the text half of the pipeline (speaker
 * resolution, analysis) on an already diarized transcript, the input file written into `workDir`.
 */
export async function analyseWithCli(name: string, input: DiarizedTranscriptInput, env: NodeJS.ProcessEnv, workDir: string): Promise<PipelineOutput> {
  const inputPath = join(workDir, `${name}.transcript-input.json`);
  await writeFile(inputPath, JSON.stringify(input));
  return runCallscope(['analyze-transcript', inputPath], env);
}

/** `npx callscope <args>` with `env`, its JSON output parsed; fails with the end of its stderr when it exits non-zero. */
async function runCallscope(args: readonly string[], env: NodeJS.ProcessEnv): Promise<PipelineOutput> {
  const started = performance.now();
  try {
    const { stdout } = await execute('npx', ['callscope', ...args], { cwd: packageRoot, env, maxBuffer: 256 * 2 ** 20 });
    const { transcript, analysis } = JSON.parse(stdout) as { transcript: Transcript; analysis: Analysis };
    return { transcript, analysis, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').slice(-5).join('\n') ?? '';
    throw new Error(`npx callscope ${args[0]} failed: ${(error as Error).message}\n${stderr}`);
  }
}

/** The service running as a child process. */
export interface RunningService {
  baseUrl: string;
  /** SIGTERM, then waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the built service (`dist/server.js`, as `npm start` does once the build is current; not
 * through scripts/start.mjs, which would build again if a source changed since the CLI ran) on
 * a free loopback port, in local-user mode (`X-Local-User-Id`), its own DATA_DIR and settings from
 * `env`; resolves once `/api/health` answers.
 */
export async function startService(env: NodeJS.ProcessEnv): Promise<RunningService> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: packageRoot,
    env: { ...env, PORT: String(port), HTTPS_PORT: '0', HOST: '127.0.0.1', LOCAL_AUTH: 'true', RATE_LIMIT_PER_MINUTE: '0', MODELS_AUTO_FETCH: 'false', WORKER_CONCURRENCY: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = once(child, 'exit');
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForAnswer(`${baseUrl}/api/health`);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`the service did not start: ${(error as Error).message}\n${stderr.trim().split('\n').slice(-5).join('\n')}`);
  }
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The recording through the API as the mobile client sends it: a local user of its own
 * (`eval-<id>`) whose display name is set first when the recording has one, the upload with its
 * metadata envelope (`POST /api/calls/analyze`), status polled until the call is COMPLETED,
 * then its transcript and analysis. A FAILED call throws with its reason.
 */
export async function processThroughApi(service: RunningService, recording: EndToEndRecording): Promise<PipelineOutput> {
  const headers = { 'x-local-user-id': `eval-${recording.id}` };
  const request = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${service.baseUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<T>;
  };
  if (recording.userDisplayName) {
    await request('/api/users/me', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: recording.userDisplayName }) });
  }
  const form = new FormData();
  form.append('metadata', new Blob([JSON.stringify(recording.metadata)], { type: 'application/json' }));
  form.append('file', new Blob([new Uint8Array(await readFile(recording.audio))]), basename(recording.audio));
  const started = performance.now();
  const { callId } = await request<{ callId: string }>('/api/calls/analyze', { method: 'POST', body: form });
  for (;;) {
    const { items } = await request<{ items: { callId: string; status: string }[] }>(`/api/calls/status?ids=${callId}`);
    const status = items[0]?.status;
    if (status === 'COMPLETED') break;
    if (status === 'FAILED') throw new Error(`the service failed the call: ${(await request<{ errorReason: string | null }>(`/api/calls/${callId}`)).errorReason}`);
    if (performance.now() - started > processingTimeoutMs) throw new Error(`the call was still ${status} after ${processingTimeoutMs / 60_000} minutes`);
    await sleep(pollMs);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    transcript: await request<Transcript>(`/api/calls/${callId}/transcript`),
    analysis: await request<Analysis>(`/api/calls/${callId}/analysis`),
    seconds,
  };
}
