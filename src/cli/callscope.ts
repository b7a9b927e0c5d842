import { ConfigError, loadConfig } from '../config/loadConfig.js';
import { trustSiteAuthorities } from '../infrastructure/tls/trustSiteAuthorities.js';
import { UsageError } from './CliCommand.js';
import { commandLoaders } from './commandLoaders.js';

/** The whole command list: loads every command (help is the one place that needs them all). */
async function help(): Promise<string> {
  const commands = await Promise.all(Object.values(commandLoaders).map((load) => load()));
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
    console.log(await help());
    return 0;
  }
  const load = Object.hasOwn(commandLoaders, name) ? commandLoaders[name] : undefined;
  if (!load) {
    console.error(`Unknown command "${name}".\n\n${await help()}`);
    return 64;
  }
  const command = await load();
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage: callscope ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    // Before any command connects out (a model download, a transcription or chat server); only
    // then is the configuration read here, each command reads (and checks) its own.
    if (process.env.EXTRA_CA_FILE?.trim()) trustSiteAuthorities(loadConfig().EXTRA_CA_FILE);
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
