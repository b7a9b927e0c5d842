import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { openDatabase } from '../../infrastructure/database/openDatabase.js';
import type { CliCommand } from '../CliCommand.js';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  usage: 'migrate',
  summary: 'Create or upgrade the database (DATABASE_URL, else the SQLite database in DATA_DIR); every node also does this at start-up',
  async run(args) {
    parseArgs({ args, options: {}, strict: true });
    const config = loadConfig();
    const database = await openDatabase(config, { applyMigrations: false });
    try {
      const { applied, total } = await database.migrate();
      console.log(`Database ${database.location}: ${applied} migration(s) applied, ${total} in total.`);
    } finally {
      await database.close();
    }
    return 0;
  },
};
