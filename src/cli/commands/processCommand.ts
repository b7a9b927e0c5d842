import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analysisTimeZoneOf, loadConfig } from '../../config/loadConfig.js';
import type { CallMetadata } from '../../domain/calls/callTypes.js';
import { CallMetadataSchema } from '../../http/schemas/callSchemas.js';
import { runAnalysisStages, runSpeechStages, speechOptionsFromConfig, type VoiceMatchPlan } from '../../processing/productionPipeline.js';
import { selectAnalyser } from '../../pipeline/analysis/selectAnalyser.js';
import type { Config } from '../../config/configSchema.js';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { embedVoiceSample, VoiceSampleRejected } from '../../pipeline/voice/embedVoiceSample.js';
import type { ProfileVoice } from '../../pipeline/voice/matchCallVoices.js';
import type { LocalPipelineRun } from '../LocalPipelineRun.js';
import { Value } from 'typebox/value';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { runLocally } from '../runLocally.js';

/**
 * `callscope process <audio>`: the whole pipeline without a server, printing
 * `{transcript, analysis, actionItems}` as JSON. Exit codes as `runLocally`, 64 for usage.
 */
export const processCommand: CliCommand = {
  name: 'process',
  usage: 'process <audio> [--metadata meta.json] [--user-name NAME] [--voice-sample SAMPLE]',
  summary: 'Run the whole pipeline on a recording without a server; prints {transcript, analysis, actionItems} as JSON',
  async run(args) {
    const { positionals, values } = parseArgs({
      args, allowPositionals: true, strict: true,
      options: { metadata: { type: 'string' }, 'user-name': { type: 'string' }, 'voice-sample': { type: 'string' } },
    });
    const [sourcePath, ...extra] = positionals;
    if (!sourcePath || extra.length > 0) throw new UsageError('Give exactly one audio file.');
    // Validated now, so a bad file is refused before minutes of processing.
    const metadata = values.metadata ? await readMetadata(values.metadata) : {};
    const userName = values['user-name'];
    const config = loadConfig();
    const voiceSample = values['voice-sample'];
    return runLocally('process', async (run, workDir) => {
      // The sample stands in for the user's voice profile: embedded as the endpoint would, never stored.
      const voice: VoiceMatchPlan = voiceSample ? { status: 'READY', profile: await embedSampleForCommand(voiceSample, workDir, config, run) } : { status: 'DISABLED' };
      const speech = await runSpeechStages(
        { callId: randomUUID(), audioPath: sourcePath, workDir, createdAt: Date.now(), metadata, ...(userName ? { userDisplayName: userName } : {}) },
        run,
        speechOptionsFromConfig(config),
        voice,
      );
      const analysed = await runAnalysisStages(
        { transcript: speech.transcript, metadata, recordedAt: metadata.recordedAt ? Date.parse(metadata.recordedAt) : Date.now(), timeZone: analysisTimeZoneOf(config) },
        run,
        selectAnalyser(config),
      );
      console.log(JSON.stringify({ transcript: speech.transcript, analysis: analysed.analysis, actionItems: analysed.actionItems }, null, 2));
    });
  },
};

/** The `--voice-sample` embedding; a refused sample ends the command with its reason (exit 1). */
async function embedSampleForCommand(samplePath: string, workDir: string, config: Config, run: LocalPipelineRun): Promise<ProfileVoice> {
  const sampleDir = join(workDir, 'voice-sample');
  await mkdir(sampleDir);
  try {
    const sample = await embedVoiceSample({
      samplePath, workDir: sampleDir, embeddingModel: config.EMBEDDING_MODEL,
      limits: { minSeconds: config.SERVICE_VOICE_SAMPLE_MIN_SECONDS, maxSeconds: config.SERVICE_VOICE_SAMPLE_MAX_SECONDS },
    }, run.contextFor('voiceSample'));
    return { vector: sample.vector, model: sample.model };
  } catch (error) {
    if (error instanceof VoiceSampleRejected) throw new StageFailure('bad_input', `--voice-sample: ${error.message}`);
    throw error;
  } finally {
    await rm(sampleDir, { recursive: true, force: true });
  }
}

/** The upload metadata envelope from a JSON file, validated as an upload's `metadata` part is. */
async function readMetadata(path: string): Promise<CallMetadata> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--metadata ${path}: ${(error as Error).message}`);
  }
  const problems = [...Value.Errors(CallMetadataSchema, parsed)].map((problem) => `${problem.instancePath || '(root)'} ${problem.message}`);
  if (problems.length > 0) throw new UsageError(`--metadata ${path} is not a valid metadata envelope: ${problems.join('; ')}`);
  return parsed as CallMetadata;
}
