import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type ConnectionOptions, type SecureVersion } from 'node:tls';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../src/infrastructure/processes/freeLoopbackPort.js';
import { namesOf } from '../../src/infrastructure/tls/certificateDetails.js';
import { waitFor } from '../helpers/processingHarness.js';
import { selfSignedSiteCertificate } from '../helpers/testCertificates.js';
import { newDataDir, runNodeUntilExit, startServer, type ServerProcess } from '../helpers/serverProcess.js';

// The service as `npm start` runs it (TLS=auto, the default), spoken to by real TLS clients:
// Node.js's own and `openssl s_client`.

type Handshake = { protocol: string | null; certificate: X509Certificate } | { error: string };

/** One TLS handshake with the server's HTTPS port, whatever its certificate (the test compares it). */
function handshake(port: number, options: ConnectionOptions = {}, host = '127.0.0.1'): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, rejectUnauthorized: false, ...options }, () => {
      resolve({ protocol: socket.getProtocol(), certificate: socket.getPeerX509Certificate()! });
      socket.end();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

async function servedCertificate(port: number, host = '127.0.0.1'): Promise<X509Certificate> {
  const result = await handshake(port, {}, host);
  if ('error' in result) throw new Error(`handshake failed: ${result.error}`);
  return result.certificate;
}

/** Only TLS `version`, as an old client offers it (OpenSSL 3 would not offer 1.0 or 1.1 at its default security level). */
function onlyVersion(version: SecureVersion): ConnectionOptions {
  return { minVersion: version, maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0' };
}

function openssl(port: number, versionFlag: string): { status: number | null; output: string } {
  const run = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, versionFlag, '-cipher', 'DEFAULT@SECLEVEL=0'], { input: '', encoding: 'utf8', timeout: 15_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** fetch over HTTPS trusting only `certificatePem` (the box's own certificate as its own authority). */
function httpsFetch(certificatePem: string, url: string, init: UndiciRequestInit = {}) {
  return undiciFetch(url, { ...init, dispatcher: new Agent({ connect: { ca: certificatePem } }) });
}

const sitePair = (names: string[]) => selfSignedSiteCertificate({ names });

/**
 * A fresh service on its own DATA_DIR (TLS=auto, the default) with plain HTTP and HTTPS on two
 * ports found free (two looks may find the same one: asked again then); killed after the test
 * (serverProcess.ts).
 */
async function startHttpsServer(env: Record<string, string> = {}): Promise<{ server: ServerProcess; httpsPort: number }> {
  const httpsPort = await freeLoopbackPort();
  let port = await freeLoopbackPort();
  while (port === httpsPort) port = await freeLoopbackPort();
  return { server: await startServer(newDataDir(), { PORT: String(port), HTTPS_PORT: String(httpsPort), ...env }), httpsPort };
}

describe('TLS=auto (the default): the box serves HTTPS with a certificate of its own', () => {
  it('refuses TLS 1.0 and 1.1 and accepts 1.2 and 1.3, to Node.js and to openssl s_client', async () => {
    const { httpsPort } = await startHttpsServer();
    for (const version of ['TLSv1', 'TLSv1.1'] as const) {
      expect(await handshake(httpsPort, onlyVersion(version))).toEqual({ error: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
    }
    for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
      expect(await handshake(httpsPort, onlyVersion(version))).toMatchObject({ protocol: version });
    }
    for (const flag of ['-tls1', '-tls1_1']) {
      const refused = openssl(httpsPort, flag);
      expect(refused.status).not.toBe(0);
      expect(refused.output).toMatch(/alert protocol version/);
    }
    expect(openssl(httpsPort, '-tls1_2').output).toMatch(/Protocol\s*: TLSv1\.2/);
    expect(openssl(httpsPort, '-tls1_3').output).toMatch(/New, TLSv1\.3/);
  }, 60_000);

  it('prints the HTTPS setup link and the fingerprint at first start; the certificate validates for 127.0.0.1; HSTS and a Secure admin cookie over HTTPS; /admin/api/tls reports what is served', async () => {
    const { server, httpsPort } = await startHttpsServer();
    const certificate = await servedCertificate(httpsPort);
    const printed = /SHA-256 fingerprint:\s+([0-9A-F:]{95})/.exec(server.output())?.[1];
    expect(printed).toBe(certificate.fingerprint256);
    const link = new RegExp(`https://127\\.0\\.0\\.1:${httpsPort}/admin/setup\\?token=([A-Za-z0-9_-]+)`).exec(server.output());
    expect(link).not.toBeNull();

    // The box's certificate is enough to trust it: the names check passes for the address it listens on.
    const base = `https://127.0.0.1:${httpsPort}`;
    const health = await httpsFetch(certificate.toString(), `${base}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('strict-transport-security')).toBe('max-age=31536000');
    // Plain HTTP on loopback is served as before, without HSTS (it means nothing over HTTP).
    const plain = await fetch(`${server.baseUrl}/api/health`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('strict-transport-security')).toBeNull();

    const setup = await httpsFetch(certificate.toString(), `${base}/admin/api/setup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link![1], password: 'correct horse battery staple' }),
    });
    expect(setup.status).toBe(200);
    const cookie = setup.headers.get('set-cookie')!;
    expect(cookie).toMatch(/; Secure/);
    const overview = (await (await httpsFetch(certificate.toString(), `${base}/admin/api/tls`, { headers: { cookie: cookie.split(';')[0]! } })).json()) as {
      certificate: { source: string; names: string[]; fingerprintSha256: string; notAfter: string };
    };
    expect(overview.certificate.source).toBe('generated');
    expect(overview.certificate.fingerprintSha256).toBe(certificate.fingerprint256);
    const served = namesOf(certificate);
    expect(overview.certificate.names).toEqual([...served.dns, ...served.ip]);
    expect(overview.certificate.names).toEqual([hostname().toLowerCase(), 'localhost', '127.0.0.1']);
    expect(Date.parse(overview.certificate.notAfter)).toBe(Date.parse(certificate.validTo));
  }, 60_000);
});

describe('the site\'s own certificate from TLS_CERT_FILE', () => {
  it('is served; replaced on disk while running, the new one is served to the next connection; a key that does not match is refused with a clear error and nothing changes', async () => {
    const files = mkdtempSync(join(tmpdir(), 'callscope-site-tls-'));
    try {
      const certificateFile = join(files, 'callscope.crt');
      const keyFile = join(files, 'callscope.key');
      const write = (pair: { certificatePem: string; keyPem: string }) => {
        writeFileSync(certificateFile, pair.certificatePem);
        writeFileSync(keyFile, pair.keyPem, { mode: 0o600 });
      };
      const first = await sitePair([hostname()]);
      write(first);
      const { server, httpsPort } = await startHttpsServer({ TLS_CERT_FILE: certificateFile, TLS_KEY_FILE: keyFile });
      const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256;
      expect((await servedCertificate(httpsPort)).fingerprint256).toBe(fingerprintOf(first.certificatePem));

      const second = await sitePair([hostname()]);
      write(second);
      await waitFor('the replaced certificate to be served', async () => (await servedCertificate(httpsPort)).fingerprint256 === fingerprintOf(second.certificatePem) || undefined, 10_000);

      write({ certificatePem: (await sitePair([hostname()])).certificatePem, keyPem: second.keyPem });
      await waitFor('the refusal in the log', () => server.output().includes('the changed TLS certificate is not served: The private key does not belong to the certificate; the certificate in use stays') || undefined, 10_000);
      expect((await servedCertificate(httpsPort)).fingerprint256).toBe(fingerprintOf(second.certificatePem));
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a start on a site certificate that fails its check', () => {
  it('ends with exit code 78 and one line saying why, serving nothing', async () => {
    const files = mkdtempSync(join(tmpdir(), 'callscope-site-tls-'));
    try {
      writeFileSync(join(files, 'callscope.crt'), (await sitePair([hostname()])).certificatePem);
      writeFileSync(join(files, 'callscope.key'), (await sitePair([hostname()])).keyPem, { mode: 0o600 });
      const ended = await runNodeUntilExit('serve', newDataDir(), { PORT: '0', HTTPS_PORT: '0', TLS_CERT_FILE: join(files, 'callscope.crt'), TLS_KEY_FILE: join(files, 'callscope.key') });
      expect(ended.code).toBe(78);
      expect(ended.stderr.trim()).toBe('The certificate of TLS_CERT_FILE and TLS_KEY_FILE is not served: The private key does not belong to the certificate. Replace the files, or unset both to serve the box\'s own certificate');
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('TLS=off', () => {
  it('serves plain HTTP only: nothing listens on HTTPS_PORT', async () => {
    const { server, httpsPort } = await startHttpsServer({ TLS: 'off' });
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(await handshake(httpsPort)).toEqual({ error: 'ECONNREFUSED' });
    expect(server.output()).toMatch(/open this link to set the admin password[^\n]*\n\n {2}http:\/\/127\.0\.0\.1:\d+\/admin\/setup\?token=/);
    expect(server.output()).not.toContain('fingerprint');
  }, 60_000);
});

/**
 * A client on another machine: a network namespace of its own, joined to this one by a veth
 * pair on addresses of the benchmarking range (198.18.0.0/15, RFC 2544), never a real LAN.
 */
describe('plain HTTP from another address', () => {
  const namespace = `cs-tls-${process.pid}`;
  const hostLink = `cst${process.pid % 100_000}`;
  const subnet = `198.18.${process.pid % 250}`;
  const boxAddress = `${subnet}.1`;
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

  beforeAll(() => {
    ip('netns', 'add', namespace);
    ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', 'cs-client', 'netns', namespace);
    ip('addr', 'add', `${boxAddress}/30`, 'dev', hostLink);
    ip('link', 'set', hostLink, 'up');
    ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${subnet}.2/30`, 'dev', 'cs-client');
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'cs-client', 'up');
  });
  afterAll(() => {
    // Deleting the namespace deletes its end of the pair, and with it this one.
    spawnSync('ip', ['netns', 'del', namespace]);
    spawnSync('ip', ['link', 'del', hostLink]);
  });

  /** A request made from inside the namespace: its status, Location and HSTS header. */
  function fromOtherMachine(url: string, method = 'GET'): { status: number; location: string | null; hsts: string | null } {
    const script = `
      const target = new URL(process.argv[1]);
      const client = require(target.protocol === 'https:' ? 'node:https' : 'node:http');
      const request = client.request(target, { method: process.argv[2], rejectUnauthorized: false }, (response) => {
        response.resume();
        console.log(JSON.stringify({ status: response.statusCode, location: response.headers.location ?? null, hsts: response.headers['strict-transport-security'] ?? null }));
      });
      request.on('error', (error) => { console.error(error.message); process.exit(1); });
      request.end(process.argv[2] === 'POST' ? '{}' : undefined);`;
    return JSON.parse(execFileSync('ip', ['netns', 'exec', namespace, process.execPath, '-e', script, url, method], { encoding: 'utf8', timeout: 15_000 })) as { status: number; location: string | null; hsts: string | null };
  }

  it('is answered 308 to the same path on HTTPS, but for the health probes; HTTPS itself serves it', async () => {
    const { server, httpsPort } = await startHttpsServer({ HOST: boxAddress });
    const plainBase = server.baseUrl;
    expect(fromOtherMachine(`${plainBase}/api/calls?limit=1`)).toEqual({ status: 308, location: `https://${boxAddress}:${httpsPort}/api/calls?limit=1`, hsts: null });
    expect(fromOtherMachine(`${plainBase}/api/calls/analyze`, 'POST')).toMatchObject({ status: 308, location: `https://${boxAddress}:${httpsPort}/api/calls/analyze` });
    expect(fromOtherMachine(`${plainBase}/admin/login`)).toMatchObject({ status: 308, location: `https://${boxAddress}:${httpsPort}/admin/login` });
    expect(fromOtherMachine(`${plainBase}/actuator/prometheus`)).toMatchObject({ status: 308 });
    for (const probe of ['/actuator/health', '/actuator/health/liveness']) expect(fromOtherMachine(`${plainBase}${probe}`)).toMatchObject({ status: 200 });
    expect(fromOtherMachine(`${plainBase}/actuator/health/readiness`).status).not.toBe(308);
    expect(fromOtherMachine(`https://${boxAddress}:${httpsPort}/api/health`)).toEqual({ status: 200, location: null, hsts: 'max-age=31536000' });
    // The certificate names the address the box listens on.
    expect(namesOf(await servedCertificate(httpsPort, boxAddress)).ip).toContain(boxAddress);
  }, 60_000);
});
