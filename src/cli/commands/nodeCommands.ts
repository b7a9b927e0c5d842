import { parseArgs } from 'node:util';
import { runNode } from '../../node/runNode.js';
import type { NodeRole } from '../../node/NodeRegistry.js';
import { startRefusal } from '../../node/startRefusal.js';
import type { CliCommand } from '../CliCommand.js';

/** A command that makes this process a node of the site and keeps it running until SIGTERM/SIGINT. */
function nodeCommand(role: NodeRole, summary: string): CliCommand {
  return {
    name: role,
    usage: role,
    summary,
    async run(args) {
      parseArgs({ args, options: {}, strict: true });
      try {
        await runNode(role);
      } catch (error) {
        const refusal = startRefusal(error);
        if (refusal === undefined) throw error;
        console.error(refusal);
        return 78;
      }
      // The node runs on (its server and timers keep the process alive) and exits when stopped.
      return 0;
    },
  };
}

export const serveCommand = nodeCommand('serve', 'Run the service: API, admin page and (unless EMBEDDED_WORKER=false) call processing, on HOST:PORT; what `npm start` runs');
export const workerCommand = nodeCommand('worker', 'Run a processing-only node against the shared database (DATABASE_URL) and storage (DATA_DIR); health and metrics on HOST:NODE_PORT');
