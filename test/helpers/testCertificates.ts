// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPublicKey, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { CertificateNames } from '../../src/infrastructure/tls/certificateDetails.js';
import type { CertificatePair } from '../../src/infrastructure/tls/checkCertificate.js';
import { generateBoxKey, issueSelfSignedCertificate, serverCertificateExtensions } from '../../src/infrastructure/tls/issueCertificate.js';

/**
 * Certificates for tests of HTTPS and of the admin page's Certificate section, made on the spot
 * (nothing checked in that expires). Every key is ECDSA P-256, as the box's own.
 */

// Node.js's Web Crypto, as issueCertificate.ts sets it (its type is not the DOM's `Crypto` the library names).
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * The names a site's certificate must cover on a box started without `TLS_HOSTNAMES`: this
 * machine's host name (boxNames.ts requiredSiteNames).
 */
export function namesOfThisMachine(): string[] {
  return [hostname()];
}

/**
 * A self-signed certificate for `names` (DNS names or IP addresses; by default this machine's
 * host name, which makes it a valid site certificate for a test app) and its own key, as the
 * admin API's upload takes them. Valid from `now` (less an hour) for 397 days.
 */
export async function selfSignedSiteCertificate(options: { names?: string[]; commonName?: string; now?: number } = {}): Promise<CertificatePair> {
  const names = options.names ?? namesOfThisMachine();
  const key = generateBoxKey();
  const certificatePem = await issueSelfSignedCertificate(key, namesByKind(names), { commonName: options.commonName ?? names[0] ?? 'callscope test', now: options.now ?? Date.now() });
  return { certificatePem, keyPem: pemOf(key) };
}

/** What {@link certificateAuthorityWithLeaf} makes: the CA's certificate, and a server certificate it signed with that certificate's key. */
export interface CaSignedCertificate {
  /** The test CA's self-signed certificate (PEM): what a client is told to trust (EXTRA_CA_FILE, a trust store). */
  caPem: string;
  /** The server certificate for the given names (PEM), issued by the CA: alone, without the CA's certificate after it. */
  leafPem: string;
  /** The server certificate's private key (PKCS #8 PEM, unencrypted). */
  leafKeyPem: string;
}

/**
 * A small test certificate authority and a server certificate it signed for `names` (DNS
 * names or IP addresses), valid from `now` (less an hour) for `validDays` (the CA for a day
 * longer). The CA's key is not kept: it signs nothing else.
 */
export async function certificateAuthorityWithLeaf(
  names: string[],
  options: { caCommonName?: string; now?: number; validDays?: number } = {},
): Promise<CaSignedCertificate> {
  const now = options.now ?? Date.now();
  const notBefore = new Date(now - 60 * 60 * 1000);
  const validDays = options.validDays ?? 90;
  const caKeys = await cryptoKeysOf(generateBoxKey());
  const leafKey = generateBoxKey();
  const leafKeys = await cryptoKeysOf(leafKey);

  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [options.caCommonName ?? 'Callscope test CA'] }],
    notBefore,
    notAfter: new Date(now + (validDays + 1) * dayMs),
    keys: caKeys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const byKind = namesByKind(names);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    issuer: ca.subject,
    subject: [{ CN: [names[0] ?? 'callscope test'] }],
    notBefore,
    notAfter: new Date(now + validDays * dayMs),
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: [...await serverCertificateExtensions(byKind, leafKeys.publicKey), await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey)],
  });

  return { caPem: `${ca.toString('pem')}\n`, leafPem: `${leaf.toString('pem')}\n`, leafKeyPem: pemOf(leafKey) };
}

/** A private key as the box and the upload take it: PKCS #8 PEM, unencrypted. */
function pemOf(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function namesByKind(names: string[]): CertificateNames {
  return { dns: names.filter((name) => !isIP(name)), ip: names.filter((name) => isIP(name)) };
}

/** A Node.js key pair as the Web Crypto keys the library signs with. */
async function cryptoKeysOf(key: KeyObject): Promise<{ privateKey: webcrypto.CryptoKey; publicKey: webcrypto.CryptoKey }> {
  return {
    privateKey: await webcrypto.subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), algorithm, false, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', createPublicKey(key).export({ type: 'spki', format: 'der' }), algorithm, true, ['verify']),
  };
}

/** A positive 128-bit serial number (the top bit cleared: DER then needs no sign byte). */
function serialNumber(): string {
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  return serial.toString('hex');
}
