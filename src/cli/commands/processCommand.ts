import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import type { CallMetadata } from '../../domain/calls/callTypes.js';
import { CallMetadataSchema } from '../../http/schemas/callSchemas.js';
import { runSpeechStages, speechOptionsFromConfig } from '../../processing/productionPipeline.js';
import { Value } from 'typebox/value';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { runLocally } from '../runLocally.js';

/**
 * `callscope process <audio>`: the whole pipeline without a server, printing
 * `{transcript, analysis, actionItems}` as JSON. Exit codes as `runLocally`, 64 for usage.
 */
export const processCommand: CliCommand = {
  name: 'process',
  usage: 'process <audio> [--metadata meta.json] [--user-name NAME]',
  summary: 'Run the whole pipeline on a recording without a server; prints {transcript, analysis, actionItems} as JSON',
  async run(args) {
    const { positionals, values } = parseArgs({
      args, allowPositionals: true, strict: true,
      options: { metadata: { type: 'string' }, 'user-name': { type: 'string' } },
    });
    const [sourcePath, ...extra] = positionals;
    if (!sourcePath || extra.length > 0) throw new UsageError('Give exactly one audio file.');
    // Validated now, so a bad file is refused before minutes of processing.
    const metadata = values.metadata ? await readMetadata(values.metadata) : {};
    const userName = values['user-name'];
    const config = loadConfig();
    return runLocally('process', async (run, workDir) => {
      const speech = await runSpeechStages(
        { callId: randomUUID(), audioPath: sourcePath, workDir, createdAt: Date.now(), metadata, ...(userName ? { userDisplayName: userName } : {}) },
        run,
        speechOptionsFromConfig(config),
      );
      console.error('note: call analysis is not installed in this version; analysis is null');
      console.log(JSON.stringify({ transcript: speech.transcript, analysis: null, actionItems: [] }, null, 2));
    });
  },
};

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
