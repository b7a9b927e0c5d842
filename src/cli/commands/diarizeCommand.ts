import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { effectiveDiarizationThreads } from '../../config/effectiveConcurrency.js';
import { loadConfig } from '../../config/loadConfig.js';
import { cleanAudio, type CleanedAudio } from '../../pipeline/cleanup/cleanAudio.js';
import { diarizeAudio, type DiarizeAudioOptions } from '../../pipeline/diarization/diarizeAudio.js';
import { formatRttm } from '../../pipeline/diarization/scoring/rttm.js';
import type { Diarization } from '../../pipeline/speechTypes.js';
import { UsageError, type CliCommand } from '../CliCommand.js';
import type { LocalPipelineRun } from '../LocalPipelineRun.js';
import { runLocally } from '../runLocally.js';

/** Exit codes: 0 diarized, 1 the recording or the box could not be processed, 64 usage, 130 interrupted. */
export const diarizeCommand: CliCommand = {
  name: 'diarize',
  usage: 'diarize <audio> [--speakers N | --min-speakers N --max-speakers N]',
  summary: 'Print who spoke when in a recording as RTTM (models from SEGMENTATION_MODEL and EMBEDDING_MODEL)',
  async run(args) {
    const { positionals, values } = parseArgs({
      args, allowPositionals: true, strict: true,
      options: { speakers: { type: 'string' }, 'min-speakers': { type: 'string' }, 'max-speakers': { type: 'string' } },
    });
    const [audioPath, ...extra] = positionals;
    if (!audioPath || extra.length > 0) throw new UsageError('Give exactly one audio file.');
    const speakerCount = wholeNumber('--speakers', values.speakers);
    const minSpeakers = wholeNumber('--min-speakers', values['min-speakers']);
    const maxSpeakers = wholeNumber('--max-speakers', values['max-speakers']);
    if (speakerCount !== undefined && (minSpeakers !== undefined || maxSpeakers !== undefined)) throw new UsageError('Give either --speakers or --min-speakers/--max-speakers, not both.');
    if (minSpeakers !== undefined && maxSpeakers !== undefined && minSpeakers > maxSpeakers) throw new UsageError('--min-speakers is more than --max-speakers.');
    const config = loadConfig();
    return runLocally('diarize', async (run, workDir) => {
      const diarization = await cleanWhileDiarizing(run, { sourcePath: audioPath, outputDir: workDir, maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, {
        segmentationModel: config.SEGMENTATION_MODEL,
        embeddingModel: config.EMBEDDING_MODEL,
        threads: effectiveDiarizationThreads(config.DIARIZATION_THREADS, 1),
        ...(speakerCount !== undefined ? { speakerCount } : {}),
        ...(minSpeakers !== undefined ? { minSpeakers } : {}),
        ...(maxSpeakers !== undefined ? { maxSpeakers } : {}),
      });
      if (diarization.turns.length > 0) console.log(formatRttm(diarization.turns, basename(audioPath, extname(audioPath))));
      console.error(`${diarization.speakerCount} speaker(s), ${diarization.turns.length} turn(s), by ${diarization.method} (${diarization.model}).`);
    });
  },
};

/**
 * Clean-up, then diarization, as the service runs them, but overlapped for a one-channel source:
 * the diarization starts as ffmpeg starts writing the cleaned file and segments it as it is
 * written (ffmpeg's loudness normalisation takes one core for ~11 s of a 10-minute call, while
 * the other would idle). The result is the same as one stage after the other: the segmentation
 * reads the same blocks, only sooner. A clean-up failure wins (the diarization is stopped and
 * its outcome dropped), as it would have come first.
 */
async function cleanWhileDiarizing(run: LocalPipelineRun, cleanup: Parameters<typeof cleanAudio>[0], options: DiarizeAudioOptions): Promise<Diarization> {
  const diarizationContext = run.contextFor('diarization');
  const stopFollowing = new AbortController();
  let cleaning = true;
  let diarizing: Promise<Diarization> | undefined;
  let cleaned: CleanedAudio;
  try {
    cleaned = await cleanAudio({
      ...cleanup,
      whileDecodingMono: (mono) => {
        diarizing = diarizeAudio({
          monoPath: mono.monoPath,
          ...(mono.expectedSeconds !== undefined ? { durationSeconds: mono.expectedSeconds } : {}),
          monoBeingWritten: { written: mono.written, signal: stopFollowing.signal },
        }, options, {
          ...diarizationContext,
          // One progress line at a time: the clean-up's until it is done.
          reportProgress: (fraction) => { if (!cleaning) diarizationContext.reportProgress(fraction); },
        });
        // Awaited below; until then its failure must not count as unhandled.
        diarizing.catch(() => undefined);
      },
    }, run.contextFor('cleanup'));
  } catch (error) {
    stopFollowing.abort(error);
    await diarizing?.catch(() => undefined);
    throw error;
  } finally {
    cleaning = false;
  }
  return diarizing ?? diarizeAudio(cleaned, options, diarizationContext);
}

/** A count option's value: a whole number of at least 1, or undefined when not given. */
function wholeNumber(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!(Number.isInteger(count) && count >= 1)) throw new UsageError(`${option} takes a whole number of at least 1, not "${value}".`);
  return count;
}
