import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { installedModelManifest } from '../../../src/infrastructure/models/loadModelManifest.js';
import { readManifestLock } from '../../../src/infrastructure/models/manifestLock.js';
import type { ModelManifest } from '../../../src/infrastructure/models/manifestSchema.js';
import { ModelDigestCache, sha256OfFile } from '../../../src/infrastructure/models/ModelDigestCache.js';
import { fetchModels, inspectModels } from '../../../src/infrastructure/models/modelInventory.js';
import { ge2eTestWheel } from './conversion/ge2eTestCheckpoint.js';
import { modelFolder, sharedFiles } from './modelFixtures.js';

// A loopback HTTP server stands in for the model hub; the files it serves are the development
// models of ../shared/models.

interface Served {
  body: Buffer;
  /** Close the connection after this many bytes, once (an interrupted download). */
  cutAfterBytes?: number;
}

const files = new Map<string, Served>();
const requests: { path: string; range: string | undefined }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.push({ path, range: request.headers.range });
    const served = files.get(path);
    if (!served) {
      response.writeHead(404).end();
      return;
    }
    const start = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
    if (start >= served.body.length) {
      response.writeHead(416, { 'content-range': `bytes */${served.body.length}` }).end();
      return;
    }
    const headers = { 'content-length': String(served.body.length - start), 'accept-ranges': 'bytes' };
    if (start > 0) response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${served.body.length - 1}/${served.body.length}` });
    else response.writeHead(200, headers);
    if (served.cutAfterBytes !== undefined) {
      const cut = served.cutAfterBytes;
      served.cutAfterBytes = undefined;
      response.write(served.body.subarray(start, start + cut), () => response.destroy());
      return;
    }
    response.end(served.body.subarray(start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise((resolve) => server.close(resolve)); });

let folder: Awaited<ReturnType<typeof modelFolder>>;
let manifest: ModelManifest;
beforeEach(async () => {
  folder = await modelFolder();
  files.clear();
  requests.length = 0;
  // The installed manifest, its download URLs pointing at the loopback server.
  manifest = structuredClone(await installedModelManifest());
  for (const entry of manifest.models) if (entry.url) entry.url = `${baseUrl}/${entry.name}`;
});
afterEach(async () => { await folder.remove(); });

const options = () => ({ lockPath: folder.lockPath, digests: new ModelDigestCache() });
const vadSha256 = '2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987';

describe('fetchModels', () => {
  test('resumes an interrupted download with a Range request, verifies it and renames it into place', async () => {
    files.set('/silero-vad-v6.2.0', { body: await readFile(sharedFiles.vad), cutAfterBytes: 300_000 });

    const [broken] = await fetchModels(folder.config, manifest, { ...options(), slots: ['vad'] });
    expect(broken).toMatchObject({ outcome: 'failed', slot: 'vad', message: expect.stringMatching(/broke after|stopped at/) });
    // What reached the disk before the cut (the socket's last bytes may be lost with it).
    const kept = (await stat(`${folder.config.VAD_MODEL}.part`)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(300_000);
    expect(existsSync(folder.config.VAD_MODEL)).toBe(false);

    const [resumed] = await fetchModels(folder.config, manifest, { ...options(), slots: ['vad'] });
    expect(resumed).toMatchObject({ outcome: 'downloaded', entry: 'silero-vad-v6.2.0', target: folder.config.VAD_MODEL });
    expect(requests.map((request) => request.range)).toEqual([undefined, `bytes=${kept}-`]);
    expect(await sha256OfFile(folder.config.VAD_MODEL)).toBe(vadSha256);
    expect(existsSync(`${folder.config.VAD_MODEL}.part`)).toBe(false);
    expect((await readManifestLock(folder.lockPath)).installed[folder.config.VAD_MODEL]).toMatchObject({ entry: 'silero-vad-v6.2.0', sha256: vadSha256 });

    const [again] = await fetchModels(folder.config, manifest, { ...options(), slots: ['vad'] });
    expect(again).toMatchObject({ outcome: 'unchanged' });
    expect(requests).toHaveLength(2);
  });

  test('rejects a download whose digest is not the manifest\'s: nothing installed, the partial file removed', async () => {
    const tampered = await readFile(sharedFiles.vad);
    tampered[1000] = tampered[1000]! ^ 0xff;
    files.set('/silero-vad-v6.2.0', { body: tampered });

    const [result] = await fetchModels(folder.config, manifest, { ...options(), slots: ['vad'] });
    expect(result).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/SHA-256 .* is not silero-vad-v6\.2\.0's/) });
    expect(existsSync(folder.config.VAD_MODEL)).toBe(false);
    expect(existsSync(`${folder.config.VAD_MODEL}.part`)).toBe(false);
  });

  test('refuses before downloading when the server offers another size than the manifest says', async () => {
    files.set('/silero-vad-v6.2.0', { body: Buffer.from('an error page, not a model') });
    const [result] = await fetchModels(folder.config, manifest, { ...options(), slots: ['vad'] });
    expect(result).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/offers 26 bytes .* manifest says 885098/) });
  });

  test('fails clearly when the host cannot be reached, pointing to import', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const entry of manifest.models) if (entry.url) entry.url = `http://127.0.0.1:${port}/${entry.name}`;

    const [result] = await fetchModels(folder.config, manifest, { ...options(), slots: ['segmentation'] });
    expect(result).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\).*callscope models import/) });
  });

  test('never overwrites a good file (an own model): it is kept and nothing is requested', async () => {
    await writeFile(folder.config.SEGMENTATION_MODEL, 'own segmentation model');
    const [result] = await fetchModels(folder.config, manifest, { ...options(), slots: ['segmentation'] });
    expect(result).toMatchObject({ outcome: 'kept', message: expect.stringMatching(/move it away/) });
    expect(requests).toEqual([]);
    expect(await readFile(folder.config.SEGMENTATION_MODEL, 'utf8')).toBe('own segmentation model');
  });

  test('trusts an unpinned model on first fetch: records its digest, warns, and status shows it not pinned', async () => {
    const body = Buffer.from('stand-in for the Qwen GGUF');
    files.set('/qwen2.5-1.5b-instruct-q4_k_m', { body });

    const [result] = await fetchModels(folder.config, manifest, { ...options(), slots: ['llm'] });
    expect(result).toMatchObject({ outcome: 'downloaded', entry: 'qwen2.5-1.5b-instruct-q4_k_m', warning: expect.stringMatching(/not pinned/) });
    const recorded = (await readManifestLock(folder.lockPath)).recorded['qwen2.5-1.5b-instruct-q4_k_m'];
    expect(recorded).toMatchObject({ sha256: await sha256OfFile(folder.config.LLM_MODEL), size: body.length, source: `${baseUrl}/qwen2.5-1.5b-instruct-q4_k_m` });
    const status = (await inspectModels(folder.config, manifest, options())).find((slot) => slot.slot === 'llm');
    expect(status).toMatchObject({ check: 'not_pinned', manifestEntry: { name: 'qwen2.5-1.5b-instruct-q4_k_m', sha256: null } });
  });

  test('a later fetch of an unpinned model must match the digest recorded first', async () => {
    files.set('/qwen2.5-1.5b-instruct-q4_k_m', { body: Buffer.from('first version') });
    expect((await fetchModels(folder.config, manifest, { ...options(), slots: ['llm'] }))[0]).toMatchObject({ outcome: 'downloaded' });

    files.set('/qwen2.5-1.5b-instruct-q4_k_m', { body: Buffer.from('second version') });
    // The installed file is damaged afterwards: fetch may replace it, but only with the version first seen.
    await writeFile(folder.config.LLM_MODEL, 'damaged');
    const [result] = await fetchModels(folder.config, manifest, { ...options(), slots: ['llm'] });
    expect(result).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/is not qwen2\.5-1\.5b-instruct-q4_k_m's/) });
  });

  test('installs a model made from an archive (the GE2E encoder from its wheel): downloaded, checked, converted here, the archive removed', async () => {
    const { wheel, pin } = await ge2eTestWheel();
    const entry = manifest.models.find((model) => model.name === 'ge2e-resemblyzer')!;
    pin(entry);
    files.set('/ge2e-resemblyzer', { body: wheel });

    const [result] = await fetchModels(folder.config, manifest, { ...options(), models: ['ge2e-resemblyzer'] });
    expect(result).toMatchObject({ outcome: 'downloaded', entry: 'ge2e-resemblyzer', target: folder.config.EMBEDDING_MODEL, message: expect.stringMatching(/converted here from ge2e-resemblyzer, whose SHA-256 was verified/) });
    expect(await sha256OfFile(folder.config.EMBEDDING_MODEL)).toBe(entry.sha256);
    expect(existsSync(`${folder.config.EMBEDDING_MODEL}.archive.part`)).toBe(false);
    expect((await readManifestLock(folder.lockPath)).installed[folder.config.EMBEDDING_MODEL]).toMatchObject({ entry: 'ge2e-resemblyzer', sha256: entry.sha256 });
    const status = (await inspectModels(folder.config, manifest, options())).find((slot) => slot.slot === 'embedding');
    expect(status).toMatchObject({ check: 'ok', manifestEntry: { name: 'ge2e-resemblyzer' } });

    expect((await fetchModels(folder.config, manifest, { ...options(), models: ['ge2e-resemblyzer'] }))[0]).toMatchObject({ outcome: 'unchanged' });
  });

  test('refuses an archive whose digest is not the manifest\'s, and a conversion that gives another file: nothing installed', async () => {
    const { wheel, pin } = await ge2eTestWheel();
    const entry = manifest.models.find((model) => model.name === 'ge2e-resemblyzer')!;
    pin(entry);
    const tampered = Buffer.from(wheel);
    tampered[tampered.length - 30] = tampered[tampered.length - 30]! ^ 0xff;
    files.set('/ge2e-resemblyzer', { body: tampered });
    const [refused] = await fetchModels(folder.config, manifest, { ...options(), models: ['ge2e-resemblyzer'] });
    expect(refused).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/is not that of ge2e-resemblyzer's archive/) });

    files.set('/ge2e-resemblyzer', { body: wheel });
    entry.sha256 = '0'.repeat(64);
    const [mismatch] = await fetchModels(folder.config, manifest, { ...options(), models: ['ge2e-resemblyzer'] });
    expect(mismatch).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/conversion of ge2e-resemblyzer gave SHA-256 [0-9a-f]{64}, not the manifest's 0{64}: nothing was installed/) });
    expect(existsSync(folder.config.EMBEDDING_MODEL)).toBe(false);
    expect(existsSync(`${folder.config.EMBEDDING_MODEL}.archive.part`)).toBe(false);
  });
});
