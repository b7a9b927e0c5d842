import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';
import { selfSignedSiteCertificate } from '../helpers/testCertificates.js';
import { completeSetup, errorCodeOf } from './adminClient.js';

interface TlsOverview {
  mode: 'auto' | 'off';
  certificate: null | {
    source: string; origin: string; subject: string; names: string[]; notAfter: string; expiresInDays: number; renewsItself: boolean;
    warning: string | null; fingerprintSha256: string; publicKeyPinSha256: string; pin: string;
  };
}

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

/** The upload's body: a certificate for this machine's host name (what a site's certificate must cover without TLS_HOSTNAMES) and its key. */
async function siteCertificate(names = [hostname()]): Promise<{ certificate: string; privateKey: string }> {
  const { certificatePem, keyPem } = await selfSignedSiteCertificate({ names });
  return { certificate: certificatePem, privateKey: keyPem };
}

describe('GET /admin/api/tls and the site\'s certificate on the admin page', () => {
  it('shows the box\'s own certificate with both fingerprints and the pin, and its QR code; refuses a bad upload with the reason; serves a good one; removes it', async () => {
    testApp = await startTestApp();
    const browser = await completeSetup(testApp);
    const overview = (await (await browser.fetch('/admin/api/tls')).json()) as TlsOverview;
    expect(overview.mode).toBe('auto');
    const generated = overview.certificate!;
    expect(generated).toMatchObject({ source: 'generated', origin: 'generated', renewsItself: true, warning: null });
    expect(generated.names).toEqual(expect.arrayContaining([hostname().toLowerCase(), 'localhost']));
    expect(generated.expiresInDays).toBeGreaterThan(390);
    expect(generated.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(generated.pin).toBe(`sha256/${generated.publicKeyPinSha256}`);
    expect(Buffer.from(generated.publicKeyPinSha256, 'base64')).toHaveLength(32);

    const qr = await browser.fetch('/admin/api/tls/pin.svg');
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await qr.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

    const site = await siteCertificate();
    const mismatched = await browser.fetch('/admin/api/tls/certificate', { method: 'POST', body: { certificate: site.certificate, privateKey: (await siteCertificate()).privateKey } });
    expect(mismatched.status).toBe(422);
    const refusal = (await mismatched.json()) as { error: { code: string; message: string; details: { problem: string } } };
    expect(refusal.error).toMatchObject({ code: 'admin_tls_certificate_rejected', message: 'The private key does not belong to the certificate', details: { problem: 'key_mismatch' } });
    const otherName = await browser.fetch('/admin/api/tls/certificate', { method: 'POST', body: await siteCertificate(['someone-else.example']) });
    expect(otherName.status).toBe(422);
    expect(((await otherName.json()) as { error: { details: { missingNames: string[] } } }).error.details.missingNames).toEqual([hostname()]);
    const garbage = await browser.fetch('/admin/api/tls/certificate', { method: 'POST', body: { certificate: site.certificate } });
    expect(garbage.status).toBe(400);
    expect(((await (await browser.fetch('/admin/api/tls')).json()) as TlsOverview).certificate!.fingerprintSha256).toBe(generated.fingerprintSha256);

    const uploaded = await browser.fetch('/admin/api/tls/certificate', { method: 'POST', body: site });
    expect(uploaded.status).toBe(200);
    const served = ((await uploaded.json()) as TlsOverview).certificate!;
    expect(served).toMatchObject({ source: 'site', origin: 'upload', renewsItself: false });
    expect(served.fingerprintSha256).not.toBe(generated.fingerprintSha256);
    expect(((await (await browser.fetch('/admin/api/tls')).json()) as TlsOverview).certificate!.fingerprintSha256).toBe(served.fingerprintSha256);
    // The private key is never shown again, nor written to the log.
    expect(JSON.stringify(testApp.logLines)).not.toContain(site.privateKey.split('\n')[1]);

    const removed = await browser.fetch('/admin/api/tls/certificate', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as TlsOverview).certificate).toMatchObject({ source: 'generated', publicKeyPinSha256: generated.publicKeyPinSha256 });

    const actions = ((await (await browser.fetch('/admin/api/audit?limit=10')).json()) as { entries: { action: string }[] }).entries.map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['tls_certificate_upload', 'tls_certificate_remove']));
  });

  it('needs the session, and the CSRF token to change the certificate', async () => {
    testApp = await startTestApp();
    const browser = await completeSetup(testApp);
    expect((await fetch(`${testApp.baseUrl}/admin/api/tls`)).status).toBe(401);
    expect((await fetch(`${testApp.baseUrl}/admin/api/tls/pin.svg`)).status).toBe(401);
    const withoutCsrf = await browser.fetch('/admin/api/tls/certificate', { method: 'POST', body: await siteCertificate(), headers: { 'x-csrf-token': 'wrong' } });
    expect(withoutCsrf.status).toBe(403);
  });

  it('with TLS=off: mode off, no certificate, nothing to upload', async () => {
    testApp = await startTestApp({ TLS: 'off' });
    const browser = await completeSetup(testApp);
    expect(await (await browser.fetch('/admin/api/tls')).json()).toEqual({ mode: 'off', certificate: null });
    const upload = await browser.fetch('/admin/api/tls/certificate', { method: 'POST', body: await siteCertificate() });
    expect(upload.status).toBe(404);
    expect(await errorCodeOf(upload)).toBe('feature_not_available');
    expect((await browser.fetch('/admin/api/tls/pin.svg')).status).toBe(404);
  });
});
