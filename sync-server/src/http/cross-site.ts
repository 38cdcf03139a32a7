/**
 * Cross-site request forgery and non-JSON bodies (docs/server.md#security). The session cookie is
 * SameSite=Lax, which still lets a sibling site (same-site) through and leaves old browsers bare,
 * so every state-changing request is also judged here, before its body is read:
 * - `Sec-Fetch-Site` (every current browser sends it): only `same-origin` and `none` (typed by
 *   the user) pass;
 * - without it, an `Origin` header must name this server's own host;
 * - with neither (curl, scripts, the server's own batch entries) the request is not from a page.
 * A body must be JSON: `text/plain`, forms and the like answer 415, since those are what a foreign
 * page can send without a CORS preflight. A route may take other types besides (`config.bodyTypes`:
 * the picture upload's image types, none of them sendable cross-site without a preflight either).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Body content types the route takes besides JSON (it parses them itself). */
    bodyTypes?: readonly string[];
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ALLOWED_FETCH_SITES = new Set(['same-origin', 'none']);

export const CROSS_SITE_MESSAGE = 'This request came from another site and was refused';

function originIsOurs(origin: string, request: FastifyRequest): boolean {
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and garbage
  }
}

export function isCrossSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return !ALLOWED_FETCH_SITES.has(fetchSite);
  const origin = request.headers.origin;
  if (typeof origin === 'string') return !originIsOurs(origin, request);
  return false;
}

function hasNonJsonBody(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  if (type === undefined) return false;
  const essence = type.split(';', 1)[0]!.trim().toLowerCase();
  return essence !== 'application/json' && request.routeOptions.config.bodyTypes?.includes(essence) !== true;
}

/** Root onRequest hook: refuses cross-site writes (403) and non-JSON bodies (415). */
export function refuseCrossSiteAndNonJson(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (SAFE_METHODS.has(request.method)) return done();
  if (isCrossSite(request)) {
    void reply.status(403).send({ message: CROSS_SITE_MESSAGE, code: ERROR_CODES.forbidden });
    return;
  }
  if (hasNonJsonBody(request)) {
    void reply.status(415).send({ message: GENERIC_MESSAGES.unsupportedMediaType, code: ERROR_CODES.unsupportedMediaType });
    return;
  }
  done();
}
