/**
 * The author's sessions as GET /api/user/sessions answers them (`{ sessions }`, most recently used
 * first): the server's sync-server/src/auth/session.ts `listSessions`, the web app's account screen.
 */
export interface AccountSession {
  /** A public id (not the token), for DELETE /api/user/sessions/:id. */
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** The browser's User-Agent at sign-in, when it sent one. */
  userAgent: string | null;
  /** The session this request came with (this device). */
  current: boolean;
}
