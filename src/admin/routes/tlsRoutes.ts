import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import QRCode from 'qrcode';
import { Type } from 'typebox';
import type { Services } from '../../createServices.js';
import { ApiError } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas/commonSchemas.js';
import { daysUntilExpiry, expiryWarning, SiteCertificateFromEnvironment, type CertificateInUse } from '../../infrastructure/tls/BoxCertificate.js';
import { CertificateRejected } from '../../infrastructure/tls/checkCertificate.js';
import { recordAdminAction } from '../audit/recordAdminAction.js';
import { TlsCertificateUploadSchema, TlsOverviewSchema } from '../schemas/tlsSchemas.js';

/**
 * The Certificate page: the certificate HTTPS serves and its public-key pin (also as a QR code,
 * for the mobile app), the site's own certificate uploaded, or the upload removed (back to the
 * box's own). With TLS=off there is no certificate: `certificate` is null and the rest 404.
 */
export const tlsRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const inUse = async (): Promise<CertificateInUse> => {
    if (services.config.TLS === 'off') throw new ApiError('feature_not_available', 'TLS=off: the box serves no HTTPS, so it has no certificate (TLS is terminated before it)');
    return services.tls.current();
  };

  app.get('/tls', {
    schema: { summary: 'The certificate HTTPS serves to new connections, with its fingerprints and the mobile app\'s pin', response: { 200: TlsOverviewSchema, ...errorResponses(401) } },
  }, async () => ({ mode: services.config.TLS, certificate: services.config.TLS === 'off' ? null : certificateView(await inUse(), services.clock()) }));

  app.get('/tls/pin.svg', {
    schema: { summary: 'A QR code (SVG) of the public-key pin, `sha256/<base64>`, for the mobile app to scan', produces: ['image/svg+xml'], response: { 200: Type.String({ description: 'The SVG document' }), ...errorResponses(401, 404) } },
  }, async (_request, reply) => {
    const svg = await QRCode.toString(pinOf(await inUse()), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return reply.type('image/svg+xml').header('cache-control', 'no-store').send(svg);
  });

  app.post('/tls/certificate', {
    schema: {
      summary: 'Serve the site\'s own certificate: checked (key matches, valid now, names cover the box), stored, and served to new connections at once',
      body: TlsCertificateUploadSchema,
      response: { 200: TlsOverviewSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
    },
  }, async (request) => {
    await inUse();
    const uploaded = await refusalsAnswered(() => services.tls.upload({ certificatePem: request.body.certificate, keyPem: request.body.privateKey }));
    await recordAdminAction(services, request, {
      actor: 'admin', action: 'tls_certificate_upload', target: 'tls_certificate',
      detail: { fingerprintSha256: uploaded.details.fingerprintSha256, names: uploaded.details.names.join(','), notAfter: uploaded.details.notAfter },
    });
    return { mode: services.config.TLS, certificate: certificateView(uploaded, services.clock()) };
  });

  app.delete('/tls/certificate', {
    schema: {
      summary: 'Remove the uploaded certificate: the box\'s own is served again (its key, and so its pin, unchanged)',
      response: { 200: TlsOverviewSchema, ...errorResponses(401, 403, 404, 409) },
    },
  }, async (request) => {
    await inUse();
    const generated = await refusalsAnswered(() => services.tls.removeUpload());
    await recordAdminAction(services, request, { actor: 'admin', action: 'tls_certificate_remove', target: 'tls_certificate', detail: { fingerprintSha256: generated.details.fingerprintSha256 } });
    return { mode: services.config.TLS, certificate: certificateView(generated, services.clock()) };
  });
};

/** The certificate's refusals as the API's errors. */
async function refusalsAnswered(change: () => Promise<CertificateInUse>): Promise<CertificateInUse> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof CertificateRejected) {
      throw new ApiError('admin_tls_certificate_rejected', error.message, { problem: error.problem, ...(error.missingNames.length > 0 ? { missingNames: error.missingNames } : {}) });
    }
    if (error instanceof SiteCertificateFromEnvironment) throw new ApiError('admin_tls_set_by_environment', error.message);
    throw error;
  }
}

function certificateView(certificate: CertificateInUse, now: number) {
  return {
    source: certificate.source,
    origin: certificate.origin,
    ...certificate.details,
    expiresInDays: daysUntilExpiry(certificate, now),
    renewsItself: certificate.source === 'generated',
    warning: expiryWarning(certificate, now),
    pin: pinOf(certificate),
  };
}

function pinOf(certificate: CertificateInUse): string {
  return `sha256/${certificate.details.publicKeyPinSha256}`;
}
