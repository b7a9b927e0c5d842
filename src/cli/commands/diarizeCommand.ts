import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { threadResources } from '../../infrastructure/workers/WorkerResources.js';
import { workerTaskImplementations } from '../../infrastructure/workers/workerTasks.js';
import { cleanAudio } from '../../pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../pipeline/diarization/diarizeAudio.js';
import { formatRttm } from '../../pipeline/diarization/scoring/rttm.js';
import type { StageContext } from '../../pipeline/StageContext.js';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { UsageError, type CliCommand } from '../CliCommand.js';

/** Exit codes: 0 diarized, 1 the recording or the box could not be processed, 64 usage. */
export const diarizeCommand: CliCommand = {
  name: 'diarize',
  usage: 'diarize <audio> [--speakers N]',
  summary: 'Print who spoke when in a recording as RTTM (models from SEGMENTATION_MODEL and EMBEDDING_MODEL)',
  async run(args) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { speakers: { type: 'string' } }, strict: true });
    const [audioPath, ...extra] = positionals;
    if (!audioPath || extra.length > 0) throw new UsageError('Give exactly one audio file.');
    const speakerCount = values.speakers === undefined ? undefined : Number(values.speakers);
    if (speakerCount !== undefined && !(Number.isInteger(speakerCount) && speakerCount >= 1)) {
      throw new UsageError(`--speakers takes a whole number of at least 1, not "${values.speakers}".`);
    }
    const config = loadConfig();
    const context = inProcessContext();
    const workDir = await mkdtemp(join(tmpdir(), 'callscope-diarize-'));
    try {
      const cleaned = await cleanAudio({ sourcePath: audioPath, outputDir: workDir, maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, context);
      const diarization = await diarizeAudio(cleaned, {
        segmentationModel: config.SEGMENTATION_MODEL,
        embeddingModel: config.EMBEDDING_MODEL,
        speakerCount,
      }, context);
      if (diarization.turns.length > 0) console.log(formatRttm(diarization.turns, basename(audioPath, extname(audioPath))));
      console.error(`${diarization.speakerCount} speaker(s), ${diarization.turns.length} turn(s), by ${diarization.method} (${diarization.model}).`);
      return 0;
    } catch (error) {
      if (!(error instanceof StageFailure)) throw error;
      console.error(error.reason);
      return 1;
    } finally {
      await rm(workDir, { recursive: true, force: true });
      await threadResources.disposeAll();
    }
  },
};

/** Stages run on this thread: a one-off command has no event loop to keep free. */
function inProcessContext(): StageContext {
  return {
    signal: new AbortController().signal,
    reportProgress: () => undefined,
    runInWorker: (name, input) => workerTaskImplementations[name](input),
  };
}
