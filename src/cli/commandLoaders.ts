import type { CliCommand } from './CliCommand.js';

/**
 * Every command by name, in the order help lists them, each module imported only when its command
 * runs: `callscope diarize` then loads clean-up and diarization, not the server, the database
 * and the language model that other commands need (about half of the CLI's start-up CPU time).
 * Later components add theirs here.
 */
export const commandLoaders: Readonly<Record<string, () => Promise<CliCommand>>> = {
  serve: async () => (await import('./commands/nodeCommands.js')).serveCommand,
  worker: async () => (await import('./commands/nodeCommands.js')).workerCommand,
  migrate: async () => (await import('./commands/migrateCommand.js')).migrateCommand,
  reprocess: async () => (await import('./commands/reprocessCommand.js')).reprocessCommand,
  audit: async () => (await import('./commands/auditCommand.js')).auditCommand,
  'search-index': async () => (await import('./commands/searchIndexCommand.js')).searchIndexCommand,
  diarize: async () => (await import('./commands/diarizeCommand.js')).diarizeCommand,
  transcribe: async () => (await import('./commands/transcribeCommand.js')).transcribeCommand,
  process: async () => (await import('./commands/processCommand.js')).processCommand,
  'analyze-transcript': async () => (await import('./commands/analyzeTranscriptCommand.js')).analyzeTranscriptCommand,
  voice: async () => (await import('./commands/voiceCommand.js')).voiceCommand,
  models: async () => (await import('./commands/modelsCommand.js')).modelsCommand,
};
