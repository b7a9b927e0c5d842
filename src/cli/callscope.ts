import { ConfigError } from '../config/loadConfig.js';
import { UsageError, type CliCommand } from './CliCommand.js';
import { analyzeTranscriptCommand } from './commands/analyzeTranscriptCommand.js';
import { auditCommand } from './commands/auditCommand.js';
import { diarizeCommand } from './commands/diarizeCommand.js';
import { migrateCommand } from './commands/migrateCommand.js';
import { modelsCommand } from './commands/modelsCommand.js';
import { serveCommand, workerCommand } from './commands/nodeCommands.js';
import { processCommand } from './commands/processCommand.js';
import { reprocessCommand } from './commands/reprocessCommand.js';
import { searchIndexCommand } from './commands/searchIndexCommand.js';
import { transcribeCommand } from './commands/transcribeCommand.js';

/** Every command, in the order help lists them. Later components add theirs here. */
const commands: CliCommand[] = [serveCommand, workerCommand, migrateCommand, reprocessCommand, auditCommand, searchIndexCommand, diarizeCommand, transcribeCommand, processCommand, analyzeTranscriptCommand, modelsCommand];

function help(): string {
  const width = Math.max(...commands.map((command) => command.usage.length));
  return [
    'Callscope: on-premises call analysis.',
    '',
    'Usage: callscope <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
    '',
    'Configuration comes from environment variables (see docs/configuration.md), e.g. DATA_DIR=/srv/callscope callscope migrate',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 64;
  }
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage: callscope ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\nUsage: callscope ${command.usage}`);
      return 64;
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 78;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
