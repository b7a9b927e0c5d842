import type { ServerProcess } from '../helpers/serverProcess.js';

/** The ids of the calls a node's log says it completed (one `call completed` line per call it finished). */
export function callsCompletedBy(node: ServerProcess): string[] {
  return node.output().split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    const entry = JSON.parse(line) as { msg?: string; callId?: string };
    return entry.msg === 'call completed' && entry.callId ? [entry.callId] : [];
  });
}
