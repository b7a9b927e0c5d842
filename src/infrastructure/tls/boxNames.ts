import { isIP } from 'node:net';
import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Config } from '../../config/configSchema.js';
import { normalisedAddress, type CertificateNames } from './certificateDetails.js';

/** The settings the box's names come from. */
export type BoxNameSettings = Pick<Config, 'HOST' | 'TLS_HOSTNAMES'>;

/** What the machine says of itself; a test passes its own. */
export interface MachineIdentity {
  hostName: string;
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

export function thisMachine(): MachineIdentity {
  return { hostName: hostname(), interfaces: networkInterfaces() };
}

/** `TLS_HOSTNAMES` as a list: comma-separated, blanks and repeats dropped. */
export function tlsHostnamesOf(value: string | undefined): string[] {
  return [...new Set((value ?? '').split(',').map((name) => name.trim()).filter((name) => name !== ''))];
}

/**
 * The names the box's own certificate is made for: its host name, `localhost`, the names in
 * `TLS_HOSTNAMES`, and every address it listens on: with `HOST` a wildcard, the addresses of
 * all its interfaces (`0.0.0.0` IPv4 only, as Node.js binds it; link-local IPv6 left out, a URL
 * cannot name its interface), else `HOST` itself.
 */
export function namesOfThisBox(settings: BoxNameSettings, machine: MachineIdentity = thisMachine()): CertificateNames {
  const names: CertificateNames = { dns: [], ip: [] };
  const add = (name: string) => {
    if (isIP(name)) names.ip.push(normalisedAddress(name));
    else names.dns.push(name.toLowerCase());
  };
  [machine.hostName, 'localhost', ...tlsHostnamesOf(settings.TLS_HOSTNAMES)].forEach(add);
  const wildcard = settings.HOST === '0.0.0.0' || settings.HOST === '::' || settings.HOST === '';
  if (!wildcard) add(settings.HOST);
  else {
    for (const entry of Object.values(machine.interfaces).flat()) {
      if (!entry) continue;
      if (entry.family === 'IPv4' || (settings.HOST === '::' && !entry.address.toLowerCase().startsWith('fe80:'))) add(entry.address);
    }
  }
  return { dns: [...new Set(names.dns)], ip: [...new Set(names.ip)] };
}

/**
 * The names a site's certificate must cover: each of `TLS_HOSTNAMES` (the names the site gives
 * its clients), or without them the machine's host name.
 */
export function requiredSiteNames(settings: BoxNameSettings, machine: MachineIdentity = thisMachine()): string[] {
  const configured = tlsHostnamesOf(settings.TLS_HOSTNAMES);
  return configured.length > 0 ? configured : [machine.hostName];
}
