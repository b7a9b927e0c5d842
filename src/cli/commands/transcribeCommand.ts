import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { cleanAudio } from '../../pipeline/cleanup/cleanAudio.js';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { transcribeAudio } from '../../pipeline/transcription/transcribeAudio.js';
import { transcriptionOptionsFromConfig } from '../../pipeline/transcription/transcriptionOptionsFromConfig.js';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { LocalPipelineRun } from '../LocalPipelineRun.js';

/**
 * Exit codes: 0 transcribed, 1 the stage failed (its reason on stderr), 64 usage, 130 interrupted.
 * stdout holds only the JSON, so it can be piped; progress goes to stderr when it is a terminal.
 */
export const transcribeCommand: CliCommand = {
  name: 'transcribe',
  usage: 'transcribe <audio>',
  summary: 'Clean up and transcribe a recording with whisper.cpp; prints the words with their times as JSON',
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {}, strict: true });
    const [sourcePath, ...extra] = positionals;
    if (!sourcePath || extra.length > 0) throw new UsageError('Give exactly one audio file.');
    const config = loadConfig();

    const controller = new AbortController();
    const interrupt = () => controller.abort(new Error('Interrupted'));
    process.once('SIGINT', interrupt);
    const run = new LocalPipelineRun({
      signal: controller.signal,
      onProgress: process.stderr.isTTY ? (stage, fraction) => process.stderr.write(`\r${stage} ${Math.round(fraction * 100)}%   `) : undefined,
    });
    const workDir = await mkdtemp(join(tmpdir(), 'callscope-transcribe-'));
    try {
      const cleaned = await cleanAudio({ sourcePath, outputDir: workDir, maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, run.contextFor('cleanup'));
      const transcription = await transcribeAudio(
        { audioPath: cleaned.monoPath, durationSeconds: cleaned.durationSeconds },
        transcriptionOptionsFromConfig(config, { tempDir: workDir }),
        run.contextFor('transcription'),
      );
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      const words = transcription.words.map(({ text, startSeconds, endSeconds, probability }) => ({ text, startSeconds, endSeconds, probability }));
      console.log(JSON.stringify({ language: transcription.language, words }, null, 2));
      return 0;
    } catch (error) {
      if (process.stderr.isTTY) process.stderr.write('\n');
      if (controller.signal.aborted) {
        console.error('Interrupted.');
        return 130;
      }
      if (error instanceof StageFailure) {
        console.error(error.reason);
        return 1;
      }
      throw error;
    } finally {
      process.removeListener('SIGINT', interrupt);
      await rm(workDir, { recursive: true, force: true });
    }
  },
};
