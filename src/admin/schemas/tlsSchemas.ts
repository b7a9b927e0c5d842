import { Type } from 'typebox';
import { Nullable, Timestamp } from '../../http/schemas/commonSchemas.js';

export const TlsCertificateSchema = Type.Object({
  source: Type.Enum(['generated', 'site'], { description: '`generated`: made by the box itself; `site`: the site\'s own' }),
  origin: Type.Enum(['generated', 'environment', 'upload'], { description: 'Where it was read from: the box\'s own files, TLS_CERT_FILE and TLS_KEY_FILE, or an upload on this page' }),
  subject: Type.String({ description: 'Distinguished name on one line: `CN=callscope, O=Clinic`' }),
  issuer: Type.String(),
  names: Type.Array(Type.String(), { description: 'The DNS names and IP addresses it is for (subjectAltName)' }),
  notBefore: Timestamp,
  notAfter: Timestamp,
  expiresInDays: Type.Integer({ description: 'Whole days until `notAfter`; negative once it has passed' }),
  renewsItself: Type.Boolean({ description: 'A generated certificate is issued again with the same key 30 days before `notAfter`' }),
  warning: Nullable(Type.String({ description: 'Within 30 days of `notAfter` (or past it) and not renewing itself: what to do' })),
  fingerprintSha256: Type.String({ description: 'SHA-256 of the certificate, upper-case hex pairs joined by `:`' }),
  publicKeyPinSha256: Type.String({ description: 'SHA-256 of its public key (SubjectPublicKeyInfo), base64: what the mobile app pins; a renewal keeps it' }),
  pin: Type.String({ description: '`sha256/` + `publicKeyPinSha256`, as OkHttp and TrustKit write a pin: what the QR code (`GET /admin/api/tls/pin.svg`) holds' }),
});

export const TlsOverviewSchema = Type.Object({
  mode: Type.Enum(['auto', 'off'], { description: 'TLS: `auto` serves HTTPS; `off` plain HTTP only (TLS is terminated before the box)' }),
  /** The certificate served to new connections; null with TLS=off. */
  certificate: Nullable(TlsCertificateSchema),
});

export const TlsCertificateUploadSchema = Type.Object({
  certificate: Type.String({ minLength: 1, maxLength: 65_536, description: 'PEM: the certificate, then any intermediate certificates of its chain' }),
  privateKey: Type.String({ minLength: 1, maxLength: 16_384, description: 'PEM, unencrypted: the certificate\'s private key (kept in DATA_DIR/tls/, mode 0600; never shown again)' }),
}, { additionalProperties: false });
