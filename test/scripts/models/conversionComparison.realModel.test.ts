import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { scoreAgainstFasterWhisper, whisperCliText } from '../../../scripts/models/conversionComparison.js';
import { requireEvalModel } from '../../../scripts/models/evalModels.js';
import { requireWhisperCli } from '../../pipeline/transcription/transcriptionTestFiles.js';

// The proof of `npm run eval:conversion` in small: the converted tiny.en in whisper.cpp against
// the original CTranslate2 model in faster-whisper (fasterWhisperReference.py, from the venv of
// `npm run models:eval -- --only python-reference`), greedy, on a 7 s LibriSpeech utterance
// whose last 30 s window the two programs fill differently: whisper.cpp with the log-mel of
// zero samples after the audio, faster-whisper with 0. Given whisper.cpp's filling,
// faster-whisper reads what whisper.cpp reads; with its own, tiny.en hears one word otherwise.

const utterance = resolve(packageRoot, '../shared/audio/librispeech/test-other/1688/1688-142285-0007.flac');

beforeAll(() => requireWhisperCli());

describe('the converted tiny.en against faster-whisper on the original (realModel)', () => {
  // whisper-cli and faster-whisper twice on 7 s: 35 s alone on 2 cores, minutes on a shared machine.
  it('reads an utterance word for word as faster-whisper does on the same log-mel; faster-whisper\'s own padding changes a word', async () => {
    const { ct2Directory, whisperGgml } = requireEvalModel('whisper-tiny.en');
    const threads = availableParallelism();
    const whisperCpp = await whisperCliText(whisperGgml!, utterance, 'greedy', threads);
    const [score] = await scoreAgainstFasterWhisper('greedy', [{ model: 'whisper-tiny.en', ct2Directory: ct2Directory!, language: 'en', recording: 'librispeech-1688-142285-0007', audioPath: utterance, whisperCpp }], threads);

    expect(score!.whisperCpp).toBe('i really was very much afraid of showing him how much shock daw was at some part of what he said');
    expect(score!.samePadding).toMatchObject({ fasterWhisper: score!.whisperCpp, wer: 0 });
    expect(score!.ownPadding).toMatchObject({ fasterWhisper: 'i really was very much afraid of showing him how much shock i was at some part of what he said', substitutions: 1 });
  }, 300_000);
});
