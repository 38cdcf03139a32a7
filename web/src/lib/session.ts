/**
 * Who is signed in (spec 000 §4 "Session"), shared by every feature.
 *
 * - On start the app asks GET /api/user. 200 → signed in (and the user is remembered under
 *   `chronicler:last-user`); 401 → anonymous (the remembered user is forgotten).
 * - A first visit asks nothing: with no remembered user and no signed-in hint cookie (set by the
 *   server beside the session cookie) there is no session to find, and the spec's 401 would be
 *   logged by the browser as a console error. Anonymous at once.
 * - Offline start: when /api/user never reaches the server (network error, or a 5xx from a proxy
 *   with the server down), the remembered user is used, so an author who signed in earlier opens
 *   the installed app with no network and goes straight in (docs/web.md#opening-offline).
 * - Re-check: while running on the remembered user, the session is asked again — at once when the
 *   browser comes back online, and otherwise after a capped exponential backoff with jitter (1 s,
 *   2 s, 4 s … 60 s) — until the server answers: 200 refreshes the remembered user, 401 signs out
 *   (as any 401). Going offline stops the retries until the next `online`.
 * - Sign-out runs the registered guards (the sync engine warns "unsynced changes remain"), calls
 *   POST /api/logout (or /api/logout/everywhere), runs the registered cleanups (the sync engine clears Dexie), forgets the
 *   remembered user and reloads to "/".
 */
import { create } from 'zustand';
import { SIGNED_IN_HINT_COOKIE, backoffMs, hasSignedInHint, isTransientStatus, toPlanName, type User } from '@chronicler/schema';
import { AUTH_TOASTS } from '@/lib/copy/toast-core';
import { api, isApiError, isNetworkError } from './api';
import { CARETS_KEY } from './caretMemoryKey';
import { WRITING_ACTIVITY_KEY, forgetWritingActivity } from './writingActivityCache';
import { readLocalJson, removeLocal, writeLocal } from './storage';
import { toast } from './toast';

export type { User };
export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** 'server' once GET /api/user confirmed the user; 'cache' while running on the remembered user. */
  source: 'server' | 'cache' | null;
}

export const LAST_USER_KEY = 'chronicler:last-user';

export const useSession = create<SessionState>(() => ({ status: 'loading', user: null, source: null }));

/** Normalises a user from the server or from storage; null when it is not a user. */
function asUser(value: unknown): User | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if ((typeof v.id !== 'string' && typeof v.id !== 'number') || typeof v.username !== 'string') return null;
  return {
    id: String(v.id),
    username: v.username,
    displayName: typeof v.displayName === 'string' && v.displayName.trim() !== '' ? v.displayName : v.username,
    email: typeof v.email === 'string' ? v.email : null,
    plan: toPlanName(v.plan),
  };
}

export function readCachedUser(): User | null {
  return asUser(readLocalJson(LAST_USER_KEY));
}

function setSignedIn(user: User, source: 'server' | 'cache'): void {
  if (source === 'server') {
    writeLocal(LAST_USER_KEY, JSON.stringify(user));
    cancelSessionRecheck();
  }
  useSession.setState({ status: 'authenticated', user, source });
}

/** A session may exist: the author signed in here before, or the server set the hint cookie. */
function maybeSignedIn(): boolean {
  return readCachedUser() !== null || (typeof document !== 'undefined' && hasSignedInHint(document.cookie));
}

/** The server said there is no session: a hint left by an expired one is stale. */
function forgetSignedInHint(): void {
  if (typeof document !== 'undefined') document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

function setAnonymous(): void {
  cancelSessionRecheck();
  removeLocal(LAST_USER_KEY);
  forgetSignedInHint();
  useSession.setState({ status: 'anonymous', user: null, source: null });
}

/**
 * The server could not be reached or could not answer now — a transient failure by the status
 * contract (network, 408, 429, 5xx) — as opposed to answering "nobody is signed in".
 */
function isUnreachable(error: unknown): boolean {
  return isNetworkError(error) || (isApiError(error) && isTransientStatus(error.status));
}

let pending: Promise<void> | null = null;
/** Bumped by every sign-in, sign-out and expiry: an answer to a request sent before one is stale. */
let generation = 0;

/**
 * Settles the session before the first render when there is nobody to ask about (no remembered
 * user, no hint cookie): the first screen then renders once, as the visitor's, instead of a
 * spinner and again a task later (docs/web.md#first-load). Anyone else waits for loadSession().
 */
export function settleAnonymousSession(): void {
  if (pending === null && useSession.getState().status === 'loading' && !maybeSignedIn()) setAnonymous();
}

/** Asks the server who is signed in. Concurrent calls share one request. */
export function loadSession(): Promise<void> {
  if (pending === null && !maybeSignedIn()) {
    setAnonymous();
    return Promise.resolve();
  }
  pending ??= (async () => {
    const asked = generation;
    try {
      const user = asUser(await api.get<unknown>('/api/user', { on401: 'returnNull' }));
      if (generation !== asked) return;
      if (user) setSignedIn(user, 'server');
      else setAnonymous();
    } catch (error) {
      if (generation !== asked) return;
      const cached = isUnreachable(error) ? readCachedUser() : null;
      if (cached) {
        setSignedIn(cached, 'cache');
        scheduleRecheck();
      } else if (isUnreachable(error)) {
        cancelSessionRecheck();
        useSession.setState({ status: 'anonymous', user: null, source: null });
      } else setAnonymous();
    } finally {
      pending = null;
    }
  })();
  return pending;
}

// ---- re-checking a remembered user ---------------------------------------------------------

let recheckTimer: ReturnType<typeof setTimeout> | null = null;
let recheckAttempts = 0;

/** Stops re-checking (an answer came, the author signed in or out, or the browser went offline). */
export function cancelSessionRecheck(): void {
  if (recheckTimer !== null) clearTimeout(recheckTimer);
  recheckTimer = null;
  recheckAttempts = 0;
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** The server was not reached: ask again later, unless offline (the `online` event asks then). */
function scheduleRecheck(): void {
  if (recheckTimer !== null || isOffline()) return;
  recheckAttempts += 1;
  recheckTimer = setTimeout(() => {
    recheckTimer = null;
    if (useSession.getState().source === 'cache') void loadSession();
    else cancelSessionRecheck();
  }, backoffMs(recheckAttempts)); // the sync backoff: attempt n waits ½–1 × min(60 s, 1 s × 2^(n−1))
}

/** Running on the remembered user: asks the server now, and keeps asking until it answers. */
export function recheckSession(): Promise<void> {
  if (recheckTimer !== null) clearTimeout(recheckTimer);
  recheckTimer = null;
  recheckAttempts = 0;
  if (useSession.getState().source !== 'cache') return Promise.resolve();
  return loadSession();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void recheckSession());
  window.addEventListener('offline', () => {
    // No requests while offline; the `online` event starts again from the shortest wait.
    if (recheckTimer !== null) clearTimeout(recheckTimer);
    recheckTimer = null;
  });
}

export interface LoginInput {
  username: string;
  password: string;
}

export async function login(input: LoginInput): Promise<User> {
  const user = asUser(await api.post<unknown>('/api/login', input));
  if (!user) throw new Error('The server answered without a user');
  generation += 1;
  setSignedIn(user, 'server');
  return user;
}

export interface RegisterInput {
  username: string;
  password: string;
  displayName: string;
  /** Optional (docs/spec-differences.md); omitted when blank. */
  email?: string | undefined;
}

/** Creates the account; the server signs the new author in and answers with the user. */
export async function register(input: RegisterInput): Promise<User | null> {
  const email = input.email?.trim();
  const body = {
    username: input.username.trim(),
    password: input.password,
    displayName: input.displayName.trim(),
    ...(email ? { email } : {}),
  };
  const user = asUser(await api.post<unknown>('/api/register', body));
  if (user) {
    generation += 1;
    setSignedIn(user, 'server');
  }
  return user;
}

/**
 * The signed-in author's record as it synced (plan, name, email): the session's user and the
 * remembered user follow it, so the plan label and every gate and limit update without a reload
 * (lib/currentUser.ts binds it). Ignored for anyone but the signed-in author.
 */
export function followSyncedUser(record: User): void {
  const { user, source } = useSession.getState();
  if (!user || user.id !== record.id) return;
  const next: User = { id: record.id, username: record.username, displayName: record.displayName, email: record.email, plan: toPlanName(record.plan) };
  if (next.username === user.username && next.displayName === user.displayName && next.email === user.email && next.plan === user.plan) return;
  writeLocal(LAST_USER_KEY, JSON.stringify(next));
  useSession.setState({ user: next, source });
}

/** The signed-in author, live: follows their synced record (plan, name) while the app runs. */
export function useCurrentUser(): User | null {
  return useSession((s) => s.user);
}

/**
 * Another part of the app learnt that the session is gone (a 401 from the server): ask the author
 * to sign in again. Local data is kept (only sign-out clears it).
 */
export function sessionExpired(): void {
  generation += 1;
  setAnonymous();
}

// ---- sign-out ------------------------------------------------------------------------------

/**
 * A guard may stop the sign-out: return false (or a promise of false) to cancel. The sync engine
 * registers one that warns "unsynced changes remain" and lets the author decide.
 */
export type SignOutGuard = () => boolean | Promise<boolean>;
/** Runs after the server ended the session, before the reload: clear local data here (Dexie). */
export type SignOutCleanup = () => void | Promise<void>;

const guards = new Set<SignOutGuard>();
const cleanups = new Set<SignOutCleanup>();

export function registerSignOutGuard(guard: SignOutGuard): () => void {
  guards.add(guard);
  return () => {
    guards.delete(guard);
  };
}

export function registerSignOutCleanup(cleanup: SignOutCleanup): () => void {
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}

/** Where the page goes after sign-out; replaceable so tests can observe it without navigating. */
export const signOutNavigation = {
  reloadTo: (path: string) => window.location.assign(path),
};

export type SignOutResult = 'signed-out' | 'cancelled' | 'failed';

let signingOut = false;

export interface SignOutOptions {
  /** End every session of the author, on every device (POST /api/logout/everywhere). */
  everywhere?: boolean;
}

export async function signOut(options: SignOutOptions = {}): Promise<SignOutResult> {
  if (signingOut) return 'cancelled';
  signingOut = true;
  try {
    for (const guard of guards) {
      if (!(await guard())) return 'cancelled';
    }
    try {
      await api.post(options.everywhere ? '/api/logout/everywhere' : '/api/logout');
    } catch {
      toast.show(AUTH_TOASTS.logoutFailed);
      return 'failed';
    }
    for (const cleanup of cleanups) {
      try {
        await cleanup();
      } catch (error) {
        console.error('Sign-out cleanup failed', error);
      }
    }
    generation += 1;
    cancelSessionRecheck();
    removeLocal(LAST_USER_KEY);
    removeLocal(CARETS_KEY);
    removeLocal(WRITING_ACTIVITY_KEY);
    forgetWritingActivity();
    useSession.setState({ status: 'anonymous', user: null, source: null });
    toast.afterReload(AUTH_TOASTS.loggedOut);
    signOutNavigation.reloadTo('/');
    return 'signed-out';
  } finally {
    signingOut = false;
  }
}
