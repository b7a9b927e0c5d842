import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sampleCallScript, writeScriptedWhisperCli } from '../faults/scriptedWhisper.js';
import { uploadSample, waitForOutcome } from '../faults/faultSetup.js';
import { waitFor } from '../helpers/processingHarness.js';
import { asUser, newDataDir, queueLooks, stageOutcomes, startServer, type ServerProcess } from '../helpers/serverProcess.js';
import { closedLoopbackUrl, startModelMirror, type ModelMirror } from '../infrastructure/models/modelMirror.js';

// The first run of a new site, end to end through the real service: no models installed, a call
// uploaded at once, the recommended models downloaded at start from the site's mirror (a
// loopback server here: the model hubs are out of reach), and the call starting by itself once
// the last model is copied into place, without a restart.

const shared = resolve(import.meta.dirname, '../../../shared');
const sharedModel = (name: string) => join(shared, 'models', name);

/** The mirror holds the two real files whose digests the manifest pins (segmentation, VAD); the whisper model is not there. */
let mirror: ModelMirror;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'callscope-first-run-'));
  mirror = await startModelMirror();
});

afterAll(async () => {
  await mirror.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Settings of a site whose model files go into `modelsDir` (empty at first). */
function siteEnv(modelsDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SEGMENTATION_MODEL: join(modelsDir, 'segmentation.onnx'),
    WHISPER_MODEL: join(modelsDir, 'whisper.bin'),
    VAD_MODEL: join(modelsDir, 'vad.bin'),
    EMBEDDING_MODEL: join(modelsDir, 'embedding.onnx'),
    LLM_MODEL: join(modelsDir, 'llm.gguf'),
    // The structure-only whisper model hears no words: a scripted whisper-cli gives the call words with action items.
    WHISPER_CLI: writeScriptedWhisperCli(folder, sampleCallScript),
    ANALYSER: 'builtin',
    ANALYSIS_TIME_ZONE: 'UTC',
    LOG_LEVEL: 'info',
    MODELS_AUTO_FETCH: 'true',
    ...extra,
  };
}

interface Readiness {
  status: string;
  checks: { models: { status: string; detail: { problems?: string[] } }; workerPool: { detail: { waitingForModels?: { configKey: string; howToInstall: string }[]; queuedCalls: number } } };
}

async function readiness(server: ServerProcess): Promise<Readiness> {
  return (await fetch(`${server.baseUrl}/actuator/health/readiness`)).json() as Promise<Readiness>;
}

async function statusOf(server: ServerProcess, callId: string): Promise<string> {
  const response = await asUser(server, 'alice', `/api/calls/status?ids=${callId}`);
  return ((await response.json()) as { items: { status: string }[] }).items[0]!.status;
}

describe('a call uploaded before the models are installed (real service)', () => {
  test('waits in QUEUED while the start downloads what it can, says what is missing, and completes once the last model is copied into place', async () => {
    const modelsDir = join(folder, 'site-models');
    const dataDir = newDataDir();
    const server = await startServer(dataDir, siteEnv(modelsDir, { MODELS_MIRROR_URL: mirror.url }));

    const upload = await uploadSample(server, 'alice', 'first-call');
    expect(upload.status).toBe(202);
    const { callId } = (await upload.json()) as { callId: string };

    // The download at start installs segmentation and VAD from the mirror; whisper is not there.
    await waitFor('the download at start to end', () => server.output().includes('the download failed') || undefined, 30_000);
    expect(readFileSync(join(modelsDir, 'segmentation.onnx')).equals(readFileSync(sharedModel('pyannote-segmentation-3.0.fp16.onnx')))).toBe(true);
    expect(readFileSync(join(modelsDir, 'vad.bin')).equals(readFileSync(sharedModel('silero-vad-v6.2.0-ggml.bin')))).toBe(true);
    expect(existsSync(join(modelsDir, 'whisper.bin'))).toBe(false);
    expect([mirror.gets(mirror.paths.segmentation), mirror.gets(mirror.paths.vad)]).toEqual([1, 1]);

    // The call waits: no stage runs, and readiness says which model is missing and how to get it.
    const waiting = await waitFor('readiness to name only the whisper model', async () => {
      const current = await readiness(server);
      const keys = current.checks.workerPool.detail.waitingForModels?.map((model) => model.configKey);
      return keys?.length === 1 && keys[0] === 'WHISPER_MODEL' ? current : undefined;
    }, 10_000);
    expect(waiting.status).toBe('DOWN');
    expect(waiting.checks.workerPool.detail.queuedCalls).toBe(1);
    expect(waiting.checks.workerPool.detail.waitingForModels![0]!.howToInstall).toMatch(/callscope models fetch --slot whisper.*callscope models import DIR.*whisper\.bin/);
    expect(waiting.checks.models.detail.problems).toEqual([expect.stringMatching(/^WHISPER_MODEL \(whisper\.bin\): not installed, calls wait for it/)]);
    // Three more looks at the queue that took nothing for want of a model (one at least was the
    // timer's: only the start's and the upload's wakes may still have been owed one each), unless
    // the call left the queue first.
    const looked = await queueLooks(server, 'waiting_for_models');
    await waitFor('a timed look at the queue to end', async () => (await queueLooks(server, 'waiting_for_models')) >= looked + 3 || (await statusOf(server, callId)) !== 'QUEUED');
    expect(await statusOf(server, callId)).toBe('QUEUED');
    expect((await stageOutcomes(dataDir, callId))).toEqual([]);

    // Copied into place by hand: the call starts by itself.
    copyFileSync(sharedModel('whisper-test-stub-tiny.en.bin'), join(modelsDir, 'whisper.bin'));
    const outcome = await waitForOutcome(server, 'alice', callId);
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.errorReason).toBeNull();
    expect(outcome.actionItemTitles.length).toBeGreaterThan(0);
    expect((await stageOutcomes(dataDir, callId)).filter(([, result]) => result !== 'OK')).toEqual([]);

    const output = server.output();
    expect(output).toContain('calls wait: the speaker segmentation model (segmentation.onnx) and the speech recognition model (whisper.bin) are not installed');
    expect(output).toContain('every model calls need is installed: queued calls start');
    // Never the folder the models live in (paths outside the install folder are shown by file name).
    expect(output).not.toContain(modelsDir);
    const ready = await readiness(server);
    expect(ready.checks.workerPool.detail.waitingForModels).toBeUndefined();
  }, 150_000);

  test('offline, the start says in one paragraph what is missing and how to import it; the call waits', async () => {
    const modelsDir = join(folder, 'offline-models');
    const dataDir = newDataDir();
    // A closed loopback port stands for a download host that cannot be reached.
    const unreachable = await closedLoopbackUrl();
    const server = await startServer(dataDir, siteEnv(modelsDir, { MODELS_MIRROR_URL: unreachable }));
    const upload = await uploadSample(server, 'alice', 'offline-call');
    const { callId } = (await upload.json()) as { callId: string };
    const paragraph = await waitFor('the offline paragraph', () => {
      const line = server.output().split('\n').find((candidate) => candidate.includes('cannot be reached from this machine'));
      return line ? (JSON.parse(line) as { level: number; msg: string }) : undefined;
    }, 20_000);
    expect(paragraph.level).toBe(40);
    expect(paragraph.msg).toContain(`${new URL(unreachable).host} cannot be reached`);
    expect(paragraph.msg).toMatch(/segmentation model \(segmentation\.onnx\) and the speech recognition model \(whisper\.bin\) are not installed/);
    expect(paragraph.msg).toContain('npx callscope models import DIR');
    expect(paragraph.msg).toContain('start by themselves once the models are in place');
    expect(existsSync(modelsDir)).toBe(false);
    expect(await statusOf(server, callId)).toBe('QUEUED');
  }, 60_000);
});
