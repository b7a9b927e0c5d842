import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { cleanAudio } from '../../pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../pipeline/diarization/diarizeAudio.js';
import { formatRttm } from '../../pipeline/diarization/scoring/rttm.js';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { runLocally } from '../runLocally.js';

/** Exit codes: 0 diarized, 1 the recording or the box could not be processed, 64 usage, 130 interrupted. */
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
    return runLocally('diarize', async (run, workDir) => {
      const cleaned = await cleanAudio({ sourcePath: audioPath, outputDir: workDir, maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, run.contextFor('cleanup'));
      const diarization = await diarizeAudio(cleaned, {
        segmentationModel: config.SEGMENTATION_MODEL,
        embeddingModel: config.EMBEDDING_MODEL,
        ...(speakerCount !== undefined ? { speakerCount } : {}),
      }, run.contextFor('diarization'));
      if (diarization.turns.length > 0) console.log(formatRttm(diarization.turns, basename(audioPath, extname(audioPath))));
      console.error(`${diarization.speakerCount} speaker(s), ${diarization.turns.length} turn(s), by ${diarization.method} (${diarization.model}).`);
    });
  },
};
