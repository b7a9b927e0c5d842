import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { globalAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { Agent, setGlobalDispatcher } from 'undici';
import { ConfigError } from '../../config/loadConfig.js';
import { pemBlocks } from './certificateDetails.js';

/**
 * The operating system's bundle of trusted authorities, where the common Linux distributions keep
 * it (`SSL_CERT_FILE` first, as OpenSSL reads it): a site may have added its CA there already.
 */
const systemBundles = [process.env.SSL_CERT_FILE, '/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

/**
 * Makes every outgoing HTTPS connection of this process trust the site's own certificate
 * authorities (`EXTRA_CA_FILE`) as well as those it trusted before: the public ones Node.js ships
 * with, the system's bundle and `NODE_EXTRA_CA_CERTS` (a connection given its own `ca` trusts
 * only that list, so all of them go in). It applies to `fetch` (webhooks, the identity provider,
 * model downloads) through undici's global dispatcher and to `node:https` (the transcription and
 * chat servers) through its global agent. Nothing changes without a file. A file that is not PEM
 * certificates ends the start ({@link ConfigError}).
 */
export function trustSiteAuthorities(extraCaFile: string | undefined): void {
  if (!extraCaFile) return;
  const authorities = readAuthorities(extraCaFile);
  const system = systemBundles.map((path) => (path ? readOptional(path) : undefined)).find((text) => text !== undefined) ?? '';
  const nodeExtra = process.env.NODE_EXTRA_CA_CERTS ? readOptional(process.env.NODE_EXTRA_CA_CERTS) ?? '' : '';
  const ca = [...new Set([...rootCertificates, ...pemBlocks(system), ...pemBlocks(nodeExtra), ...authorities])];
  globalAgent.options.ca = ca;
  setGlobalDispatcher(new Agent({ connect: { ca } }));
}

function readAuthorities(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`EXTRA_CA_FILE: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  const blocks = pemBlocks(text);
  if (blocks.length === 0) throw new ConfigError([`EXTRA_CA_FILE: ${path} holds no PEM certificate ("-----BEGIN CERTIFICATE-----")`]);
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new ConfigError([`EXTRA_CA_FILE: certificate ${index + 1} of ${path} cannot be read`]);
    }
  });
  return blocks;
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
