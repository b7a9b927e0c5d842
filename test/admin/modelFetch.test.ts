import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { defaultLockPath } from '../../src/infrastructure/models/manifestLock.js';
import type { ModelDownloadSnapshot } from '../../src/infrastructure/models/ModelDownloads.js';
import { waitFor } from '../helpers/processingHarness.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { startModelMirror, type ModelMirror } from '../infrastructure/models/modelMirror.js';
import { sharedFiles } from '../infrastructure/models/modelFixtures.js';
import { completeSetup, errorCodeOf, type AdminBrowser } from './adminClient.js';

// The app's ModelDownloads has no lockPath option: keep the lock file it writes out of the repository.
vi.mock('../../src/infrastructure/models/manifestLock.js', async (importOriginal) =>
  (await import('../infrastructure/models/isolatedManifestLock.js')).withIsolatedLockPath(await importOriginal()));

interface AuditBody { entries: { action: string; actor: string; target: string | null }[] }

let testApp: TestApp;
let browser: AdminBrowser;
let mirror: ModelMirror;
let slots: string;

beforeAll(async () => {
  mirror = await startModelMirror();
  slots = mkdtempSync(join(tmpdir(), 'callscope-slots-'));
  testApp = await startTestApp({
    SEGMENTATION_MODEL: join(slots, 'segmentation.onnx'), EMBEDDING_MODEL: join(slots, 'embedding.onnx'),
    WHISPER_MODEL: join(slots, 'whisper.bin'), VAD_MODEL: join(slots, 'vad.bin'), LLM_MODEL: join(slots, 'llm.gguf'),
    MODELS_MIRROR_URL: mirror.url,
  });
  browser = await completeSetup(testApp);
});
afterAll(async () => {
  await testApp.close();
  await mirror.close();
  rmSync(slots, { recursive: true, force: true });
  rmSync(dirname(defaultLockPath), { recursive: true, force: true });
});

const snapshotOf = async (response: Response) => (await response.json()) as ModelDownloadSnapshot;
const fetchAuditEntries = async () => ((await (await browser.fetch('/admin/api/audit?limit=50')).json()) as AuditBody).entries.filter((entry) => entry.action === 'model_fetch');
const finished = () => waitFor('the model download to finish', async () => {
  const snapshot = await snapshotOf(await browser.fetch('/admin/api/models/fetch'));
  return snapshot.state === 'finished' && snapshot;
});

test('before any download the state is idle', async () => {
  const response = await browser.fetch('/admin/api/models/fetch');
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ state: 'idle', trigger: null, startedAt: null, finishedAt: null, unreachable: null, items: [] });
});

test('both routes need the admin session', async () => {
  for (const method of ['GET', 'POST']) {
    const response = await fetch(`${testApp.baseUrl}/admin/api/models/fetch`, { method });
    expect(response.status, method).toBe(401);
    expect(await errorCodeOf(response)).toBe('admin_auth_required');
  }
});

test('a POST without the CSRF token is refused with 403 and starts nothing', async () => {
  const response = await fetch(`${testApp.baseUrl}/admin/api/models/fetch`, { method: 'POST', headers: { cookie: browser.cookie } });
  expect(response.status).toBe(403);
  expect(await errorCodeOf(response)).toBe('admin_csrf_failed');
  expect((await snapshotOf(await browser.fetch('/admin/api/models/fetch'))).state).toBe('idle');
  expect(mirror.requests).toEqual([]);
});

test('a POST starts the download (202, running); a second one joins it; the page polls until it finished', async () => {
  // The mirror holds the files until the test has seen the download running.
  const release = mirror.hold();
  let joined: Response;
  try {
    const started = await browser.fetch('/admin/api/models/fetch', { method: 'POST' });
    expect(started.status).toBe(202);
    expect(await snapshotOf(started)).toMatchObject({ state: 'running', trigger: 'admin', startedAt: expect.any(String), finishedAt: null });

    await waitFor('the first model requested from the mirror', () => mirror.gets(mirror.paths.segmentation) === 1);
    const running = await snapshotOf(await browser.fetch('/admin/api/models/fetch'));
    expect(running.state).toBe('running');
    expect(running.items.map((item) => [item.slot, item.state])).toEqual([
      ['segmentation', 'waiting'], ['whisper', 'waiting'], ['vad', 'waiting'], ['embedding', 'waiting'],
    ]);

    joined = await browser.fetch('/admin/api/models/fetch', { method: 'POST' });
  } finally {
    release();
  }
  expect(joined.status).toBe(202);
  expect(await snapshotOf(joined)).toMatchObject({ state: 'running', trigger: 'admin' });

  const snapshot = await finished();
  expect(snapshot).toMatchObject({ trigger: 'admin', unreachable: null, finishedAt: expect.any(String) });
  expect(snapshot.items.map((item) => [item.slot, item.entry, item.state, item.target])).toEqual([
    ['segmentation', 'pyannote-segmentation-3.0-fp16', 'downloaded', 'segmentation.onnx'],
    ['whisper', 'whisper-base.en', 'failed', 'whisper.bin'],
    ['vad', 'silero-vad-v6.2.0', 'downloaded', 'vad.bin'],
    ['embedding', 'wespeaker-voxceleb-resnet34-lm', 'failed', 'embedding.onnx'],
  ]);
  expect(snapshot.items.find((item) => item.slot === 'whisper')!.message).toMatch(/answered 404/);
  expect(snapshot.items.find((item) => item.slot === 'vad')).toMatchObject({ receivedBytes: 885_098, totalBytes: 885_098 });
  expect(JSON.stringify(snapshot)).not.toContain(slots);

  expect(readFileSync(join(slots, 'segmentation.onnx')).equals(readFileSync(sharedFiles.segmentation))).toBe(true);
  expect(readFileSync(join(slots, 'vad.bin')).equals(readFileSync(sharedFiles.vad))).toBe(true);
  // One download, not two: each file requested once, and one audit entry.
  expect(mirror.gets(mirror.paths.segmentation)).toBe(1);
  expect(mirror.gets(mirror.paths.vad)).toBe(1);
  expect(await fetchAuditEntries()).toEqual([expect.objectContaining({ actor: 'admin', target: 'segmentation,whisper,vad,embedding' })]);
});

test('a POST after the download ended starts a new one, audited again; installed models come out unchanged', async () => {
  const response = await browser.fetch('/admin/api/models/fetch', { method: 'POST' });
  expect(response.status).toBe(202);
  const snapshot = await finished();
  expect(snapshot.items.map((item) => [item.slot, item.state])).toEqual([
    ['segmentation', 'unchanged'], ['whisper', 'failed'], ['vad', 'unchanged'], ['embedding', 'failed'],
  ]);
  expect(mirror.gets(mirror.paths.segmentation)).toBe(1);
  expect(await fetchAuditEntries()).toHaveLength(2);
});
