import { copyFileSync, mkdirSync, utimesSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Config } from '../../../src/config/configSchema.js';
import {
  describeMissingModels, howToInstallAll, missingModels, modelSettleMs, slotsNeededByCalls, type MissingModel,
} from '../../../src/infrastructure/models/missingModels.js';
import { modelFolder, sharedFiles, type ModelConfig } from './modelFixtures.js';

let folder: Awaited<ReturnType<typeof modelFolder>>;
beforeEach(async () => { folder = await modelFolder(); });
afterEach(async () => { await folder.remove(); });

type MissingConfig = ModelConfig & Pick<Config, 'ANALYSER'>;
const configWith = (overrides: Partial<MissingConfig> = {}): MissingConfig => ({ ...folder.config, ANALYSER: 'auto', ...overrides });

/** What the engine passes: files must have been left alone for the settle time, as of `now`. */
const settled = (now: number) => ({ settleMs: modelSettleMs, now });

/** Sets the file's modification time to `mtimeMs` (and its access time with it). */
const touch = (path: string, mtimeMs: number) => utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);

/** Installs the two models calls always need, modified `ageMs` before `now`. */
function installRequired(config: ModelConfig, now: number, ageMs: number): void {
  copyFileSync(sharedFiles.segmentation, config.SEGMENTATION_MODEL);
  copyFileSync(sharedFiles.whisper, config.WHISPER_MODEL);
  touch(config.SEGMENTATION_MODEL, now - ageMs);
  touch(config.WHISPER_MODEL, now - ageMs);
}

describe('slotsNeededByCalls', () => {
  test.each([
    ['auto', ['segmentation', 'whisper']],
    ['builtin', ['segmentation', 'whisper']],
    ['llm', ['segmentation', 'whisper', 'llm']],
    ['hybrid', ['segmentation', 'whisper', 'llm']],
  ] as const)('ANALYSER=%s needs %j', (analyser, slots) => {
    expect(slotsNeededByCalls({ ANALYSER: analyser })).toEqual(slots);
  });
});

describe('missingModels', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  test('names every needed model whose file is absent (optional ones are never missing)', () => {
    expect(missingModels(configWith(), settled(now)).map((model) => model.slot)).toEqual(['segmentation', 'whisper']);
    expect(missingModels(configWith({ ANALYSER: 'llm' }), settled(now)).map((model) => model.slot)).toEqual(['segmentation', 'whisper', 'llm']);
  });

  test('nothing is missing once the needed files are there and settled', () => {
    installRequired(folder.config, now, 60_000);
    expect(missingModels(configWith(), settled(now))).toEqual([]);
    expect(missingModels(configWith({ ANALYSER: 'builtin' }), settled(now))).toEqual([]);
    // The language model only with ANALYSER=llm.
    expect(missingModels(configWith({ ANALYSER: 'llm' }), settled(now)).map((model) => model.slot)).toEqual(['llm']);
  });

  test('a folder where the file should be counts as missing', () => {
    installRequired(folder.config, now, 60_000);
    mkdirSync(folder.config.LLM_MODEL);
    expect(missingModels(configWith({ ANALYSER: 'llm' }), settled(now))).toEqual([expect.objectContaining({ slot: 'llm', configKey: 'LLM_MODEL' })]);
  });

  test(`with settleMs, a file modified less than ${modelSettleMs} ms ago is still arriving: missing until it settles`, () => {
    installRequired(folder.config, now, 60_000);
    touch(folder.config.WHISPER_MODEL, now - 1000);
    expect(missingModels(configWith(), settled(now))).toEqual([expect.objectContaining({ slot: 'whisper', configKey: 'WHISPER_MODEL' })]);
    // The same file asked about later, or once it was left alone for the settle time.
    expect(missingModels(configWith(), { settleMs: modelSettleMs, now: now - 1000 + modelSettleMs })).toEqual([]);
    touch(folder.config.WHISPER_MODEL, now - modelSettleMs - 1);
    expect(missingModels(configWith(), settled(now))).toEqual([]);
  });

  test('by default (readiness: what is on disk) a file just written counts as there; a folder still does not', () => {
    const writtenAt = Date.now();
    installRequired(folder.config, writtenAt, 0);
    expect(missingModels(configWith())).toEqual([]);
    expect(missingModels(configWith(), { now: writtenAt + 1 })).toEqual([]);
    // The engine, asking at the same moment, would still wait for both.
    expect(missingModels(configWith(), settled(writtenAt + 1)).map((model) => model.slot)).toEqual(['segmentation', 'whisper']);
    mkdirSync(folder.config.LLM_MODEL);
    expect(missingModels(configWith({ ANALYSER: 'llm' })).map((model) => model.slot)).toEqual(['llm']);
  });

  test('a file stamped in the future (another clock, kept by cp -p) counts as settled', () => {
    installRequired(folder.config, now, 60_000);
    touch(folder.config.SEGMENTATION_MODEL, now + 3_600_000);
    expect(missingModels(configWith(), settled(now))).toEqual([]);
  });

  test('describes each missing model without an absolute path', () => {
    const [model] = missingModels(configWith({ ANALYSER: 'builtin' }), settled(now));
    expect(model).toEqual({
      slot: 'segmentation',
      configKey: 'SEGMENTATION_MODEL',
      label: 'speaker segmentation model',
      // Configured as an absolute path outside the install folder: only the file's name.
      expectedAt: 'segmentation.onnx',
      howToInstall: expect.stringContaining('callscope models fetch --slot segmentation'),
    });
    expect(model!.howToInstall).toMatch(/callscope models import DIR.*copy the file to segmentation\.onnx$/);
    expect(JSON.stringify(missingModels(configWith({ ANALYSER: 'llm' }), settled(now)))).not.toContain(folder.root);
  });

  test.each([
    ['inside the install folder', 'models/not-installed-for-test.bin', 'models/not-installed-for-test.bin'],
    ['relative, leading out of the install folder', '../elsewhere/not-installed-for-test.bin', 'not-installed-for-test.bin'],
  ])('a path %s is shown as %s', (_case, configured, shown) => {
    const missing = missingModels(configWith({ WHISPER_MODEL: configured }), settled(now)).find((model) => model.slot === 'whisper');
    expect(missing?.expectedAt).toBe(shown);
    expect(isAbsolute(missing!.expectedAt)).toBe(false);
  });
});

describe('describeMissingModels and howToInstallAll', () => {
  const segmentation: MissingModel = {
    slot: 'segmentation', configKey: 'SEGMENTATION_MODEL', label: 'speaker segmentation model', expectedAt: 'models/segmentation.onnx',
    howToInstall: 'the segmentation model\'s own instructions',
  };
  const whisper: MissingModel = {
    slot: 'whisper', configKey: 'WHISPER_MODEL', label: 'speech recognition model', expectedAt: 'models/whisper.bin',
    howToInstall: 'the whisper model\'s own instructions',
  };
  const llm: MissingModel = {
    slot: 'llm', configKey: 'LLM_MODEL', label: 'language model for call analysis', expectedAt: 'llm.gguf', howToInstall: 'llm',
  };

  test('names one model, two joined by "and", three with commas', () => {
    expect(describeMissingModels([])).toBe('');
    expect(describeMissingModels([whisper])).toBe('the speech recognition model (models/whisper.bin)');
    expect(describeMissingModels([segmentation, whisper]))
      .toBe('the speaker segmentation model (models/segmentation.onnx) and the speech recognition model (models/whisper.bin)');
    expect(describeMissingModels([segmentation, whisper, llm])).toBe(
      'the speaker segmentation model (models/segmentation.onnx), the speech recognition model (models/whisper.bin) and the language model for call analysis (llm.gguf)',
    );
  });

  test('one model: its own instructions; several: the general ones', () => {
    expect(howToInstallAll([whisper])).toBe('the whisper model\'s own instructions');
    const several = howToInstallAll([segmentation, whisper]);
    expect(several).toMatch(/callscope models fetch`.*callscope models import DIR.*copy each file to the path shown/);
    expect(several).not.toContain('own instructions');
  });

  test('the instructions produced for a real missing model name its slot and where the file goes', () => {
    const missing = missingModels({ ...folder.config, ANALYSER: 'auto' }, settled(Date.now()));
    expect(howToInstallAll(missing.slice(1))).toBe(missing[1]!.howToInstall);
    expect(missing[1]!.howToInstall).toContain('--slot whisper');
    expect(missing[1]!.howToInstall).toContain('whisper.bin');
  });
});
