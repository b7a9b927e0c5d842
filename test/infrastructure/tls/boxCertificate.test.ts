import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loadConfig.js';
import type { MachineIdentity } from '../../../src/infrastructure/tls/boxNames.js';
import { BoxCertificate, expiryWarning, SiteCertificateFromEnvironment, type CertificateInUse } from '../../../src/infrastructure/tls/BoxCertificate.js';
import { CertificateRejected, checkCertificate, type CertificatePair } from '../../../src/infrastructure/tls/checkCertificate.js';
import { selfSignedSiteCertificate } from '../../helpers/testCertificates.js';

const dayMs = 24 * 60 * 60 * 1000;
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'callscope-tls-'));
  folders.push(path);
  return path;
}

/** A machine named `callscope-box` with one LAN address (a documentation address, RFC 5737) and loopback. */
function machine(addresses = ['192.0.2.10']): MachineIdentity {
  return {
    hostName: 'callscope-box',
    interfaces: {
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '00:00:00:00:00:00', cidr: '127.0.0.1/8' }],
      eth0: addresses.map((address) => ({ address, family: 'IPv4' as const, internal: false, netmask: '255.255.255.0', mac: '02:00:00:00:00:01', cidr: `${address}/24` })),
    },
  };
}

/** A certificate for `names` signed by a new key, valid from `now` (less an hour) for 397 days. */
function sitePair(names: string[], now = Date.now()): Promise<CertificatePair> {
  return selfSignedSiteCertificate({ names, now });
}

function boxCertificate(dataDir: string, env: Record<string, string> = {}, clock = () => Date.now(), identity = machine()): BoxCertificate {
  return new BoxCertificate(loadConfig({ DATA_DIR: dataDir, ...env }), clock, identity);
}

describe('the box\'s own certificate', () => {
  it('is made at first use: an ECDSA P-256 key readable by the owner only, a certificate for the host name, localhost, TLS_HOSTNAMES and every address', async () => {
    const dataDir = folder();
    const inUse = await boxCertificate(dataDir, { TLS_HOSTNAMES: 'callscope.clinic.example, 198.51.100.7' }).current();
    expect(inUse.source).toBe('generated');
    expect(inUse.details.names).toEqual(['callscope-box', 'localhost', 'callscope.clinic.example', '198.51.100.7', '127.0.0.1', '192.0.2.10']);
    const certificate = new X509Certificate(inUse.pair.certificatePem);
    expect(certificate.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(certificate.subject).toBe('CN=callscope-box');
    expect(statSync(join(dataDir, 'tls', 'generated-key.pem')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'tls')).mode & 0o777).toBe(0o700);
    // Another start (or another node on the shared DATA_DIR) serves the same certificate.
    const again = await boxCertificate(dataDir, { TLS_HOSTNAMES: 'callscope.clinic.example, 198.51.100.7' }).current();
    expect(again.details.fingerprintSha256).toBe(inUse.details.fingerprintSha256);
  });

  it('names only HOST when the box listens on one address', async () => {
    const inUse = await boxCertificate(folder(), { HOST: '192.0.2.10' }).current();
    expect(inUse.details.names).toEqual(['callscope-box', 'localhost', '192.0.2.10']);
  });

  it('renews itself 30 days before it ends, with the same key: the public-key pin holds, the certificate\'s fingerprint changes', async () => {
    const dataDir = folder();
    let now = Date.now();
    const box = boxCertificate(dataDir, {}, () => now);
    const first = await box.current();
    const changes: CertificateInUse[] = [];
    box.onChange((next) => changes.push(next));
    now += 360 * dayMs; // 37 days before the end of 397: not yet
    await box.refresh();
    expect(changes).toHaveLength(0);
    expect(expiryWarning(first, now)).toBeNull();
    now += 8 * dayMs; // 29 days before the end
    await box.refresh();
    expect(changes).toHaveLength(1);
    const renewed = changes[0]!;
    expect(renewed.details.publicKeyPinSha256).toBe(first.details.publicKeyPinSha256);
    expect(renewed.details.fingerprintSha256).not.toBe(first.details.fingerprintSha256);
    expect(Date.parse(renewed.details.notAfter) - now).toBeGreaterThan(390 * dayMs);
    expect(renewed.details.names).toEqual(first.details.names);
  });

  it('is issued again when the box has a new address, keeping the names it had (nodes on a shared DATA_DIR add theirs)', async () => {
    const dataDir = folder();
    const first = await boxCertificate(dataDir, {}, () => Date.now(), machine(['192.0.2.10'])).current();
    const moved = await boxCertificate(dataDir, {}, () => Date.now(), machine(['192.0.2.20'])).current();
    expect(moved.details.names).toEqual(['callscope-box', 'localhost', '127.0.0.1', '192.0.2.10', '192.0.2.20']);
    expect(moved.details.publicKeyPinSha256).toBe(first.details.publicKeyPinSha256);
  });
});

describe('a site\'s certificate', () => {
  it('is checked before use: a key of another certificate, an expired or not yet valid one, names that miss the box\'s, an encrypted key, no PEM', async () => {
    const now = Date.now();
    const good = await sitePair(['callscope-box']);
    const other = await sitePair(['callscope-box']);
    const check = (pair: CertificatePair, requiredNames = ['callscope-box']) => {
      try {
        checkCertificate(pair, { requiredNames, now });
        return 'accepted';
      } catch (error) {
        return (error as CertificateRejected).problem;
      }
    };
    expect(check(good)).toBe('accepted');
    expect(check({ certificatePem: good.certificatePem, keyPem: other.keyPem })).toBe('key_mismatch');
    expect(check(await sitePair(['callscope-box'], now - 400 * dayMs))).toBe('expired');
    expect(check(await sitePair(['callscope-box'], now + 2 * dayMs))).toBe('not_yet_valid');
    expect(check(good, ['callscope.clinic.example'])).toBe('names_not_covered');
    expect(check({ certificatePem: 'not a certificate', keyPem: good.keyPem })).toBe('certificate_unreadable');
    expect(check({ certificatePem: good.certificatePem, keyPem: '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----' })).toBe('key_unreadable');
    // A wildcard certificate covers a name under it; the rejection says which names are missing.
    expect(check(await sitePair(['*.clinic.example']), ['callscope.clinic.example'])).toBe('accepted');
    try {
      checkCertificate(good, { requiredNames: ['callscope.clinic.example', 'callscope-box'], now });
    } catch (error) {
      expect((error as CertificateRejected).missingNames).toEqual(['callscope.clinic.example']);
      expect((error as Error).message).toContain('callscope.clinic.example');
    }
  });

  it('uploaded: served at once and kept in DATA_DIR/tls (key 0600); one that fails its check changes nothing; removed, the box\'s own is back', async () => {
    const dataDir = folder();
    const box = boxCertificate(dataDir);
    const generated = await box.current();
    const site = await sitePair(['callscope-box']);
    const mismatched = { certificatePem: site.certificatePem, keyPem: (await sitePair(['callscope-box'])).keyPem };
    await expect(box.upload(mismatched)).rejects.toThrow(CertificateRejected);
    expect((await box.current()).details.fingerprintSha256).toBe(generated.details.fingerprintSha256);

    const uploaded = await box.upload(site);
    expect(uploaded).toMatchObject({ source: 'site', origin: 'upload' });
    expect((await box.current()).pair).toEqual(site);
    expect(statSync(join(dataDir, 'tls', 'site-key.pem')).mode & 0o777).toBe(0o600);
    // A restart serves the upload.
    expect((await boxCertificate(dataDir).current()).details.fingerprintSha256).toBe(uploaded.details.fingerprintSha256);

    const back = await box.removeUpload();
    expect(back.source).toBe('generated');
    expect(back.details.publicKeyPinSha256).toBe(generated.details.publicKeyPinSha256);
  });

  it('uploaded and damaged since: the next start serves the box\'s own (the admin page stays reachable) and says why once a log is given', async () => {
    const dataDir = folder();
    const generated = await boxCertificate(dataDir).current();
    await boxCertificate(dataDir).upload(await sitePair(['callscope-box']));
    writeFileSync(join(dataDir, 'tls', 'site-key.pem'), (await sitePair(['callscope-box'])).keyPem);
    const restarted = boxCertificate(dataDir);
    expect((await restarted.current()).details.fingerprintSha256).toBe(generated.details.fingerprintSha256);
    const logged: string[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: (_fields: object, message: string) => void logged.push(message) };
    restarted.watch(log);
    restarted.close();
    expect(logged).toEqual([expect.stringMatching(/^the uploaded certificate in .*tls is not served: The private key does not belong to the certificate; serving the generated one$/)]);
  });

  it('from TLS_CERT_FILE: a start on one that fails is refused; a change on disk is served, a bad change is not, and uploads are refused', async () => {
    const dataDir = folder();
    const files = folder();
    const certificateFile = join(files, 'cert.pem');
    const keyFile = join(files, 'key.pem');
    const write = (pair: CertificatePair) => {
      writeFileSync(certificateFile, pair.certificatePem);
      writeFileSync(keyFile, pair.keyPem);
    };
    const env = { TLS_CERT_FILE: certificateFile, TLS_KEY_FILE: keyFile };
    const first = await sitePair(['callscope-box']);
    write({ certificatePem: first.certificatePem, keyPem: (await sitePair(['callscope-box'])).keyPem });
    await expect(boxCertificate(dataDir, env).current()).rejects.toThrow(/does not belong to the certificate/);

    write(first);
    const box = boxCertificate(dataDir, env);
    expect(await box.current()).toMatchObject({ source: 'site', origin: 'environment', pair: first });
    const changes: CertificateInUse[] = [];
    box.onChange((next) => changes.push(next));

    const second = await sitePair(['callscope-box']);
    write(second);
    await box.refresh();
    expect(changes.map((change) => change.pair)).toEqual([second]);

    write({ certificatePem: (await sitePair(['callscope-box'])).certificatePem, keyPem: first.keyPem });
    await box.refresh();
    expect(changes).toHaveLength(1);
    expect((await box.current()).pair).toEqual(second);

    await expect(box.upload(first)).rejects.toThrow(SiteCertificateFromEnvironment);
    await expect(box.removeUpload()).rejects.toThrow(SiteCertificateFromEnvironment);
  });

  it('within 30 days of its end is warned of, with what to do', async () => {
    const now = Date.now();
    const site = await sitePair(['callscope-box'], now - 380 * dayMs);
    const inUse: CertificateInUse = { source: 'site', origin: 'upload', pair: site, details: checkCertificate(site, { requiredNames: [], now }).details };
    expect(expiryWarning(inUse, now)).toMatch(/^The certificate expires on \d{4}-\d\d-\d\d \(in 1[56] days\): replace it \(upload a new one\)$/);
  });
});
