import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { AccessAuditTrail } from '../../domain/audit/AccessAuditTrail.js';
import { isUuid } from '../../domain/ids.js';
import { openDatabase } from '../../infrastructure/database/openDatabase.js';
import { ProcessingQueue } from '../../processing/ProcessingQueue.js';
import { UsageError, type CliCommand } from '../CliCommand.js';

/** Exit codes: 0 queued, 1 refused (state or audio), 64 usage. */
export const reprocessCommand: CliCommand = {
  name: 'reprocess',
  usage: 'reprocess <callId>',
  summary: 'Queue a finished call (COMPLETED or FAILED) again; its analysis and action items are replaced',
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {}, strict: true });
    const [callId, ...extra] = positionals;
    if (!callId || extra.length > 0) throw new UsageError('Give exactly one call id.');
    if (!isUuid(callId)) throw new UsageError(`"${callId}" is not a call id (a UUID).`);
    const config = loadConfig();
    const database = await openDatabase(config);
    try {
      const outcome = await new ProcessingQueue(database.sql).requeue(callId.toLowerCase(), Date.now());
      if (outcome === 'queued') {
        const trail = new AccessAuditTrail({ database: database.sql, clock: Date.now, enabled: config.ACCESS_AUDIT === 'on' });
        trail.record({ actorKind: 'system', actorId: 'cli', action: 'call.reprocess', callId: callId.toLowerCase(), detail: { osUser: operatingSystemUser() } });
        await trail.close();
      }
      const messages = {
        queued: `Call ${callId} is queued again; the running service picks it up within a second.`,
        missing: `No call ${callId} in ${database.location}.`,
        in_progress: `Call ${callId} is still being processed; reprocess it once it has completed or failed.`,
        audio_gone: `The audio of call ${callId} is no longer held (AUDIO_RETENTION_DAYS=${config.AUDIO_RETENTION_DAYS}), so it cannot be reprocessed.`,
      } as const;
      (outcome === 'queued' ? console.log : console.error)(messages[outcome]);
      return outcome === 'queued' ? 0 : 1;
    } finally {
      await database.close();
    }
  },
};

/** Who ran the command, as the operating system knows them (null where it cannot say). */
function operatingSystemUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}
