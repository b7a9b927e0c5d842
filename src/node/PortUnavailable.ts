/** The setting that gives a node a port: PORT (plain HTTP) and HTTPS_PORT for a `serve` node, NODE_PORT for a `worker`. */
export type PortSetting = 'PORT' | 'HTTPS_PORT' | 'NODE_PORT';

/** Why a port could not be bound: another process holds it, or it is below 1024 and this process is not privileged. */
export type PortRefusal = 'EADDRINUSE' | 'EACCES';

/**
 * The node could not bind its port. Nothing to retry until the setting (or the other program)
 * changes, so the node exits 78 (EX_CONFIG) with {@link message} as its one line.
 */
export class PortUnavailable extends Error {
  constructor(readonly setting: PortSetting, readonly port: number, readonly host: string, readonly refusal: PortRefusal) {
    super(refusal === 'EADDRINUSE'
      ? `Port ${port} on ${host} (${setting}) is already in use by another process: set ${setting} to a free port (every node on a host needs its own)`
      : `Port ${port} on ${host} (${setting}) needs privileges this process does not have: set ${setting} to a port above 1023`);
    this.name = 'PortUnavailable';
  }
}
