import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { staticPages } from '../../src/admin/routes/staticPages.js';
import { handleError } from '../../src/http/errorHandler.js';
import { startTestApp, type TestApp } from '../helpers/startTestApp.js';

/** GET with the path sent exactly as given (fetch would resolve `..` and `%2e%2e` first). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    }).on('error', reject).end();
  });
}

describe('admin pages from a folder', () => {
  let root: string;
  let outside: string;
  let app: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'callscope-ui-'));
    outside = mkdtempSync(join(tmpdir(), 'callscope-outside-'));
    for (const page of ['index', 'setup', 'login', 'status', 'models', 'settings']) writeFileSync(join(root, `${page}.html`), `<title>${page}</title>`);
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets', 'admin.js'), 'export {};');
    writeFileSync(join(root, 'admin.css'), 'body {}');
    writeFileSync(join(root, '.hidden.js'), 'secret');
    writeFileSync(join(root, 'notes.txt'), 'not served');
    writeFileSync(join(outside, 'secret.js'), 'outside');
    symlinkSync(join(outside, 'secret.js'), join(root, 'linked.js'));
    app = Fastify();
    app.setErrorHandler(handleError);
    await app.register(staticPages, { uiRoot: root, prefix: '/admin' });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test.each([
    ['/admin', 'index'], ['/admin/', 'index'], ['/admin/setup', 'setup'], ['/admin/login', 'login'],
    ['/admin/status', 'status'], ['/admin/models', 'models'], ['/admin/settings', 'settings'], ['/admin/setup?token=abc', 'setup'],
  ])('%s serves %s.html, never cached', async (path, page) => {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe(`<title>${page}</title>`);
  });

  test('assets get their content type', async () => {
    const script = await fetch(`${baseUrl}/admin/assets/admin.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('export {};');
    expect((await fetch(`${baseUrl}/admin/admin.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test.each([
    '/admin/../package.json', '/admin/%2e%2e/package.json', '/admin/%2E%2E/%2E%2E/etc/passwd', '/admin/..%2fpackage.json',
    '/admin/assets/../../package.json', '/admin/..%5cpackage.json', '/admin/.hidden.js', '/admin/notes.txt', '/admin/linked.js',
    '/admin/missing.html', '/admin/assets', '/admin/index.html%00.js', '/admin//etc/passwd',
  ])('%s is refused', async (path) => {
    const response = await rawGet(baseUrl, path);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('callscope');
    expect(response.body).not.toContain('outside');
    expect(response.body).not.toContain('root:');
  });
});

describe('pages framed by the shared layout', () => {
  let root: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'callscope-ui-layout-'));
    mkdirSync(join(root, 'layout'));
    writeFileSync(join(root, 'layout', 'page.html'), '<title>{{title}}</title><script src="{{script}}"></script><body>{{body}}</body>');
    writeFileSync(join(root, 'layout', 'topbar.html'), '<nav>sections</nav>');
    writeFileSync(join(root, 'status.html'), '<!-- layout {"title": "Status · admin", "topbar": true} -->\n<main>costs $& and $1</main>');
    writeFileSync(join(root, 'login.html'), '<!-- layout {"title": "Sign in"} -->\n<main>form</main>');
    app = Fastify();
    app.setErrorHandler(handleError);
    await app.register(staticPages, { uiRoot: root, prefix: '/admin' });
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a page with the layout directive gets the head with its title and script, and the top bar when it asks for it', async () => {
    expect((await app.inject('/admin/status')).body).toBe('<title>Status · admin</title><script src="/admin/status.js"></script><body><nav>sections</nav><main>costs $& and $1</main></body>');
    expect((await app.inject('/admin/login')).body).toBe('<title>Sign in</title><script src="/admin/login.js"></script><body><main>form</main></body>');
  });

  test('the layout\'s parts are not served on their own', async () => {
    for (const path of ['/admin/layout/page.html', '/admin/layout/topbar.html']) expect((await app.inject(path)).statusCode, path).toBe(404);
  });
});

describe('the admin area in the app', () => {
  let testApp: TestApp;
  beforeAll(async () => { testApp = await startTestApp(); });
  afterAll(async () => { await testApp.close(); });

  test.each(['/admin/', '/admin/login', '/admin/api/setup', '/admin/api/status', '/admin/nothing-here', '/admin/api/nothing'])('%s carries the security headers', async (path) => {
    const response = await fetch(`${testApp.baseUrl}${path}`);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'; frame-ancestors 'none'; form-action 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('an unknown method under /admin is a 404 with the headers too', async () => {
    const response = await fetch(`${testApp.baseUrl}/admin/api/status`, { method: 'PUT' });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test.each(['/admin', '/admin/'])('%s serves the installed index page from src/admin/ui', async (path) => {
    const response = await fetch(`${testApp.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  test.each(['/admin/../package.json', '/admin/%2e%2e/package.json', '/admin/..%2fpackage.json'])('%s does not leave the pages folder', async (path) => {
    const response = await rawGet(testApp.baseUrl, path);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('"name": "callscope"');
  });
});
