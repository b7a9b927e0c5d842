import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { ApiError } from '../../http/errors.js';

/** Content types of the files the admin pages are made of; other files are not served. */
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Page routes without the `.html`; the empty path is the index. */
const pages = new Set(['', 'setup', 'login', 'status', 'models', 'settings', 'webhooks', 'certificate', 'voice-profiles', 'retention', 'audit']);

/**
 * GET (and HEAD) of the admin pages and their assets from `uiRoot`: `/admin` and `/admin/` give
 * `index.html`, `/admin/<page>` gives `<page>.html`, anything else a file by its path. Paths with
 * `..`, hidden or empty segments, backslashes or NUL are refused, and a file must really lie
 * inside `uiRoot` (no symlink out). Pages are framed by the shared layout ({@link framedPage}).
 * HTML is never cached.
 */
export const staticPages: FastifyPluginAsync<{ uiRoot: string }> = async (app, { uiRoot }) => {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const relative = (request.params as { '*'?: string })['*'] ?? '';
    const page = pages.has(relative) ? relative || 'index' : undefined;
    const path = page ? `${page}.html` : relative;
    // The layout's parts are only served inside the pages they frame.
    const file = path.startsWith(`${layoutFolder}/`) ? undefined : await resolveFile(uiRoot, path);
    if (!file) throw new ApiError('route_not_found', `No admin page ${request.url.split('?')[0]}`);
    const type = contentTypes[extname(path)]!;
    reply.header('cache-control', type.startsWith('text/html') ? 'no-store' : 'no-cache');
    const content = await readFile(file);
    return reply.type(type).send(page ? await framedPage(uiRoot, page, content.toString('utf8')) : content);
  };
  app.get('/', serve);
  app.get('/*', serve);
};

/** Folder under the pages' root holding the layout the pages share. */
const layoutFolder = 'layout';
/** First line of a page file that takes the shared layout: `<!-- layout {"title": "…", "topbar": true} -->`. */
const layoutDirective = /^<!-- layout (\{.*\}) -->\n/;

/**
 * A page as the browser gets it. A page file that starts with the layout directive holds only
 * its own content; it is framed by `layout/page.html` (head with its title and its script
 * `/admin/<page>.js`, skip link) and, for the signed-in sections, `layout/topbar.html`
 * (navigation, account buttons), so these are written once. Other files are served as they are.
 */
async function framedPage(uiRoot: string, page: string, text: string): Promise<string> {
  const directive = layoutDirective.exec(text);
  if (!directive) return text;
  const { title, topbar } = JSON.parse(directive[1]!) as { title: string; topbar?: boolean };
  const [frame, bar] = await Promise.all([
    readFile(join(uiRoot, layoutFolder, 'page.html'), 'utf8'),
    topbar ? readFile(join(uiRoot, layoutFolder, 'topbar.html'), 'utf8') : '',
  ]);
  const values: Record<string, string> = { title, script: `/admin/${page}.js`, body: bar + text.slice(directive[0].length) };
  // A function replacement: `$` in a page's text is not a replacement pattern.
  return frame.replace(/\{\{(title|script|body)\}\}/g, (_placeholder, name: string) => values[name]!);
}

async function resolveFile(root: string, relative: string): Promise<string | undefined> {
  const segments = relative.split('/');
  if (/[\\\0]/.test(relative) || segments.some((segment) => segment === '' || segment.startsWith('.'))) return undefined;
  if (!contentTypes[extname(relative)]) return undefined;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(join(root, ...segments))]);
    if (!realFile.startsWith(realRoot + sep) || !(await stat(realFile)).isFile()) return undefined;
    return realFile;
  } catch {
    return undefined; // no such file
  }
}
