import { createHash, X509Certificate } from 'node:crypto';
import { isIP, SocketAddress } from 'node:net';

/**
 * What the admin page and `GET /admin/api/tls` show of a certificate. The mobile app pins
 * {@link publicKeyPinSha256}: it survives a renewal that keeps the key, where the certificate's
 * own fingerprint does not.
 */
export interface CertificateDetails {
  /** The subject's distinguished name on one line: `CN=callscope, O=Clinic`. */
  subject: string;
  issuer: string;
  /** The DNS names and IP addresses of its subjectAltName, in its order. */
  names: string[];
  /** ISO 8601, UTC. */
  notBefore: string;
  notAfter: string;
  /** SHA-256 of the certificate (DER), upper-case hex pairs joined by `:`, as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprintSha256: string;
  /** SHA-256 of the public key (its SubjectPublicKeyInfo, DER), base64: HPKP's `pin-sha256`, OkHttp's `sha256/…` without the prefix. */
  publicKeyPinSha256: string;
}

/** The names a certificate is for, by kind (an IP address in a DNS entry is not an address to a client). */
export interface CertificateNames {
  dns: string[];
  ip: string[];
}

/** The PEM blocks of `label` in `text`, each whole (header to footer), in order. */
export function pemBlocks(text: string, label = 'CERTIFICATE'): string[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, 'g');
  return text.match(pattern) ?? [];
}

export function certificateDetails(certificate: X509Certificate): CertificateDetails {
  const names = namesOf(certificate);
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return {
    subject: certificate.subject.split('\n').join(', '),
    issuer: certificate.issuer.split('\n').join(', '),
    names: [...names.dns, ...names.ip],
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprintSha256: certificate.fingerprint256,
    publicKeyPinSha256: createHash('sha256').update(spki).digest('base64'),
  };
}

/**
 * The subjectAltName entries of `certificate`. Node.js writes them as
 * `DNS:localhost, IP Address:0:0:0:0:0:0:0:1`; IPv6 addresses come back in their short form (`::1`).
 */
export function namesOf(certificate: X509Certificate): CertificateNames {
  const names: CertificateNames = { dns: [], ip: [] };
  for (const entry of (certificate.subjectAltName ?? '').split(', ')) {
    if (entry.startsWith('DNS:')) names.dns.push(entry.slice(4));
    else if (entry.startsWith('IP Address:')) names.ip.push(normalisedAddress(entry.slice(11)));
  }
  return names;
}

/** `address` as Node.js names it after a connection: IPv6 compressed and lower-case. */
export function normalisedAddress(address: string): string {
  const family = isIP(address);
  return family === 6 ? new SocketAddress({ address, family: 'ipv6' }).address : address;
}
