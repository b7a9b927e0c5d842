import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.js';
import { problemsOf } from './configProblems.js';
import { slotsNeededByCalls } from '../../src/infrastructure/models/missingModels.js';
import { transcriptionSettingsFromConfig } from '../../src/pipeline/transcription/transcriptionOptionsFromConfig.js';

const openAiUrl = 'http://asr.internal:8000/v1/audio/transcriptions';


const problemsAbout = (name: string, env: Record<string, string>) => problemsOf(env).filter((problem) => problem.startsWith(name));

describe('transcription settings in loadConfig', () => {
  test('defaults: whisper.cpp on this box, one hour\'s wait, no server', () => {
    const config = loadConfig({});
    expect(config.TRANSCRIPTION_PROVIDER).toBe('local');
    expect(config.TRANSCRIPTION_TIMEOUT_SECONDS).toBe(3600);
    expect(config.TRANSCRIPTION_URL).toBeUndefined();
    expect(config.TRANSCRIPTION_API_KEY).toBeUndefined();
    expect(config.TRANSCRIPTION_MODEL_NAME).toBeUndefined();
  });

  test.each([
    [openAiUrl],
    ['https://asr.example.org/v1/audio/transcriptions'],
    ['http://10.0.0.5:8080/inference'],
  ])('accepts TRANSCRIPTION_PROVIDER=openai with TRANSCRIPTION_URL=%s', (url) => {
    const config = loadConfig({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_URL: url,
      TRANSCRIPTION_API_KEY: 'sk-site-key',
      TRANSCRIPTION_MODEL_NAME: 'large-v3',
      TRANSCRIPTION_TIMEOUT_SECONDS: '120',
    });
    expect(config).toMatchObject({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_URL: url,
      TRANSCRIPTION_API_KEY: 'sk-site-key',
      TRANSCRIPTION_MODEL_NAME: 'large-v3',
      TRANSCRIPTION_TIMEOUT_SECONDS: 120,
    });
  });

  test('refuses openai without TRANSCRIPTION_URL, naming it', () => {
    expect(problemsAbout('TRANSCRIPTION_URL', { TRANSCRIPTION_PROVIDER: 'openai' })).toHaveLength(1);
    expect(problemsAbout('TRANSCRIPTION_URL', { TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: '   ' })).toHaveLength(1);
    expect(() => loadConfig({ TRANSCRIPTION_PROVIDER: 'openai' })).toThrow(/TRANSCRIPTION_URL/);
  });

  test.each([
    ['ftp://asr.internal/v1/audio/transcriptions'],
    ['file:///srv/asr.sock'],
    ['asr.internal:8000/v1/audio/transcriptions'],
    ['http://asr internal/inference'],
  ])('refuses TRANSCRIPTION_URL=%s (not http(s))', (url) => {
    expect(problemsAbout('TRANSCRIPTION_URL', { TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: url })).toHaveLength(1);
  });

  test('a refused URL\'s problem does not repeat the URL (it may hold credentials)', () => {
    const [problem] = problemsAbout('TRANSCRIPTION_URL', { TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: 'ftp://user:hunter2@asr.internal/' });
    expect(problem).toBeDefined();
    expect(problem).not.toContain('hunter2');
  });

  test('refuses an unknown provider and a timeout under 10 s', () => {
    expect(problemsAbout('TRANSCRIPTION_PROVIDER', { TRANSCRIPTION_PROVIDER: 'azure' })).toHaveLength(1);
    expect(problemsAbout('TRANSCRIPTION_TIMEOUT_SECONDS', { TRANSCRIPTION_TIMEOUT_SECONDS: '5' })).toHaveLength(1);
    expect(problemsAbout('TRANSCRIPTION_TIMEOUT_SECONDS', { TRANSCRIPTION_TIMEOUT_SECONDS: 'an hour' })).toHaveLength(1);
    expect(loadConfig({ TRANSCRIPTION_TIMEOUT_SECONDS: '10' }).TRANSCRIPTION_TIMEOUT_SECONDS).toBe(10);
  });

  test('WHISPER_DTW: `auto` by default, `off`, or one of whisper.cpp\'s presets; anything else is refused', () => {
    expect(loadConfig({}).WHISPER_DTW).toBe('auto');
    expect(loadConfig({ WHISPER_DTW: 'off' }).WHISPER_DTW).toBe('off');
    expect(loadConfig({ WHISPER_DTW: 'large.v3.turbo' }).WHISPER_DTW).toBe('large.v3.turbo');
    expect(transcriptionSettingsFromConfig(loadConfig({ WHISPER_DTW: 'base.en' }))).toMatchObject({ local: { dtw: 'base.en' } });
    expect(problemsAbout('WHISPER_DTW', { WHISPER_DTW: 'large' })).toHaveLength(1);
    expect(problemsAbout('WHISPER_DTW', { WHISPER_DTW: 'true' })).toHaveLength(1);
  });

  test('the local provider needs no URL, and ignores one', () => {
    expect(loadConfig({ TRANSCRIPTION_PROVIDER: 'local' }).TRANSCRIPTION_PROVIDER).toBe('local');
    expect(loadConfig({ TRANSCRIPTION_PROVIDER: 'local', TRANSCRIPTION_URL: openAiUrl }).TRANSCRIPTION_PROVIDER).toBe('local');
  });
});

describe('transcriptionSettingsFromConfig', () => {
  test('openai: the URL, the language, the beam, the timeout in ms, the key and the model name', () => {
    const settings = transcriptionSettingsFromConfig(loadConfig({
      TRANSCRIPTION_PROVIDER: 'openai',
      TRANSCRIPTION_URL: openAiUrl,
      TRANSCRIPTION_API_KEY: 'sk-site-key',
      TRANSCRIPTION_MODEL_NAME: 'Systran/faster-whisper-large-v3',
      TRANSCRIPTION_TIMEOUT_SECONDS: '900',
      WHISPER_LANGUAGE: 'de',
      WHISPER_BEAM_SIZE: '5',
    }));
    expect(settings).toEqual({
      provider: 'openai',
      http: { url: openAiUrl, language: 'de', beamSize: 5, timeoutMs: 900_000, apiKey: 'sk-site-key', modelName: 'Systran/faster-whisper-large-v3' },
    });
  });

  test('openai without a key or model name sends neither, and waits the default hour', () => {
    const settings = transcriptionSettingsFromConfig(loadConfig({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: openAiUrl }));
    expect(settings).toEqual({ provider: 'openai', http: { url: openAiUrl, language: 'auto', beamSize: 1, timeoutMs: 3_600_000 } });
  });

  test('local stays local, with whisper.cpp\'s options, even with a URL set', () => {
    const settings = transcriptionSettingsFromConfig(loadConfig({ TRANSCRIPTION_URL: openAiUrl, TRANSCRIPTION_API_KEY: 'sk-site-key', WHISPER_LANGUAGE: 'fr', WHISPER_THREADS: '3' }));
    expect(settings.provider).toBe('local');
    if (settings.provider !== 'local') return;
    expect(settings.local).toMatchObject({ language: 'fr', threads: 3 });
    expect(settings.local.modelPath).toMatch(/whisper\.bin$/);
    expect(JSON.stringify(settings)).not.toContain('sk-site-key');
  });
});

describe('slotsNeededByCalls and the transcription provider', () => {
  test.each([
    ['auto', ['segmentation']],
    ['builtin', ['segmentation']],
    ['llm', ['segmentation', 'llm']],
  ] as const)('openai, ANALYSER=%s: no whisper model needed (%j)', (analyser, slots) => {
    expect(slotsNeededByCalls({ ANALYSER: analyser, TRANSCRIPTION_PROVIDER: 'openai' })).toEqual(slots);
  });

  test('local (set or by default) needs the whisper model', () => {
    expect(slotsNeededByCalls({ ANALYSER: 'auto', TRANSCRIPTION_PROVIDER: 'local' })).toEqual(['segmentation', 'whisper']);
    expect(slotsNeededByCalls({ ANALYSER: 'llm' })).toEqual(['segmentation', 'whisper', 'llm']);
  });

  test('from a loaded configuration', () => {
    expect(slotsNeededByCalls(loadConfig({ TRANSCRIPTION_PROVIDER: 'openai', TRANSCRIPTION_URL: openAiUrl }))).not.toContain('whisper');
    expect(slotsNeededByCalls(loadConfig({}))).toContain('whisper');
  });
});
