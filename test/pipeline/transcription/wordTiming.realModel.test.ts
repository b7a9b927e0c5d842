import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import type { TranscribedWord } from '../../../src/pipeline/speechTypes.js';
import { transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import type { WhisperDtwSetting } from '../../../src/pipeline/transcription/whisperDtw.js';
import { parseStm, type StmSegment } from '../../../scripts/evaluation/stm.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { pcmWav, readPcmWav } from '../../helpers/pcmWav.js';
import { createTestStageContext } from '../testStageContext.js';
import { jfkWav, requireWhisperCli, sileroVadModel } from './transcriptionTestFiles.js';

// Word times from DTW (WHISPER_DTW), with the converted real tiny.en (`npm run models:eval`)
// through whisper-cli, as the transcription stage runs it.

const telephoneWav = resolve(packageRoot, '../shared/audio/pyannote-sample/sample.wav');
const telephoneStm = resolve(packageRoot, '../shared/audio/pyannote-sample/sample.stm');

/**
 * Words of sample.stm that only one of its two speakers says, with that speaker. Where whisper
 * hears one of them, the word must lie in one of that speaker's turns.
 */
const wordsOfOneSpeaker: Readonly<Record<string, string>> = {
  neither: 'Sheila', diane: 'Diane', jersey: 'Diane', sheila: 'Sheila', texas: 'Sheila', also: 'Diane',
  though: 'Diane', difference: 'Sheila', yankee: 'Sheila', down: 'Sheila', hear: 'Diane',
};
/** How far outside its speaker's turn a word's middle may lie, seconds: the STM's turns are hand-placed. */
const turnToleranceSeconds = 0.3;

/** The words of `wordsOfOneSpeaker` whisper heard, each with whether its middle lies in its speaker's turns. */
function placedWords(words: readonly TranscribedWord[], turns: readonly StmSegment[]) {
  return words.flatMap((word) => {
    const plain = word.text.toLowerCase().replace(/[^a-z]/g, '');
    const speaker = wordsOfOneSpeaker[plain];
    if (speaker === undefined) return [];
    const middle = (word.startSeconds + word.endSeconds) / 2;
    const inTurn = turns.some((turn) => turn.speaker === speaker && middle >= turn.startSeconds - turnToleranceSeconds && middle <= turn.endSeconds + turnToleranceSeconds);
    return [{ word: plain, middle, speaker, inTurn }];
  });
}

let modelPath: string;
let folder: string;
let turns: StmSegment[];
beforeAll(async () => {
  requireWhisperCli();
  modelPath = requireEvalModelFile('whisper-tiny.en', 'whisperGgml');
  folder = await mkdtemp(join(tmpdir(), 'callscope-word-timing-'));
  turns = parseStm(await readFile(telephoneStm, 'utf8'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('word times from DTW, with the real tiny.en (realModel)', () => {
  const transcribeTelephone = (dtw: WhisperDtwSetting) => transcribeAudio(
    // The names of the call's user and contact as its prompt, as the pipeline gives them: with
    // it, whisper returns the call's 22 s of speech as one segment, in which its token times drift.
    { audioPath: telephoneWav, durationSeconds: 30, prompt: 'Diane, Sheila.' },
    // One thread: on a shared machine ggml's second thread spins while it waits for the first.
    { modelPath, vadModelPath: sileroVadModel, threads: 1, language: 'en', dtw, tempDir: folder },
    createTestStageContext(),
  );

  it('puts the words of the telephone sample in their speaker\'s turns, where token timestamps put them in the other speaker\'s', async () => {
    // VAD cuts the call's first 7 s (silence, and the first "Hello?"): the times must be mapped back across it.
    const withDtw = placedWords((await transcribeTelephone('auto')).words, turns);
    expect(withDtw.length).toBeGreaterThanOrEqual(8);
    expect(withDtw.filter((word) => !word.inTurn)).toEqual([]);

    const withTokenTimes = placedWords((await transcribeTelephone('off')).words, turns);
    expect(withTokenTimes.filter((word) => !word.inTurn).length).toBeGreaterThanOrEqual(3);
  }, 600_000);

  it('transcribes a recording of 0.14 s of speech, which whisper.cpp 1.9.1 aborted on with DTW, on token times', async () => {
    // 140 ms of jfk.wav ("ask", from 3.32 s): one decoded window of 14 mel frames, 7 audio tokens,
    // no wider than DTW's median filter (7): unpatched, whisper-cli dies of SIGABRT.
    const { samples, sampleRate } = await readPcmWav(jfkWav);
    const start = Math.round(3.32 * sampleRate);
    const shortClip = join(folder, 'short.wav');
    await writeFile(shortClip, pcmWav(samples.subarray(start, start + Math.round(0.14 * sampleRate)), { sampleRate }));
    // A beam of 5 (WHISPER_BEAM_SIZE=5) hears "ask" in it; greedy decoding, the default, hears no word,
    // which would leave the DTW path this test is for untried.
    const transcription = await transcribeAudio({ audioPath: shortClip, durationSeconds: 0.14 }, { modelPath, threads: 2, language: 'en', dtw: 'auto', beamSize: 5, tempDir: folder }, createTestStageContext());
    expect(transcription.words.length).toBeGreaterThan(0);
    expect(transcription.words.every((word) => word.startSeconds >= 0 && word.endSeconds <= 0.14)).toBe(true);
  }, 120_000);
});
