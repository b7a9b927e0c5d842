import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, globalAgent, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/loadConfig.js';
import { postJson, postMultipart } from '../../../src/infrastructure/inference/inferenceRequests.js';
import { trustSiteAuthorities } from '../../../src/infrastructure/tls/trustSiteAuthorities.js';
import { postWebhook } from '../../../src/infrastructure/webhooks/postWebhook.js';
import { certificateAuthorityWithLeaf } from '../../helpers/testCertificates.js';

// A site's server (its transcription or chat server, a webhook receiver) whose certificate was
// issued by the site's own CA, which no public trust store holds.

let folder: string;
let server: Server;
let baseUrl: string;
let caFile: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'callscope-site-ca-'));
  const site = await certificateAuthorityWithLeaf(['127.0.0.1']);
  caFile = join(folder, 'site-ca.pem');
  writeFileSync(caFile, site.caPem);
  server = createServer({ cert: site.leafPem, key: site.leafKeyPem }, (request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // This process's outgoing connections trust the public authorities only again.
  delete globalAgent.options.ca;
  setGlobalDispatcher(new Agent());
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const webhook = () => postWebhook({ url: `${baseUrl}/hook`, messageId: 'msg_1', timestampSeconds: Math.floor(Date.now() / 1000), signature: 'v1,x', body: '{}' }, { timeoutMs: 5000, signal: new AbortController().signal });
const chatServer = () => postJson(`${baseUrl}/v1/chat/completions`, { model: 'm' }, { timeoutMs: 5000 });
const transcriptionServer = () => {
  const audio = join(folder, 'call.wav');
  writeFileSync(audio, Buffer.alloc(64));
  return postMultipart(`${baseUrl}/v1/audio/transcriptions`, { fields: [['model', 'whisper-1']], file: { field: 'file', path: audio, fileName: 'call.wav', contentType: 'audio/wav' }, timeoutMs: 5000 });
};

describe('EXTRA_CA_FILE', () => {
  it('makes fetch (webhooks) and node:https (transcription and chat servers) trust the site\'s CA, which they refuse without it', async () => {
    expect(await webhook()).toMatchObject({ stopped: false, statusCode: null });
    await expect(chatServer()).rejects.toThrow(/certificate/);
    await expect(transcriptionServer()).rejects.toThrow(/certificate/);

    trustSiteAuthorities(caFile);
    expect(await webhook()).toEqual({ stopped: false, statusCode: 200, error: null });
    expect(await chatServer()).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(await transcriptionServer()).toMatchObject({ status: 200 });
  });

  it('refuses the start on a file that cannot be read or holds no certificate, and does nothing unset', () => {
    expect(() => trustSiteAuthorities(join(folder, 'missing.pem'))).toThrow(ConfigError);
    writeFileSync(join(folder, 'not-a-ca.pem'), 'hello');
    expect(() => trustSiteAuthorities(join(folder, 'not-a-ca.pem'))).toThrow(/EXTRA_CA_FILE: .* holds no PEM certificate/);
    writeFileSync(join(folder, 'damaged.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(() => trustSiteAuthorities(join(folder, 'damaged.pem'))).toThrow(/certificate 1 of .* cannot be read/);
    expect(() => trustSiteAuthorities(undefined)).not.toThrow();
  });
});
