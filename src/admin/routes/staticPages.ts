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
const pages = new Set(['', 'setup', 'login', 'status', 'models', 'settings']);

/**
 * GET (and HEAD) of the admin pages and their assets from `uiRoot`: `/admin` and `/admin/` give
 * `index.html`, `/admin/<page>` gives `<page>.html`, anything else a file by its path. Paths with
 * `..`, hidden or empty segments, backslashes or NUL are refused, and a file must really lie
 * inside `uiRoot` (no symlink out). HTML is never cached.
 */
export const staticPages: FastifyPluginAsync<{ uiRoot: string }> = async (app, { uiRoot }) => {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const relative = (request.params as { '*'?: string })['*'] ?? '';
    const path = pages.has(relative) ? `${relative || 'index'}.html` : relative;
    const file = await resolveFile(uiRoot, path);
    if (!file) throw new ApiError('route_not_found', `No admin page ${request.url.split('?')[0]}`);
    const type = contentTypes[extname(path)]!;
    reply.header('cache-control', type.startsWith('text/html') ? 'no-store' : 'no-cache');
    return reply.type(type).send(await readFile(file));
  };
  app.get('/', serve);
  app.get('/*', serve);
};

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
