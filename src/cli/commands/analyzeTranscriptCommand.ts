import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  diarizedTranscriptInputProblems, type DiarizedTranscriptInput,
} from '../../pipeline/normalization/diarizedTranscriptInput.js';
import { transcriptFromSegments } from '../../pipeline/normalization/transcriptFromSegments.js';
import { resolveSpeakers } from '../../pipeline/speakers/resolveSpeakers.js';
import { analysisTimeZoneOf, loadConfig } from '../../config/loadConfig.js';
import { selectAnalyser } from '../../pipeline/analysis/selectAnalyser.js';
import { runAnalysisStages } from '../../processing/productionPipeline.js';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { runLocally } from '../runLocally.js';

/**
 * `callscope analyze-transcript <input.json>`: the text half of the pipeline on a transcript that
 * is already diarized (see `DiarizedTranscriptInputSchema`): transcript built, speakers resolved
 * from the user's name and the metadata, analysed by the configured analyser (relative dates
 * against `metadata.recordedAt`, else now), `{transcript, analysis, actionItems}` printed as
 * JSON. No audio or database. Exit codes: 0 done, 1 the analysis failed, 64 for usage or an
 * invalid input file.
 */
export const analyzeTranscriptCommand: CliCommand = {
  name: 'analyze-transcript',
  usage: 'analyze-transcript <input.json>',
  summary: 'Run the text half of the pipeline on an already diarized transcript (JSON file); prints {transcript, analysis, actionItems} as JSON',
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: {} });
    const [inputPath, ...extra] = positionals;
    if (!inputPath || extra.length > 0) throw new UsageError('Give exactly one transcript input file.');
    const input = await readTranscriptInput(inputPath);
    const config = loadConfig();
    const userDisplayName = input.user?.displayName;
    const metadata = input.metadata ?? {};
    const transcript = resolveSpeakers(
      transcriptFromSegments(input, { callId: randomUUID(), createdAt: Date.now() }),
      { metadata, ...(userDisplayName ? { userDisplayName } : {}) },
    );
    return runLocally('analyze-transcript', async (run) => {
      const analysed = await runAnalysisStages(
        { transcript, metadata, recordedAt: metadata.recordedAt ? Date.parse(metadata.recordedAt) : Date.now(), timeZone: analysisTimeZoneOf(config) },
        run,
        selectAnalyser(config),
      );
      console.log(JSON.stringify({ transcript, analysis: analysed.analysis, actionItems: analysed.actionItems }, null, 2));
    });
  },
};

/** The input file, parsed and validated; every problem becomes a UsageError (exit 64) naming the file. */
async function readTranscriptInput(path: string): Promise<DiarizedTranscriptInput> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // A byte-order mark, as some Windows editors write, is not JSON.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const problems = diarizedTranscriptInputProblems(parsed);
  if (problems.length > 0) throw new UsageError(`${path} is not a valid transcript input:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  return parsed as DiarizedTranscriptInput;
}
