/**
 * Security headers on every answer (docs/server.md#security), decided by helmet:
 * - a strict Content-Security-Policy: our own origin only; the inline boot script of index.html
 *   (it paints the stored theme before the bundle loads) allowed by its SHA-256, read from the
 *   built file; inline styles allowed because Mantine injects <style> tags and style attributes;
 *   images also from https: (characters and locations carry image addresses the author typed);
 *   Stripe's hosts only when payments are configured;
 * - nosniff, Referrer-Policy, frame-ancestors 'none' / X-Frame-Options;
 * - HSTS only on answers that went out over TLS (directly or via a trusted proxy): over plain
 *   HTTP it means nothing, and a local server must stay reachable;
 * - `Cache-Control: no-store` on /api answers that did not choose their own caching.
 *
 * helmet's headers depend only on its options (no nonces here), so they are computed once at
 * start-up and copied onto each reply. @fastify/helmet rebuilt helmet's middleware — parsing every
 * CSP directive — on every request: ~5 µs of a 75 µs read (bench/JOURNAL.md, "`server-http` —
 * reads fixed, the write target restated, a write regression found at merge").
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../config/config.ts';

export const HSTS_VALUE = 'max-age=31536000';

/** `'sha256-…'` sources for the inline scripts of the built index.html (none when there is none). */
export function inlineScriptHashes(webDist: string | null): string[] {
  if (!webDist) return [];
  let html: string;
  try {
    html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    if (match[1]!.trim() === '') continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export function cspDirectives(config: Pick<AppConfig, 'stripe' | 'webDist'>): Record<string, string[]> {
  const stripe = config.stripe !== null;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inlineScriptHashes(config.webDist), ...(stripe ? ['https://js.stripe.com'] : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
    'frame-src': stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com', 'https://checkout.stripe.com'] : ["'none'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'", ...(stripe ? ['https://checkout.stripe.com'] : [])],
    'frame-ancestors': ["'none'"],
  };
}

export function helmetOptions(config: Pick<AppConfig, 'stripe' | 'webDist'>): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // Images from the author's own links must load in the page.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

/** The headers helmet's middleware sets for these options, collected from one dry run. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // helmet's middleware is synchronous: `next` has run by the time the call returns.
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

async function securityHeaders(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders(helmetOptions(app.deps.config));
  // onRequest, so that answers made early (401, 415, router errors) and hijacked streams
  // (events.ts copies reply.getHeaders()) carry them too.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    const url = request.url;
    if ((url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}

export default fp(securityHeaders, { name: 'chronicler-security-headers' });
