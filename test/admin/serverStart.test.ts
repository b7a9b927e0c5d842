import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { expect, test } from 'vitest';
import { setupLinkFileName } from '../../src/admin/credentials/AdminSetupLink.js';
import { waitFor } from '../helpers/processingHarness.js';
import { newDataDir, startServer } from '../helpers/serverProcess.js';

test('the start prints the setup link once, straight to stdout, never in a log line', async () => {
  const dataDir = newDataDir();
  const server = await startServer(dataDir, { LOG_LEVEL: 'info' });
  const output = await waitFor('the setup link to be printed', () => {
    const printed = server.output();
    return /open this link to set the admin password[\s\S]*\n\n/.test(printed) ? printed : undefined;
  }, 25_000);

  const link = readFileSync(join(dataDir, setupLinkFileName), 'utf8').trim();
  const token = new URL(link).searchParams.get('token')!;
  const lines = output.split('\n');
  expect(lines.filter((line) => line.includes(token))).toEqual([`  ${link}`]);
  expect(lines.some((line) => line.includes('open this link to set the admin password'))).toBe(true);
  for (const line of lines.filter((candidate) => candidate.startsWith('{'))) expect(line).not.toContain(token);

  // The link is on HTTPS (TLS=auto), which the box's own certificate is enough to trust.
  expect(link).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/admin\/setup\?token=/);
  const boxCertificate = readFileSync(join(dataDir, 'tls', 'generated-certificate.pem'), 'utf8');
  const setup = await undiciFetch(`${new URL(link).origin}/admin/api/setup`, { dispatcher: new Agent({ connect: { ca: boxCertificate } }) });
  expect(await setup.json()).toEqual({ setupRequired: true });
}, 60_000);
