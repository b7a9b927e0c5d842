import type { FastifyInstance } from 'fastify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortUnavailable, type PortSetting } from './PortUnavailable.js';

/** Where a node listens. */
export interface NodePorts {
  host: string;
  /** The app's own server: HTTPS_PORT when the app serves HTTPS, else PORT (a worker: NODE_PORT). */
  app: { setting: PortSetting; port: number };
  /** With HTTPS: plain HTTP on PORT beside it, on the same routes. */
  plainHttp?: { setting: PortSetting; port: number };
}

/** The ports a node bound; `close` lets go of the plain HTTP one (the app closes its own). */
export interface NodeListeners {
  app: AddressInfo;
  plainHttp?: AddressInfo;
  close(): Promise<void>;
}

/** Fastify's own default for its server, ms: longer than the usual 60 s of proxies and load balancers in front. */
const keepAliveTimeoutMs = 72_000;

/**
 * Binds a node's ports: the app's server first, then (with HTTPS) a plain HTTP server handing
 * every request to the same routes and hooks (`app.routing`), which send a plain request from
 * another machine to HTTPS (`registerTransportSecurity`). A port taken, or one this process may
 * not bind, ends the start as {@link PortUnavailable}; the caller closes the app (and so its port).
 */
export async function listenNode(app: FastifyInstance, ports: NodePorts): Promise<NodeListeners> {
  await bound(ports.app, ports.host, () => app.listen({ port: ports.app.port, host: ports.host }));
  const appAddress = app.server.address() as AddressInfo;
  if (!ports.plainHttp) return { app: appAddress, close: async () => undefined };
  const plain = createServer(app.routing);
  plain.keepAliveTimeout = keepAliveTimeoutMs;
  const close = () => new Promise<void>((resolve) => {
    if (!plain.listening) return resolve();
    plain.close(() => resolve());
    plain.closeAllConnections();
  });
  const { port } = ports.plainHttp;
  await bound(ports.plainHttp, ports.host, () => new Promise<void>((resolve, reject) => {
    plain.once('error', reject);
    plain.listen({ port, host: ports.host }, () => {
      plain.off('error', reject);
      resolve();
    });
  }));
  return { app: appAddress, plainHttp: plain.address() as AddressInfo, close };
}

async function bound(port: { setting: PortSetting; port: number }, host: string, listen: () => Promise<unknown>): Promise<void> {
  try {
    await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new PortUnavailable(port.setting, port.port, host, code);
    throw error;
  }
}
