import { sql } from 'drizzle-orm';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CallStatus } from '../../src/domain/calls/callTypes.js';
import { waitFor } from '../helpers/processingHarness.js';
import { pcmWav, sine } from '../helpers/pcmWav.js';
import { uploadForm } from '../helpers/uploads.js';
import { asUser, killProcessGroup, newDataDir, query, stageOutcomes, startServer, type ServerProcess } from '../helpers/serverProcess.js';

// Needs the bundled ffmpeg: the real server runs the real production pipeline (clean-up stage),
// killed or stopped while ffmpeg is at work (no hold point in the way: a signal at an arbitrary
// moment of real work; the SIGTERM case holds the stage after it, so the run cannot end first).

const shutdownGraceSeconds = 1;
const shared = resolve(import.meta.dirname, '../../../shared');
/** The models a call needs (calls wait while one is missing): the real segmentation model and the structure-only whisper model. */
const serverEnv = {
  SHUTDOWN_GRACE_SECONDS: String(shutdownGraceSeconds),
  SEGMENTATION_MODEL: join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx'),
  WHISPER_MODEL: join(shared, 'models/whisper-test-stub-tiny.en.bin'),
  ANALYSER: 'builtin',
};
/** Long enough that clean-up takes a few seconds (ffmpeg's loudnorm runs at about 60× real time). */
const recording = pcmWav(sine(440, 180, 0.5));

const asAlice = (server: ServerProcess, path: string, init: RequestInit = {}) => asUser(server, 'alice', path, init);

async function upload(server: ServerProcess): Promise<string> {
  const response = await asAlice(server, '/api/calls/analyze', { method: 'POST', body: uploadForm(recording, 'long-call.wav') });
  expect(response.status).toBe(202);
  return ((await response.json()) as { callId: string }).callId;
}

async function statusOf(server: ServerProcess, callId: string): Promise<CallStatus | undefined> {
  const response = await asAlice(server, `/api/calls/status?ids=${callId}`);
  return ((await response.json()) as { items: { status: CallStatus }[] }).items[0]?.status;
}

/** Waits until the call is TRANSCRIBING through the API and its clean-up stage has started. */
async function waitForCleanup(server: ServerProcess, dataDir: string, callId: string): Promise<void> {
  await waitFor('the call to be TRANSCRIBING', async () => (await statusOf(server, callId)) === 'TRANSCRIBING', 20_000);
  await waitFor('the clean-up stage to run', async () => (await stageOutcomes(dataDir, callId)).some(([stage, outcome]) => stage === 'cleanup' && outcome === 'RUNNING'));
}

describe('the real server, killed and restarted (needs ffmpeg)', () => {
  test('a call whose server is killed with SIGKILL during clean-up is processed to the end by the next server on the same DATA_DIR', async () => {
    const dataDir = newDataDir();
    const first = await startServer(dataDir, serverEnv);
    const callId = await upload(first);
    await waitForCleanup(first, dataDir, callId);

    killProcessGroup(first.child);
    expect((await first.exited).signal).toBe('SIGKILL');
    expect((await stageOutcomes(dataDir, callId))).toEqual([['cleanup', 'RUNNING']]);

    const second = await startServer(dataDir, serverEnv);
    const terminal = await waitFor('the call to end', async () => {
      const status = await statusOf(second, callId);
      return status === 'COMPLETED' || status === 'FAILED' ? status : undefined;
    }, 100_000);

    const events = (await stageOutcomes(dataDir, callId));
    expect(events.slice(0, 2)).toEqual([['cleanup', 'INTERRUPTED'], ['cleanup', 'OK']]);
    const detail = (await (await asAlice(second, `/api/calls/${callId}`)).json()) as { errorReason: string | null };
    // A tone has no speech: the call may end FAILED for that, never for the interruption.
    if (terminal === 'FAILED') expect(detail.errorReason).not.toMatch(/interrupt|internal error/i);
    else expect(detail.errorReason).toBeNull();
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 150_000);

  test('SIGTERM during clean-up ends the run once SHUTDOWN_GRACE_SECONDS is over, hands the call back to the queue and exits 0', async () => {
    const dataDir = newDataDir();
    // Held at diarization's start: a run that outlives the grace cannot finish on its own, however fast the machine.
    const server = await startServer(dataDir, { ...serverEnv, FAULT_HOLD_AT: 'stage.diarization', LOG_LEVEL: 'info' });
    const callId = await upload(server);
    await waitForCleanup(server, dataDir, callId);

    server.child.kill('SIGTERM');
    // The exit itself is awaited; 60 s is only an outer limit, for a server that never stops.
    const exit = await Promise.race([server.exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000))]);

    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    // The engine's own count: the run was handed back, none finished (the line may trail the exit on its pipe).
    const stopped = await waitFor('the processing stopped line', () => server.output().split('\n').find((line) => line.includes('"msg":"processing stopped"')));
    expect(JSON.parse(stopped)).toMatchObject({ finished: 0, handedBack: 1 });
    const [call] = await query<{ status: string; lease: string | null }>(dataDir, sql`SELECT status, worker_lease AS lease FROM calls WHERE id = ${callId}`);
    expect(call).toEqual({ status: 'QUEUED', lease: null });
    expect((await stageOutcomes(dataDir, callId)).map(([, outcome]) => outcome)).not.toContain('RUNNING');
  }, 120_000);
});
