import { copyFileSync, existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { Config } from '../../../src/config/configSchema.js';
import { defaultFetchSlots } from '../../../src/infrastructure/models/fetchModels.js';
import { installedModelManifest } from '../../../src/infrastructure/models/loadModelManifest.js';
import { defaultLockPath } from '../../../src/infrastructure/models/manifestLock.js';
import { ModelDownloads } from '../../../src/infrastructure/models/ModelDownloads.js';
import { prepareModelsAtStart, slotsToFetch } from '../../../src/infrastructure/models/prepareModelsAtStart.js';
import { closedLoopbackUrl, useMirrorAndModelFolder } from './modelMirror.js';
import { sharedFiles, type ModelConfig } from './modelFixtures.js';

// ModelDownloads has no lockPath option: keep the lock file it writes out of the repository.
vi.mock('../../../src/infrastructure/models/manifestLock.js', async (importOriginal) =>
  (await import('./isolatedManifestLock.js')).withIsolatedLockPath(await importOriginal()));

const rig = useMirrorAndModelFolder();
let closedUrl: string;
beforeAll(async () => { closedUrl = await closedLoopbackUrl(); });

type StartConfig = ModelConfig & Pick<Config, 'MODELS_AUTO_FETCH' | 'ANALYSER' | 'MODELS_MIRROR_URL'>;

interface LogLine { level: number; msg: string; [field: string]: unknown }
const levels = { info: 30, warn: 40, error: 50 };

/** Runs prepareModelsAtStart as server.ts does, collecting the log and (optionally) a terminal's output. */
async function prepare(overrides: Partial<StartConfig>, { withTerminal }: { withTerminal: boolean }) {
  const config: StartConfig = { ...rig.folder.config, MODELS_AUTO_FETCH: true, ANALYSER: 'auto', MODELS_MIRROR_URL: rig.mirror.url, ...overrides };
  const downloads = new ModelDownloads(config, { manifest: installedModelManifest });
  const lines: LogLine[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => { lines.push(JSON.parse(line) as LogLine); } }) as unknown as FastifyBaseLogger;
  const terminal = withTerminal ? new PassThrough() : undefined;
  await prepareModelsAtStart({ config, downloads, log, ...(terminal ? { terminal } : {}) });
  const printed = terminal ? (terminal.read() as Buffer | null)?.toString() ?? '' : '';
  return { downloads, lines, printed, config };
}

/** The paragraph as one line of words (the terminal wraps it). */
const unwrapped = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every line of the printed paragraph fits 96 columns; it stands apart with blank lines. */
function expectWrappedParagraph(printed: string): void {
  expect(printed).toMatch(/\nCallscope cannot process calls yet: [^]*\n\n$/);
  const paragraph = printed.slice(printed.indexOf('Callscope cannot'));
  for (const line of paragraph.split('\n')) expect(line.length, line).toBeLessThanOrEqual(96);
  expect(paragraph.trim().split('\n').length).toBeGreaterThan(1);
}

/** Puts a file in a slot, last modified a minute ago (settled). */
function installSettled(source: string | Buffer, target: string): void {
  if (typeof source === 'string') copyFileSync(source, target);
  else writeFileSync(target, source);
  const minuteAgo = (Date.now() - 60_000) / 1000;
  utimesSync(target, minuteAgo, minuteAgo);
}

const callsWait = 'Calls uploaded meanwhile wait in the queue and start by themselves once the models are in place; no restart is needed.';

test('slotsToFetch: the recommended set, plus the language model with ANALYSER=llm', () => {
  expect(slotsToFetch({ ANALYSER: 'auto' })).toEqual([...defaultFetchSlots]);
  expect(slotsToFetch({ ANALYSER: 'builtin' })).toEqual([...defaultFetchSlots]);
  expect(slotsToFetch({ ANALYSER: 'llm' })).toEqual([...defaultFetchSlots, 'llm']);
  expect(slotsToFetch({ ANALYSER: 'hybrid' })).toEqual([...defaultFetchSlots, 'llm']);
});

test('the lock file is kept out of the repository', () => {
  expect(readdirSync(dirname(defaultLockPath)).filter((name) => !name.startsWith('.'))).toEqual([]);
});

test('nothing happens when no model calls need is missing', async () => {
  installSettled(sharedFiles.segmentation, rig.folder.config.SEGMENTATION_MODEL);
  installSettled(sharedFiles.whisper, rig.folder.config.WHISPER_MODEL);
  for (const withTerminal of [true, false]) {
    const { downloads, lines, printed } = await prepare({}, { withTerminal });
    expect(printed).toBe('');
    expect(lines).toEqual([]);
    expect(downloads.snapshot().state).toBe('idle');
  }
  expect(rig.mirror.requests).toEqual([]);
});

describe('with the download off (MODELS_AUTO_FETCH=false)', () => {
  test('on a terminal: one wrapped paragraph naming what is missing, where it goes and how to import it', async () => {
    const { downloads, lines, printed } = await prepare({ MODELS_AUTO_FETCH: false }, { withTerminal: true });
    expectWrappedParagraph(printed);
    const text = unwrapped(printed);
    expect(text).toMatch(/^Callscope cannot process calls yet: the speaker segmentation model \(segmentation\.onnx\) and the speech recognition model \(whisper\.bin\) are not installed, and downloading at start is off \(MODELS_AUTO_FETCH=false\)\. /);
    expect(text).toContain('`npx callscope models import DIR`');
    expect(text.endsWith(callsWait)).toBe(true);
    expect(printed).not.toContain(rig.folder.root);
    expect(lines).toEqual([]);
    expect(downloads.snapshot().state).toBe('idle');
    expect(rig.mirror.requests).toEqual([]);
  });

  test('one missing model is named alone', async () => {
    installSettled(sharedFiles.segmentation, rig.folder.config.SEGMENTATION_MODEL);
    const { printed } = await prepare({ MODELS_AUTO_FETCH: false }, { withTerminal: true });
    expect(unwrapped(printed)).toMatch(/^Callscope cannot process calls yet: the speech recognition model \(whisper\.bin\) is not installed, and downloading/);
  });

  test('without a terminal: a single warn log entry instead, nothing printed', async () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    try {
      const { lines } = await prepare({ MODELS_AUTO_FETCH: false, ANALYSER: 'llm' }, { withTerminal: false });
      expect(lines).toEqual([expect.objectContaining({ level: levels.warn, missing: ['SEGMENTATION_MODEL', 'WHISPER_MODEL', 'LLM_MODEL'] })]);
      const message = lines[0]!.msg;
      expect(message).toMatch(/^Callscope cannot process calls yet: the speaker segmentation model \(segmentation\.onnx\), the speech recognition model \(whisper\.bin\) and the language model for call analysis \(llm\.gguf\) are not installed, and downloading at start is off/);
      expect(message).toContain('npx callscope models import DIR');
      expect(message).not.toContain('\n');
      expect(JSON.stringify(lines)).not.toContain(rig.folder.root);
      expect(stdout.mock.calls.map(([chunk]) => String(chunk)).filter((chunk) => chunk.includes('Callscope cannot'))).toEqual([]);
    } finally {
      stdout.mockRestore();
    }
  });
});

describe('offline', () => {
  test('the paragraph names the host that cannot be reached; nothing is downloaded', async () => {
    const { downloads, printed, lines } = await prepare({ MODELS_MIRROR_URL: closedUrl }, { withTerminal: true });
    expect(downloads.snapshot()).toMatchObject({ state: 'offline', unreachable: new URL(closedUrl).host });
    const paragraph = printed.slice(printed.indexOf('Callscope cannot'));
    expectWrappedParagraph(paragraph.replace(/^/, '\n'));
    expect(unwrapped(paragraph)).toMatch(new RegExp(`are not installed, and ${new URL(closedUrl).host.replaceAll('.', '\\.')} cannot be reached from this machine to download them\\. `));
    expect(unwrapped(paragraph)).toContain('`npx callscope models import DIR`');
    expect(unwrapped(paragraph).endsWith(callsWait)).toBe(true);
    expect(printed).not.toContain(rig.folder.root);
    expect(lines.filter((line) => line.level >= levels.error)).toEqual([]);
    expect(readdirSync(rig.folder.models)).toEqual([]);
  });

  test('without a terminal the same paragraph is one warn log entry', async () => {
    const { lines } = await prepare({ MODELS_MIRROR_URL: closedUrl }, { withTerminal: false });
    const warnings = lines.filter((line) => line.level === levels.warn);
    expect(warnings).toEqual([expect.objectContaining({ missing: ['SEGMENTATION_MODEL', 'WHISPER_MODEL'] })]);
    expect(warnings[0]!.msg).toContain(`${new URL(closedUrl).host} cannot be reached`);
  });
});

describe('downloading from the mirror', () => {
  test('draws the bar on the terminal, logs each model, and says whisper (not on the mirror) is still missing', async () => {
    const { downloads, printed, lines } = await prepare({}, { withTerminal: true });
    expect(downloads.snapshot().state).toBe('finished');
    expect(existsSync(rig.folder.config.SEGMENTATION_MODEL)).toBe(true);
    expect(existsSync(rig.folder.config.VAD_MODEL)).toBe(true);

    // The bar: lines redrawn in place, the last one full (failed models do not count), then a newline.
    const bar = printed.slice(0, printed.indexOf('\n'));
    const frames = bar.split('\r').filter(Boolean);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => frame.startsWith('Downloading models') && frame.endsWith('\x1b[K'))).toBe(true);
    expect(frames.at(-1)).toMatch(/\[#{30}\] 100%  3\.7 of 3\.7 MiB\x1b\[K$/);

    const outcomes = lines.filter((line) => line.slot !== undefined).map((line) => [line.level, line.slot, line.outcome, line.target]);
    expect(outcomes).toEqual([
      [levels.info, 'segmentation', 'downloaded', 'segmentation.onnx'],
      [levels.warn, 'whisper', 'failed', 'whisper.bin'],
      [levels.info, 'vad', 'downloaded', 'vad.bin'],
      [levels.warn, 'embedding', 'failed', 'embedding.onnx'],
    ]);
    expect(lines.find((line) => line.slot === 'whisper')!.msg).toMatch(/^model download failed: .*answered 404/);

    // The paragraph after the bar: only whisper is missing, the segmentation model just arrived.
    const paragraph = printed.slice(printed.indexOf('Callscope cannot'));
    expectWrappedParagraph(`\n${paragraph}`);
    expect(unwrapped(paragraph)).toMatch(/^Callscope cannot process calls yet: the speech recognition model \(whisper\.bin\) is not installed: the download failed \(see the lines above; `npx callscope models fetch` resumes it\)\. /);
    expect(unwrapped(paragraph).endsWith(callsWait)).toBe(true);
    expect(printed).not.toContain(rig.folder.root);
    expect(JSON.stringify(lines)).not.toContain(rig.folder.root);
  });

  test('when every model calls need is then in place, says so and that calls start', async () => {
    // An own whisper model is in place (kept); the segmentation model is fetched.
    installSettled(Buffer.from('an own whisper model'), rig.folder.config.WHISPER_MODEL);
    const { downloads, printed, lines } = await prepare({}, { withTerminal: true });
    expect(downloads.snapshot().items.map((item) => [item.slot, item.state])).toEqual([
      ['segmentation', 'downloaded'], ['whisper', 'kept'], ['vad', 'downloaded'], ['embedding', 'failed'],
    ]);
    expect(lines.find((line) => line.slot === 'whisper')).toMatchObject({ level: levels.info, msg: 'model already installed' });
    expect(printed).not.toContain('Callscope cannot process calls yet');
    expect(printed.endsWith('Models installed: pyannote-segmentation-3.0-fp16 → segmentation.onnx, silero-vad-v6.2.0 → vad.bin. Calls start now.\n')).toBe(true);
  });

  test('without a terminal: log lines only (the start, then one per model), nothing printed', async () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    try {
      const { lines } = await prepare({}, { withTerminal: false });
      expect(lines[0]).toMatchObject({
        level: levels.info, msg: 'a model calls need is missing: downloading the recommended models',
        missing: ['SEGMENTATION_MODEL', 'WHISPER_MODEL'], slots: [...defaultFetchSlots],
      });
      expect(lines.filter((line) => line.msg === 'model downloaded and verified').map((line) => line.slot)).toEqual(['segmentation', 'vad']);
      expect(lines.filter((line) => line.level === levels.warn && String(line.msg).startsWith('Callscope cannot'))).toHaveLength(1);
      expect(stdout.mock.calls.map(([chunk]) => String(chunk)).filter((chunk) => chunk.includes('Downloading models'))).toEqual([]);
    } finally {
      stdout.mockRestore();
    }
  });
});
