// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPublicKey, generateKeyPairSync, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import type { CertificateNames } from './certificateDetails.js';

// Node.js's Web Crypto; its type is not the DOM's `Crypto` this library names, though the same API.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** ECDSA over P-256 with SHA-256: what every TLS client of the last decade accepts, and small (a 64-byte signature). */
const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** How long a certificate the box makes for itself is valid, days: below the 398 days Apple's and browsers' clients accept. */
export const generatedValidityDays = 397;

/** Backdated by this much, ms, so that a client whose clock runs a little behind accepts a fresh certificate. */
const backdateMs = 60 * 60 * 1000;

/** A new private key for the box's own certificate: ECDSA P-256. */
export function generateBoxKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

/**
 * A self-signed server certificate (PEM) for `names`, signed by `key`: `CN=<commonName>`, the
 * names as its subjectAltName, for server authentication only, valid from `now` (less an
 * hour) for {@link generatedValidityDays}. Issued again with the same key it keeps the same
 * public-key pin.
 */
export async function issueSelfSignedCertificate(key: KeyObject, names: CertificateNames, options: { commonName: string; now: number }): Promise<string> {
  const keys = {
    privateKey: await webcrypto.subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), algorithm, false, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', createPublicKey(key).export({ type: 'spki', format: 'der' }), algorithm, true, ['verify']),
  };
  // A positive 128-bit serial number: the top bit cleared, so that DER needs no sign byte.
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: [{ CN: [commonName(options.commonName)] }],
    notBefore: new Date(options.now - backdateMs),
    notAfter: new Date(options.now + generatedValidityDays * 24 * 60 * 60 * 1000),
    keys,
    signingAlgorithm: algorithm,
    extensions: await serverCertificateExtensions(names, keys.publicKey),
  });
  return `${certificate.toString('pem')}\n`;
}

/**
 * What makes a certificate a TLS server's and no more: not a CA, signatures only (ECDSA has no
 * key encipherment), server authentication only, `names` as its subjectAltName (what clients
 * check; the common name is ignored by them), and its key's identifier.
 */
export async function serverCertificateExtensions(names: CertificateNames, publicKey: webcrypto.CryptoKey): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension([
      ...names.dns.map((value) => ({ type: 'dns' as const, value })),
      ...names.ip.map((value) => ({ type: 'ip' as const, value })),
    ]),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
  ];
}

/** A common name within X.509's 64 characters. */
function commonName(name: string): string {
  return name.slice(0, 64);
}
