import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { cleanAudio } from '../../pipeline/cleanup/cleanAudio.js';
import { transcribeAudio } from '../../pipeline/transcription/transcribeAudio.js';
import { transcriptionOptionsFromConfig } from '../../pipeline/transcription/transcriptionOptionsFromConfig.js';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { runLocally } from '../runLocally.js';

/** Exit codes: 0 transcribed, 1 the stage failed (its reason on stderr), 64 usage, 130 interrupted. */
export const transcribeCommand: CliCommand = {
  name: 'transcribe',
  usage: 'transcribe <audio>',
  summary: 'Clean up and transcribe a recording with whisper.cpp; prints the words with their times as JSON',
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {}, strict: true });
    const [sourcePath, ...extra] = positionals;
    if (!sourcePath || extra.length > 0) throw new UsageError('Give exactly one audio file.');
    const config = loadConfig();
    return runLocally('transcribe', async (run, workDir) => {
      const cleaned = await cleanAudio({ sourcePath, outputDir: workDir, maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, run.contextFor('cleanup'));
      const transcription = await transcribeAudio(
        { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds },
        transcriptionOptionsFromConfig(config, { tempDir: workDir }),
        run.contextFor('transcription'),
      );
      const words = transcription.words.map(({ text, startSeconds, endSeconds, probability }) => ({ text, startSeconds, endSeconds, probability }));
      console.log(JSON.stringify({ language: transcription.language, words }, null, 2));
    });
  },
};
