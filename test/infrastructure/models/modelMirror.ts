import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { installedModelManifest } from '../../../src/infrastructure/models/loadModelManifest.js';
import { defaultLockPath } from '../../../src/infrastructure/models/manifestLock.js';
import { modelFolder, sharedFiles } from './modelFixtures.js';

// A loopback stand-in for a site's model mirror (MODELS_MIRROR_URL): it serves the two real
// recommended models of ../shared/models (segmentation and VAD) at the paths of their manifest
// URLs, and answers 404 for everything else (whisper, embeddings, the LLM).

export interface ModelMirror {
  /** `http://127.0.0.1:<port>`: what MODELS_MIRROR_URL is set to. */
  url: string;
  /** The URL path of each served slot's recommended entry. */
  paths: { segmentation: string; vad: string };
  /** Every request, in order. */
  requests: { method: string; path: string }[];
  /** GET requests for `path` seen so far. */
  gets(path: string): number;
  /**
   * Holds every GET from now on (HEAD requests, the reachability probe, are still answered) until
   * the returned function is called: a download that stays running while the test looks at it.
   */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startModelMirror(): Promise<ModelMirror> {
  const manifest = await installedModelManifest();
  const pathOf = (name: string) => new URL(manifest.models.find((entry) => entry.name === name)!.url!).pathname;
  const paths = { segmentation: pathOf('pyannote-segmentation-3.0-fp16'), vad: pathOf('silero-vad-v6.2.0') };
  const files = new Map<string, Buffer>([
    [paths.segmentation, await readFile(sharedFiles.segmentation)],
    [paths.vad, await readFile(sharedFiles.vad)],
  ]);
  const requests: ModelMirror['requests'] = [];
  let held: Promise<void> | undefined;

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://mirror').pathname;
    requests.push({ method: request.method ?? '', path });
    const answer = () => {
      const body = files.get(path);
      if (!body) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not on this mirror');
        return;
      }
      response.writeHead(200, { 'content-length': String(body.length), 'content-type': 'application/octet-stream' });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (held && request.method !== 'HEAD') void held.then(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    paths,
    requests,
    gets: (path) => requests.filter((request) => request.method === 'GET' && request.path === path).length,
    hold: () => {
      let release!: () => void;
      held = new Promise((resolve) => { release = resolve; });
      return () => {
        held = undefined;
        release();
      };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A loopback address nothing listens on: connections are refused at once. The port is below the
 * range listeners on port 0 are given (Linux 32768–60999, macOS 49152–65535), so that no server a
 * test starts afterwards (the app's own, say) can take it; a port merely released could be, and
 * then answered in a CI run. Checked closed by connecting to it.
 */
export async function closedLoopbackUrl(): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    if (await refusesConnections(port)) return `http://127.0.0.1:${port}`;
  }
  throw new Error('no closed loopback port found between 20000 and 29999');
}

async function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** What {@link useMirrorAndModelFolder} gives a test: the file's mirror and this test's model folder. */
export interface MirrorRig {
  readonly mirror: ModelMirror;
  readonly folder: Awaited<ReturnType<typeof modelFolder>>;
}

/**
 * Registers a download test file's hooks: one mirror for the file (its request log cleared before
 * each test), a fresh model folder for each test, and, at the end, the folder of the lock file
 * (a file that mocks `manifestLock.js` with isolatedManifestLock.ts has its lock in a temp folder).
 */
export function useMirrorAndModelFolder(): MirrorRig {
  const rig = {} as { mirror: ModelMirror; folder: MirrorRig['folder'] };
  beforeAll(async () => { rig.mirror = await startModelMirror(); });
  afterAll(async () => {
    await rig.mirror.close();
    rmSync(dirname(defaultLockPath), { recursive: true, force: true });
  });
  beforeEach(async () => {
    rig.folder = await modelFolder();
    rig.mirror.requests.length = 0;
  });
  afterEach(async () => { await rig.folder.remove(); });
  return rig;
}
