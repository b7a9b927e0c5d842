import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { applyMigrations, openDatabase } from '../../infrastructure/database/openDatabase.js';
import type { CliCommand } from '../CliCommand.js';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  usage: 'migrate',
  summary: 'Create or upgrade the database in DATA_DIR (the server also does this at start-up)',
  async run(args) {
    parseArgs({ args, options: {}, strict: true });
    const config = loadConfig();
    const database = openDatabase(config.DATA_DIR, { applyMigrations: false });
    try {
      const before = appliedCount(database.sqlite);
      applyMigrations(database.db);
      const after = appliedCount(database.sqlite);
      console.log(`Database ${config.DATA_DIR}/callscope.db: ${after - before} migration(s) applied, ${after} in total.`);
    } finally {
      database.close();
    }
    return 0;
  },
};

function appliedCount(sqlite: import('better-sqlite3').Database): number {
  const exists = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!exists) return 0;
  return (sqlite.prepare('SELECT count(*) AS count FROM __drizzle_migrations').get() as { count: number }).count;
}
