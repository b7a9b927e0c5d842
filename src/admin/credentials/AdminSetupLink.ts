import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../infrastructure/clock.js';
import type { AdminAccount } from './AdminAccount.js';

/** Where the setup link is written, inside DATA_DIR (mode 0600), until the password is set. */
export const setupLinkFileName = 'admin-setup-link.txt';

/**
 * The first-run link `https://<host>:<port>/admin/setup?token=…` (`http://` with `TLS=off`). While no admin password exists,
 * each process start issues a fresh setup token and writes the link to DATA_DIR; setting the
 * password deletes the file.
 */
export class AdminSetupLink {
  private link?: string;

  constructor(
    private readonly account: AdminAccount,
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  get path(): string {
    return join(this.dataDir, setupLinkFileName);
  }

  /**
   * The link for the server listening at `address` with `scheme` (issued and written on the
   * first call of the process, the same link after), or undefined once a password is set.
   */
  async prepare(address: AddressInfo | string | null, scheme: 'http' | 'https' = 'http'): Promise<string | undefined> {
    if (await this.account.hasPassword()) {
      this.remove();
      return undefined;
    }
    if (!this.link) {
      const token = await this.account.issueSetupToken(this.clock());
      this.link = `${baseUrlOf(address, scheme)}/admin/setup?token=${token}`;
      writeFileSync(this.path, `${this.link}\n`, { mode: 0o600 });
      // `mode` applies only to a new file; one left by an earlier start keeps its own otherwise.
      chmodSync(this.path, 0o600);
    }
    return this.link;
  }

  remove(): void {
    this.link = undefined;
    rmSync(this.path, { force: true });
  }
}

/**
 * `scheme://host:port` as a browser on the LAN can reach it: a server bound to every interface is
 * named by its first LAN IPv4 address (a desk machine may not resolve the box's host name), which
 * the box's own certificate names too.
 */
function baseUrlOf(address: AddressInfo | string | null, scheme: 'http' | 'https'): string {
  if (!address || typeof address === 'string') return `${scheme}://localhost`;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? (lanAddress() ?? 'localhost') : address.address;
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

function lanAddress(): string | undefined {
  for (const entries of Object.values(networkInterfaces())) {
    const found = entries?.find((entry) => entry.family === 'IPv4' && !entry.internal);
    if (found) return found.address;
  }
  return undefined;
}
