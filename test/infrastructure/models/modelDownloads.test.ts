import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { downloadUrlOf } from '../../../src/infrastructure/models/fetchModels.js';
import { installedModelManifest } from '../../../src/infrastructure/models/loadModelManifest.js';
import { defaultLockPath } from '../../../src/infrastructure/models/manifestLock.js';
import {
  downloadTotals, ModelDownloads, type ModelDownloadItem, type ModelDownloadSnapshot,
} from '../../../src/infrastructure/models/ModelDownloads.js';
import { closedLoopbackUrl, useMirrorAndModelFolder } from './modelMirror.js';
import { sharedFiles } from './modelFixtures.js';

// ModelDownloads has no lockPath option: keep the lock file it writes out of the repository.
vi.mock('../../../src/infrastructure/models/manifestLock.js', async (importOriginal) =>
  (await import('./isolatedManifestLock.js')).withIsolatedLockPath(await importOriginal()));

const rig = useMirrorAndModelFolder();

const sizes = { segmentation: 3_000_918, vad: 885_098 };

function downloadsVia(mirrorUrl: string) {
  const onInstalled = vi.fn();
  const downloads = new ModelDownloads({ ...rig.folder.config, MODELS_MIRROR_URL: mirrorUrl }, { manifest: installedModelManifest, onInstalled });
  return { downloads, onInstalled };
}

const itemOf = (snapshot: ModelDownloadSnapshot, slot: string) => snapshot.items.find((item) => item.slot === slot);

test('the lock file is kept out of the repository', () => {
  expect(existsSync(dirname(defaultLockPath))).toBe(true);
  expect(readdirSync(dirname(defaultLockPath)).filter((name) => !name.startsWith('.'))).toEqual([]);
});

describe('a download from the mirror', () => {
  test('installs segmentation and VAD byte for byte, reports whisper (not on the mirror) failed, and ends finished', async () => {
    const { downloads, onInstalled } = downloadsVia(rig.mirror.url);
    const seen: ModelDownloadSnapshot[] = [];
    downloads.listen((snapshot) => seen.push(snapshot));
    expect(downloads.snapshot()).toMatchObject({ state: 'idle', trigger: null, items: [] });

    const first = downloads.start('admin', ['segmentation', 'vad', 'whisper']);
    // A second start while it runs joins it.
    const second = downloads.start('start', ['embedding']);
    expect(second).toBe(first);
    expect(downloads.isRunning).toBe(true);
    expect(downloads.snapshot()).toMatchObject({ state: 'running', trigger: 'admin', startedAt: expect.any(String), finishedAt: null });

    const result = await first;
    expect(downloads.isRunning).toBe(false);
    expect(result).toEqual(downloads.snapshot());
    expect(result).toMatchObject({ state: 'finished', trigger: 'admin', unreachable: null, finishedAt: expect.any(String) });
    expect(result.items.map((item) => [item.slot, item.entry, item.state])).toEqual([
      ['segmentation', 'pyannote-segmentation-3.0-fp16', 'downloaded'],
      ['vad', 'silero-vad-v6.2.0', 'downloaded'],
      ['whisper', 'whisper-base.en', 'failed'],
    ]);
    expect(itemOf(result, 'segmentation')).toMatchObject({
      receivedBytes: sizes.segmentation, totalBytes: sizes.segmentation, message: expect.stringContaining('SHA-256 verified'), warning: null,
      // Installed outside the install folder: only the file's name.
      target: 'segmentation.onnx',
    });
    expect(itemOf(result, 'whisper')).toMatchObject({ receivedBytes: 0, message: expect.stringMatching(/answered 404\b.*whisper-base\.en/), target: 'whisper.bin' });
    expect(JSON.stringify(result)).not.toContain(rig.folder.root);

    expect(readFileSync(rig.folder.config.SEGMENTATION_MODEL).equals(readFileSync(sharedFiles.segmentation))).toBe(true);
    expect(readFileSync(rig.folder.config.VAD_MODEL).equals(readFileSync(sharedFiles.vad))).toBe(true);
    expect(existsSync(rig.folder.config.WHISPER_MODEL)).toBe(false);
    expect(readdirSync(rig.folder.models).filter((name) => name.endsWith('.part'))).toEqual([]);

    // Joined, not started twice: each file requested once, the embedding model of the second start never.
    expect(rig.mirror.gets(rig.mirror.paths.segmentation)).toBe(1);
    expect(rig.mirror.gets(rig.mirror.paths.vad)).toBe(1);
    expect(rig.mirror.requests.filter((request) => request.method === 'GET')).toHaveLength(3);
    expect(onInstalled).toHaveBeenCalledTimes(1);

    // What listeners saw: each model waiting, then downloading with its bytes rising to the total, then downloaded.
    expect(seen[0]).toMatchObject({ state: 'running', items: [{ state: 'waiting' }, { state: 'waiting' }, { state: 'waiting' }] });
    expect(seen.at(-1)).toEqual(result);
    for (const slot of ['segmentation', 'vad'] as const) {
      const history = seen.map((snapshot) => itemOf(snapshot, slot)!);
      expect(history.map((item) => item.state).filter((state, index, all) => state !== all[index - 1])).toEqual(['waiting', 'downloading', 'downloaded']);
      const received = history.map((item) => item.receivedBytes);
      expect(received.every((bytes, index) => index === 0 || bytes >= received[index - 1]!)).toBe(true);
      const downloading = history.filter((item) => item.state === 'downloading');
      expect(downloading.length).toBeGreaterThan(0);
      expect(downloading.every((item) => item.totalBytes === sizes[slot] && item.receivedBytes > 0 && item.receivedBytes <= sizes[slot])).toBe(true);
      expect(history.at(-1)!.receivedBytes).toBe(sizes[slot]);
    }
    // One model at a time: segmentation ended before VAD began.
    const vadStarted = seen.findIndex((snapshot) => itemOf(snapshot, 'vad')!.state !== 'waiting');
    expect(itemOf(seen[vadStarted]!, 'segmentation')!.state).toBe('downloaded');
  });

  test('a model already installed comes out unchanged and is not requested; a later start begins a new download', async () => {
    copyFileSync(sharedFiles.segmentation, rig.folder.config.SEGMENTATION_MODEL);
    const { downloads, onInstalled } = downloadsVia(rig.mirror.url);

    const first = await downloads.start('start', ['segmentation', 'vad']);
    expect(first.items.map((item) => [item.slot, item.state])).toEqual([['segmentation', 'unchanged'], ['vad', 'downloaded']]);
    expect(itemOf(first, 'segmentation')).toMatchObject({ message: expect.stringContaining('already installed'), receivedBytes: 0 });
    // Only the reachability probe (HEAD) went to the segmentation file.
    expect(rig.mirror.gets(rig.mirror.paths.segmentation)).toBe(0);
    expect(rig.mirror.gets(rig.mirror.paths.vad)).toBe(1);
    expect(onInstalled).toHaveBeenCalledTimes(1);

    const again = await downloads.start('admin', ['segmentation', 'vad']);
    expect(again).toMatchObject({ state: 'finished', trigger: 'admin' });
    expect(again.items.map((item) => item.state)).toEqual(['unchanged', 'unchanged']);
    expect(rig.mirror.gets(rig.mirror.paths.vad)).toBe(1);
    // Nothing new installed: the engine need not look again.
    expect(onInstalled).toHaveBeenCalledTimes(1);
  });

  test('a listener stops hearing once it unsubscribes', async () => {
    const { downloads } = downloadsVia(rig.mirror.url);
    const listener = vi.fn();
    downloads.listen(listener)();
    await downloads.start('admin', ['vad']);
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('offline', () => {
  test('a mirror that refuses connections: state offline naming it, nothing tried, no file created', async () => {
    const closed = await closedLoopbackUrl();
    const { downloads, onInstalled } = downloadsVia(closed);
    const snapshot = await downloads.start('start', ['segmentation', 'vad', 'whisper']);
    expect(snapshot).toMatchObject({ state: 'offline', unreachable: new URL(closed).host, finishedAt: expect.any(String) });
    expect(snapshot.unreachable).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(snapshot.items.map((item) => item.state)).toEqual(['waiting', 'waiting', 'waiting']);
    expect(readdirSync(rig.folder.models)).toEqual([]);
    expect(onInstalled).not.toHaveBeenCalled();
    expect(downloads.isRunning).toBe(false);
  });
});

describe('downloadUrlOf', () => {
  const hub = 'https://huggingface.co/ggml-org/whisper-vad/resolve/main/ggml-silero-v6.2.0.bin';
  test.each([
    ['no mirror: the manifest URL', hub, undefined, hub],
    ['a mirror replaces scheme, host and port', hub, 'http://models.internal:8000', 'http://models.internal:8000/ggml-org/whisper-vad/resolve/main/ggml-silero-v6.2.0.bin'],
    ['a trailing slash on the mirror makes no difference', hub, 'http://models.internal:8000/', 'http://models.internal:8000/ggml-org/whisper-vad/resolve/main/ggml-silero-v6.2.0.bin'],
    ['an https mirror on the default port', hub, 'https://mirror.example', 'https://mirror.example/ggml-org/whisper-vad/resolve/main/ggml-silero-v6.2.0.bin'],
    ['the query is kept', 'https://huggingface.co/a/b.onnx?download=true', 'http://127.0.0.1:9', 'http://127.0.0.1:9/a/b.onnx?download=true'],
    ['a URL with a port loses it to the mirror', 'http://downloads.example:8443/x/y.bin', 'http://127.0.0.1:9', 'http://127.0.0.1:9/x/y.bin'],
  ])('%s', (_case, url, mirrorUrl, expected) => {
    expect(downloadUrlOf(url, mirrorUrl)).toBe(expected);
  });
});

describe('downloadTotals', () => {
  const item = (state: ModelDownloadItem['state'], receivedBytes: number, totalBytes: number | null): ModelDownloadItem =>
    ({ slot: 'vad', entry: `entry-${state}`, state, receivedBytes, totalBytes, message: null, warning: null, target: null });
  const snapshotOf = (items: ModelDownloadItem[]): ModelDownloadSnapshot =>
    ({ state: 'running', trigger: 'admin', startedAt: null, finishedAt: null, unreachable: null, items });

  test('sums what is waiting, downloading or downloaded; ignores items that ended unchanged, kept or failed', () => {
    expect(downloadTotals(snapshotOf([
      item('downloaded', 100, 100), item('downloading', 30, 200), item('waiting', 0, 50),
      item('unchanged', 0, 1000), item('kept', 0, 2000), item('failed', 70, 4000),
    ]))).toEqual({ received: 130, total: 350 });
  });

  test('the total is unknown while a counted item\'s size is; an ignored item\'s unknown size does not matter', () => {
    expect(downloadTotals(snapshotOf([item('downloading', 30, 200), item('waiting', 0, null)]))).toEqual({ received: 30, total: null });
    expect(downloadTotals(snapshotOf([item('downloading', 30, 200), item('failed', 0, null)]))).toEqual({ received: 30, total: 200 });
  });

  test('no items: nothing received of nothing', () => {
    expect(downloadTotals(snapshotOf([]))).toEqual({ received: 0, total: 0 });
  });
});
