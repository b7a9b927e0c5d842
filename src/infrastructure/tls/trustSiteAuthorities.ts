import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { globalAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { Agent, setGlobalDispatcher } from 'undici';
import { ConfigError } from '../../config/loadConfig.js';
import { pemBlocks } from './certificateDetails.js';

/**
 * Makes every outgoing HTTPS connection of this process trust the site's own certificate
 * authorities (`EXTRA_CA_FILE`) as well as the public ones Node.js trusts: `fetch` (webhooks,
 * the identity provider, model downloads) through undici's global dispatcher, `node:https`
 * (the transcription and chat servers) through its global agent. Nothing changes without a file.
 * A file that is not PEM certificates ends the start ({@link ConfigError}).
 */
export function trustSiteAuthorities(extraCaFile: string | undefined): void {
  if (!extraCaFile) return;
  const authorities = readAuthorities(extraCaFile);
  const ca = [...rootCertificates, ...authorities];
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
