import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { AccessAuditRepository } from '../../domain/audit/AccessAuditRepository.js';
import { AuditChainVerifier } from '../../domain/audit/auditChain.js';
import { openDatabase } from '../../infrastructure/database/openDatabase.js';
import { UsageError, type CliCommand } from '../CliCommand.js';

/** Records read per query: the chain is checked page by page, never loaded whole. */
const pageSize = 1000;

/** Exit codes: 0 intact, 1 broken, 64 usage. */
export const auditCommand: CliCommand = {
  name: 'audit',
  usage: 'audit verify',
  summary: 'Check the access audit trail\'s hash chain; names the first record edited, removed or reordered',
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {}, strict: true });
    if (positionals.length !== 1 || positionals[0] !== 'verify') throw new UsageError('The one subcommand is "verify".');
    const database = await openDatabase(loadConfig());
    try {
      const repository = new AccessAuditRepository(database.sql);
      const verifier = new AuditChainVerifier();
      let last: { seq: number; hash: string } | undefined;
      for (;;) {
        const page = await repository.inOrderAfter(last?.seq ?? 0, pageSize);
        const broken = verifier.check(page);
        if (broken) {
          console.error(`Audit trail BROKEN at record ${broken.seq}: ${broken.message} (${verifier.checked} records before it are intact).`);
          return 1;
        }
        const newest = page.at(-1);
        if (!newest) break;
        last = newest;
      }
      console.log(last
        ? `Audit trail intact: ${verifier.checked} records, seq 1-${last.seq}; the newest record's hash is ${last.hash} (keep it elsewhere to detect a cut at the end later).`
        : 'Audit trail intact: no records yet.');
      return 0;
    } finally {
      await database.close();
    }
  },
};
