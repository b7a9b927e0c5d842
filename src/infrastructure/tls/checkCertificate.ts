import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { certificateDetails, namesOf, normalisedAddress, pemBlocks, type CertificateDetails } from './certificateDetails.js';

/** A certificate (PEM, with any intermediate certificates after it) and its private key (PEM). */
export interface CertificatePair {
  certificatePem: string;
  keyPem: string;
}

/** A pair that passed {@link checkCertificate}, with what is shown of it. */
export interface CheckedCertificate {
  pair: CertificatePair;
  certificate: X509Certificate;
  key: KeyObject;
  details: CertificateDetails;
}

/** Why a certificate is not served; the admin API answers it as `details.problem`. */
export type CertificateProblem = 'certificate_unreadable' | 'key_unreadable' | 'key_mismatch' | 'not_yet_valid' | 'expired' | 'names_not_covered';

/** A certificate that may not be served; {@link message} says why in words an admin can act on. */
export class CertificateRejected extends Error {
  constructor(readonly problem: CertificateProblem, message: string, readonly missingNames: readonly string[] = []) {
    super(message);
    this.name = 'CertificateRejected';
  }
}

/**
 * Checks a site's certificate before it is served: both parts are PEM, the key is the
 * certificate's, it is valid at `now`, and it covers each of `requiredNames` (host names,
 * wildcards as clients match them, or IP addresses). Throws {@link CertificateRejected}.
 */
export function checkCertificate(pair: CertificatePair, options: { requiredNames: readonly string[]; now: number }): CheckedCertificate {
  const [leafPem, ...chainPems] = pemBlocks(pair.certificatePem);
  if (leafPem === undefined) throw new CertificateRejected('certificate_unreadable', 'The certificate is not PEM (no "-----BEGIN CERTIFICATE-----" block)');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(leafPem);
    for (const pem of chainPems) new X509Certificate(pem);
  } catch {
    throw new CertificateRejected('certificate_unreadable', 'A certificate in the PEM text cannot be read (damaged or not X.509)');
  }
  const key = readPrivateKey(pair.keyPem);
  if (!certificate.checkPrivateKey(key)) throw new CertificateRejected('key_mismatch', 'The private key does not belong to the certificate');
  const notBefore = Date.parse(certificate.validFrom);
  const notAfter = Date.parse(certificate.validTo);
  if (options.now < notBefore) throw new CertificateRejected('not_yet_valid', `The certificate is not valid before ${new Date(notBefore).toISOString()}`);
  if (options.now >= notAfter) throw new CertificateRejected('expired', `The certificate expired on ${new Date(notAfter).toISOString()}`);
  const missingNames = options.requiredNames.filter((name) => !covers(certificate, name));
  if (missingNames.length > 0) {
    throw new CertificateRejected('names_not_covered', `The certificate is not for ${missingNames.join(', ')} (its names: ${certificateDetails(certificate).names.join(', ') || 'none'})`, missingNames);
  }
  return { pair, certificate, key, details: certificateDetails(certificate) };
}

/** The private key of a PEM text; an encrypted one is refused (the service has no passphrase to open it with). */
export function readPrivateKey(keyPem: string): KeyObject {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(keyPem)) {
    throw new CertificateRejected('key_unreadable', 'The private key is encrypted: give it without a passphrase (`openssl pkey -in key.pem -out plain.pem`)');
  }
  try {
    return createPrivateKey(keyPem);
  } catch {
    throw new CertificateRejected('key_unreadable', 'The private key is not a PEM private key');
  }
}

/** Whether a client asking for `name` accepts `certificate`; a wildcard name is covered by the same wildcard only. */
function covers(certificate: X509Certificate, name: string): boolean {
  if (isIP(name)) return namesOf(certificate).ip.includes(normalisedAddress(name));
  if (name.includes('*')) return namesOf(certificate).dns.some((dns) => dns.toLowerCase() === name.toLowerCase());
  return certificate.checkHost(name) !== undefined;
}
