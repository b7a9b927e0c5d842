import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { indexUnindexedCalls } from '../../domain/search/indexUnindexedCalls.js';
import { openDatabase } from '../../infrastructure/database/openDatabase.js';
import { ObjectStore } from '../../infrastructure/storage/ObjectStore.js';
import type { CliCommand } from '../CliCommand.js';

/** Exit codes: 0 done (also when some calls were skipped), 64 usage. */
export const searchIndexCommand: CliCommand = {
  name: 'search-index',
  usage: 'search-index',
  summary: 'Make calls completed before the search index existed searchable (GET /api/search); calls completed since are indexed already',
  async run(args) {
    parseArgs({ args, options: {}, strict: true });
    const config = loadConfig();
    const database = await openDatabase(config);
    try {
      const { indexed, skipped } = await indexUnindexedCalls({ database: database.sql, store: new ObjectStore(config.DATA_DIR) });
      console.log(`Search index in ${database.location}: ${indexed} call(s) indexed${skipped > 0 ? `, ${skipped} skipped (their stored documents could not be read)` : ''}.`);
    } finally {
      await database.close();
    }
    return 0;
  },
};
