/**
 * Serves the built web app (the PWA) next to the API. Hashed files under /assets are cached for a
 * year; everything else (index.html, sw.js, the manifest) revalidates so an update is seen at once.
 * The build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text file
 * (web/scripts/precompress.mjs): they are sent to browsers that accept them, with
 * `Content-Encoding` and `Vary: Accept-Encoding`, and no CPU is spent compressing per request.
 * Source maps (`*.map`) are served only with SOURCE_MAPS=true.
 * Page loads of client-side routes fall back to index.html; unknown /api paths stay JSON 404s.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export interface WebPluginOptions {
  /** Folder of the built web app (contains index.html). */
  root: string;
  /** Serve `*.map` files (SOURCE_MAPS=true); otherwise they answer 404 like a missing file. */
  serveSourceMaps?: boolean;
}

const LONG_CACHE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function wantsHtml(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/html');
}

function isApi(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

export default async function webPlugin(app: FastifyInstance, opts: WebPluginOptions): Promise<void> {
  const root = path.resolve(opts.root);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'web app not built (no index.html there): serving the API only');
    return;
  }
  const assetsDir = path.join(root, 'assets') + path.sep;

  await app.register(fastifyStatic, {
    root,
    // Routing is ours (below): a file when there is one, else the app shell for page loads.
    serve: false,
    index: false,
    dotfiles: 'ignore',
    cacheControl: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      reply.header('cache-control', filePath.startsWith(assetsDir) ? LONG_CACHE : REVALIDATE);
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    async handler(request, reply) {
      const pathname = request.url.split('?')[0]!;
      if (isApi(pathname)) return reply.callNotFound();
      const file = existingFile(root, pathname);
      // Judged on the decoded file name, so `%2emap` is no way around it.
      if (file?.endsWith('.map') && opts.serveSourceMaps !== true) return reply.callNotFound();
      if (file) return reply.sendFile(file);
      // A missing hashed file is a stale reference: HTML in its place would be cached as code.
      if (pathname.startsWith('/assets/')) return reply.callNotFound();
      if (pathname === '/' || wantsHtml(request)) return reply.sendFile('index.html');
      return reply.callNotFound();
    },
  });
}

/** The path of a regular file under `root` that `pathname` names, or null. */
function existingFile(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const absolute = path.join(root, decoded);
  if (!absolute.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(absolute).isFile() ? path.relative(root, absolute) : null;
  } catch {
    return null;
  }
}
