import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../infrastructure/database/SqlDatabase.js';
import { columnsOf, insertInto } from '../infrastructure/database/sqlFragments.js';
import { nodes } from '../infrastructure/database/tables.js';
import { isProcessRunning } from '../infrastructure/processes/processScope.js';

export type NodeRole = (typeof nodes.$inferSelect)['role'];

/** What a node says of itself when it starts. */
export interface NodeIdentity {
  /** Random per process start; also the lease on the calls its engine holds. */
  id: string;
  host: string;
  role: NodeRole;
  version: string;
  pid: number;
  /** See {@link currentProcessScope}: which nodes can check this one's pid. */
  processScope?: string;
  /** Whether it processes calls. */
  processes: boolean;
}

/** One model slot as a node holds it. */
export interface NodeModel {
  slot: string;
  fileName: string;
  /** The inventory's check: `ok`, `missing`, `checksum_mismatch`, `not_in_manifest`, `not_pinned`. */
  check: string;
}

/** What a node reports with each beat. */
export interface NodeBeat {
  callsInFlight: number;
  models: NodeModel[] | null;
}

export type NodeState = 'running' | 'lost' | 'stopped';

/** A node as the admin page lists it. */
export interface NodeView extends NodeIdentity, NodeBeat {
  startedAt: number;
  heartbeatAt: number;
  stoppedAt: number | null;
  /** `lost`: silent for longer than LEASE_TIMEOUT_SECONDS without having stopped. */
  state: NodeState;
}

type NodeRow = typeof nodes.$inferSelect;

/** The other nodes of the site as one node sees them. */
export interface SiteSurvey {
  /** Nodes known gone: stopped, silent for longer than the lease, or (same process scope) whose process no longer runs. Their ids are their engines' leases. */
  goneNodeIds: string[];
  /** Other nodes that may be running now. */
  othersAlive: number;
}

/** How long a node that stopped or was lost stays on the list, ms. */
export const departedNodeRetentionMs = 24 * 60 * 60_000;

/**
 * The `nodes` table: every node of the site writes its own row (at start, on every heartbeat,
 * and when it stops) and any node reads them all, so the admin page of any API node shows the
 * whole site. Rows of nodes gone for a day are removed.
 */
export class NodeRegistry {
  constructor(private readonly db: SqlDatabase) {}

  /** Records a starting node; rows of nodes gone for a day are removed then (a start is rare, a status read is not). */
  async register(identity: NodeIdentity, now: number): Promise<void> {
    await this.db.run(sql`DELETE FROM nodes WHERE heartbeat_at < ${now - departedNodeRetentionMs}`);
    await this.db.run(insertInto(nodes, [{
      id: identity.id, host: identity.host, role: identity.role, version: identity.version, pid: identity.pid,
      processScope: identity.processScope ?? null, startedAt: now, heartbeatAt: now, processes: identity.processes ? 1 : 0, callsInFlight: 0,
    }]));
  }

  /** The node's heartbeat, with what it holds now. */
  async beat(nodeId: string, beat: NodeBeat, now: number): Promise<void> {
    await this.db.run(sql`UPDATE nodes SET heartbeat_at = ${now}, calls_in_flight = ${beat.callsInFlight},
      models = ${beat.models ? JSON.stringify(beat.models) : null}, stopped_at = NULL WHERE id = ${nodeId}`);
  }

  async stopped(nodeId: string, now: number): Promise<void> {
    await this.db.run(sql`UPDATE nodes SET stopped_at = ${now}, calls_in_flight = 0 WHERE id = ${nodeId}`);
  }

  /** Every node seen in the last day, running ones first, then by host. A read only. */
  async list(now: number, leaseTimeoutMs: number): Promise<NodeView[]> {
    const rows = await this.db.all<NodeRow>(sql`SELECT ${columnsOf(nodes)} FROM nodes
      WHERE heartbeat_at >= ${now - departedNodeRetentionMs} ORDER BY host, started_at`);
    const order: Record<NodeState, number> = { running: 0, lost: 1, stopped: 2 };
    return rows.map((row) => viewOf(row, now, leaseTimeoutMs)).sort((a, b) => order[a.state] - order[b.state]);
  }

  /**
   * The other nodes as `self` sees them. A node that shares `self`'s process scope and whose
   * process is gone (SIGKILL, a crash, the predecessor of a restarted service) is known dead at
   * once; others only once silent for longer than the lease (a power loss looks like that).
   */
  async survey(self: Pick<NodeIdentity, 'id' | 'processScope'>, now: number, leaseTimeoutMs: number): Promise<SiteSurvey> {
    const rows = await this.db.all<Pick<NodeRow, 'id' | 'pid' | 'processScope' | 'heartbeatAt' | 'stoppedAt'>>(sql`
      SELECT id, pid, process_scope AS "processScope", heartbeat_at AS "heartbeatAt", stopped_at AS "stoppedAt"
      FROM nodes WHERE id <> ${self.id} AND heartbeat_at >= ${now - departedNodeRetentionMs}`);
    const gone = (row: (typeof rows)[number]) => row.stoppedAt !== null || now - row.heartbeatAt > leaseTimeoutMs
      || (self.processScope !== undefined && row.processScope === self.processScope && !isProcessRunning(row.pid));
    const goneNodeIds = rows.filter(gone).map((row) => row.id);
    return { goneNodeIds, othersAlive: rows.length - goneNodeIds.length };
  }
}

function viewOf(row: NodeRow, now: number, leaseTimeoutMs: number): NodeView {
  const state: NodeState = row.stoppedAt !== null ? 'stopped' : now - row.heartbeatAt > leaseTimeoutMs ? 'lost' : 'running';
  return {
    id: row.id, host: row.host, role: row.role, version: row.version, pid: row.pid, processes: row.processes === 1,
    startedAt: row.startedAt, heartbeatAt: row.heartbeatAt, stoppedAt: row.stoppedAt,
    callsInFlight: state === 'running' ? row.callsInFlight : 0,
    models: row.models ? (JSON.parse(row.models) as NodeModel[]) : null,
    state,
  };
}
