import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWhisperCliPath, transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { antiHallucinationArguments, whisperCliArguments } from '../../../src/pipeline/transcription/whisperCliArguments.js';
import { defaultWhisperServerPath, WhisperServerProcess } from '../../../src/pipeline/transcription/WhisperServerProcess.js';
import { WhisperVocabulary, whisperPromptFor, whisperPromptWithoutVocabulary } from '../../../src/pipeline/transcription/whisperPrompt.js';
import { transcriptionRequestFields } from '../../../src/pipeline/transcription/transcribeOverHttp.js';
import { whisperServerFields } from '../../../src/pipeline/transcription/whisperServerFields.js';
import { pcmWav, sine } from '../../helpers/pcmWav.js';
import { createTestStageContext } from '../testStageContext.js';
import { requireWhisperCli, stubWhisperModel } from './transcriptionTestFiles.js';

const run = promisify(execFile);

let folder: string;
let oneSecond: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'whisper-prompt-'));
  oneSecond = join(folder, 'tone.wav');
  await writeFile(oneSecond, pcmWav(sine(440, 1, 0.3)));
});
afterAll(async () => { await rm(folder, { recursive: true, force: true }); });

const prompts = [
  'Callscope, Zentrix, Maria Lopez, Dr. Patel.',
  'José Müller, Zoë O\'Brien-Nakamura, Łukasz Wróbel, 3M, R2-D2, Ærø.',
  "Kwame Mensah's  team, we'll call at 10:30, they're   Siobhán Ní Bhriain.",
];

/** The prompt tokens whisper-cli counts, from the warning it prints when the prompt does not fit in `-mc 2`. */
async function tokensWhisperCliCounts(prompt: string): Promise<number> {
  const { stderr } = await run(defaultWhisperCliPath, [
    '-m', stubWhisperModel, '-f', oneSecond, '-t', '2', '-l', 'en', '-nt', '--no-gpu', '--prompt', prompt, '--carry-initial-prompt', '-mc', '2',
  ]);
  const match = /initial prompt is too long \((\d+) tokens\)/.exec(stderr);
  if (!match) throw new Error(`whisper-cli printed no token count:\n${stderr}`);
  return Number(match[1]);
}

describe('WhisperVocabulary (the tokens of a ggml model)', () => {
  it('counts a prompt\'s tokens as whisper.cpp does (real whisper-cli, structure-only model with the tiny.en vocabulary)', async () => {
    requireWhisperCli();
    const vocabulary = await WhisperVocabulary.fromModelFile(stubWhisperModel);
    for (const prompt of prompts) expect(vocabulary.tokenCount(prompt), prompt).toBe(await tokensWhisperCliCounts(prompt));
  }, 180_000);

  it('cuts words into the longest tokens: common words are one token, rare names several', async () => {
    const vocabulary = await WhisperVocabulary.fromModelFile(stubWhisperModel);
    expect(vocabulary.tokenCount(' Maria')).toBe(1);
    expect(vocabulary.tokenCount('Zentrix')).toBeGreaterThan(1);
    expect(vocabulary.tokenCount('')).toBe(0);
  });

  it('refuses a file that is not a whisper.cpp model', async () => {
    const notAModel = join(folder, 'not-a-model.bin');
    await writeFile(notAModel, 'GGUF this is something else entirely');
    await expect(WhisperVocabulary.fromModelFile(notAModel)).rejects.toThrow(/not a whisper.cpp ggml model/);
  });
});

describe('whisperPromptFor', () => {
  it('gives whisper.cpp a text context of exactly the prompt\'s tokens and the [_PREV_] marker', async () => {
    const prompt = await whisperPromptFor(prompts[0]!, stubWhisperModel);
    const tokens = (await WhisperVocabulary.fromModelFile(stubWhisperModel)).tokenCount(` ${prompts[0]!}`);
    expect(prompt).toEqual({ text: ` ${prompts[0]!}`, maxContext: tokens + 1 });
  });

  it('leads the prompt with one space, as OpenAI\'s whisper and faster-whisper give it to the model', async () => {
    const vocabulary = await WhisperVocabulary.fromModelFile(stubWhisperModel);
    const prompt = await whisperPromptFor('Daniel, Margaret Okafor.', stubWhisperModel);
    expect(prompt.text).toBe(' Daniel, Margaret Okafor.');
    // " Daniel" and "Daniel" are two different word pieces of the vocabulary, one token each.
    expect(vocabulary.tokenCount(prompt.text)).toBe(prompt.maxContext - 1);
  });

  it('without a readable vocabulary, bounds the tokens by the bytes (the whole prompt still fits)', async () => {
    expect(await whisperPromptFor('Zoë', join(folder, 'missing.bin'))).toEqual({ text: ' Zoë', maxContext: 6 });
  });
});

describe('the prompt in whisper.cpp\'s requests', () => {
  const base = { modelPath: '/m/whisper.bin', audioPath: '/w/cleaned.wav', outputBase: '/t/transcript', threads: 3, language: 'auto', beamSize: 1 };
  const valueOf = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1];

  it('whisper-cli: --prompt as one argument, carried before every window, and -mc raised to its size only', () => {
    const text = "Dr. Patel, O'Brien; $(rm -rf /) -x";
    const args = whisperCliArguments({ ...base, prompt: { text, maxContext: 17 } });
    expect(valueOf(args, '--prompt')).toBe(text);
    expect(args).toContain('--carry-initial-prompt');
    expect(args.filter((arg) => arg === '-mc')).toHaveLength(1);
    expect(valueOf(args, '-mc')).toBe('17');
    // The other anti-hallucination settings stay as they are.
    expect(args).toEqual(expect.arrayContaining(antiHallucinationArguments.filter((arg) => arg !== '0')));
  });

  it('whisper-cli: no prompt, no prompt arguments, and no context', () => {
    const args = whisperCliArguments(base);
    expect(args).not.toContain('--prompt');
    expect(args).not.toContain('--carry-initial-prompt');
    expect(valueOf(args, '-mc')).toBe('0');
  });

  it('whisper-server: prompt and carry_initial_prompt fields with a prompt and max_context raised to its size; no prompt fields and max_context 0 without', () => {
    const withPrompt = new Map(whisperServerFields({ language: 'de', prompt: { text: 'Zentrix, Maria Lopez.', maxContext: 9 }, beamSize: 1 }));
    expect([withPrompt.get('prompt'), withPrompt.get('carry_initial_prompt'), withPrompt.get('max_context')]).toEqual(['Zentrix, Maria Lopez.', 'true', '9']);
    const without = new Map(whisperServerFields({ language: 'en', beamSize: 1 }));
    expect([without.has('prompt'), without.has('carry_initial_prompt'), without.get('max_context')]).toEqual([false, false, '0']);
  });

  it('a site\'s whisper.cpp server (its model not at hand): max_context bounded by the prompt\'s bytes, so the whole prompt is kept', () => {
    const text = 'Zentrix, Jürgen Weiß.';
    // Led by a space (24 bytes with it), plus whisper's [_PREV_].
    expect(whisperPromptWithoutVocabulary(text)).toEqual({ text: ` ${text}`, maxContext: Buffer.byteLength(` ${text}`) + 1 });
    const fields = new Map(transcriptionRequestFields({ url: 'http://asr:8080/inference', language: 'de' }, text));
    expect([fields.get('prompt'), fields.get('max_context')]).toEqual([` ${text}`, '25']);
  });

  it('a call with a prompt runs through the real whisper-cli (structure-only model)', async () => {
    requireWhisperCli();
    const transcription = await transcribeAudio(
      { audioPath: oneSecond, durationSeconds: 1, prompt: prompts[1] },
      { modelPath: stubWhisperModel, language: 'en', threads: 2, useGpu: false, tempDir: folder },
      createTestStageContext(),
    );
    expect(transcription).toMatchObject({ language: 'en', words: [], provider: 'whisper.cpp' });
  }, 180_000);

  it('a call with a prompt runs through the real persistent whisper-server (structure-only model)', async () => {
    requireWhisperCli();
    const server = new WhisperServerProcess({ binaryPath: defaultWhisperServerPath, modelPath: stubWhisperModel, threads: 2, useGpu: false });
    try {
      const transcription = await transcribeAudio(
        { audioPath: oneSecond, durationSeconds: 1, prompt: prompts[1] },
        { modelPath: stubWhisperModel, language: 'en', server },
        createTestStageContext(),
      );
      expect(transcription).toMatchObject({ language: 'en', words: [], provider: 'whisper.cpp' });
    } finally {
      await server.stop();
    }
  }, 180_000);
});
