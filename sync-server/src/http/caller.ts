/**
 * Who a request comes from: the session cookie's token, and the user the auth plugin resolved it
 * to (auth/plugin.ts sets `request.user` before any route runs). Here, below every domain, so
 * that any route — the sync protocol's included — can ask for the signed-in user without
 * importing auth/, which issues, resolves and ends the sessions (auth/session.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { PlanName } from '@chronicler/schema';
import { unauthenticated } from './errors.ts';

export interface AuthUser {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  plan: PlanName;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, resolved from the session cookie by the auth plugin; null when anonymous. */
    user: AuthUser | null;
  }
}

export const SESSION_COOKIE = 'chronicler_session';

/** The signed-in user, or the 401 every protected route answers. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

export function sessionTokenOf(request: FastifyRequest): string | null {
  const token = request.cookies[SESSION_COOKIE];
  // Our tokens are 43 base64url characters; anything else cannot be a session.
  return token && token.length <= 128 ? token : null;
}
