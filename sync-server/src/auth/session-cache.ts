/**
 * Resolved sessions kept in memory for a few seconds (docs/server.md#sessions-and-accounts): a
 * signed-in request then needs no SQL to know its user. Safe where every end of a session reaches
 * this memory at once:
 * - SQLite with one server process (the storage's exclusiveProcess capability, db/database.ts);
 * - PostgreSQL while this instance hears the others on the announcement channel
 *   (db/postgres/notify.ts): an instance that ends a session or sessions of an author tells every
 *   instance to forget that author's cached sessions; while the listener is down nothing is kept,
 *   and when it comes back everything is forgotten (announcements may have been missed).
 * Changes of other processes that do not announce (the operator command) are seen once an entry is
 * SESSION_CACHE_TTL_MS old: that bounds how stale a user's name or plan in `request.user` can be.
 * Access and plan gates never read `request.user.plan`; they read the rows.
 */
import crypto from 'node:crypto';
import type { InstanceChannel } from '../db/database.ts';
import type { AuthUser } from '../http/caller.ts';

/** Sessions resolved from memory stay valid at most this long after they were read from the database. */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Sessions kept in memory at most; beyond that the least recently resolved go first. */
export const SESSION_CACHE_SIZE = 10_000;
/** Authors named per announcement (ids of 36 characters: far below the channel's 8,000 bytes). */
const USERS_PER_ANNOUNCEMENT = 100;

export interface CachedSession {
  user: AuthUser;
  expiresAt: number;
  lastSeenAt: number;
  /** performance.now() when read from the database (real time: tests move the auth clock). */
  readAt: number;
}

/** What crosses the channel (`t: 's'` tells it from the commit bridge's and presence's messages). */
interface ForgetAnnouncement {
  o: string;
  t: 's';
  u: string[];
}

/**
 * Resolved sessions of one database, by cookie token (a hit then costs no HMAC; the token is as
 * unguessable as its hash, and lives only in this process's memory, like the requests carrying
 * it). Only hits are kept, so unknown tokens cannot fill the cache.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  /** Bumped by every invalidation: a lookup that began before one must not store what it read. */
  generation = 0;
  private channel: InstanceChannel | null = null;
  private instanceId = '';
  private warn: (message: string) => void = () => undefined;

  /** `exclusive`: this process is the database's only server (nothing else ends its sessions). */
  constructor(private readonly exclusive: boolean) {}

  private get enabled(): boolean {
    return this.exclusive || (this.channel?.listening ?? false);
  }

  get(token: string, now: number, touchIntervalMs: number): CachedSession | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    // Expiry and the hourly slide are decided by the database path, which writes them.
    if (performance.now() - entry.readAt >= SESSION_CACHE_TTL_MS || entry.expiresAt <= now || now - entry.lastSeenAt >= touchIntervalMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, entry: CachedSession, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    this.entries.delete(token);
    if (this.entries.size >= SESSION_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, entry);
  }

  /** A session ended here: forgotten here, and its author's cached sessions on the other instances. */
  forget(token: string, userId: string | null): void {
    this.generation += 1;
    this.entries.delete(token);
    if (userId !== null) this.announce([userId]);
  }

  /** Sessions of the author ended here: forgotten on every instance. */
  forgetUserEverywhere(userId: string): void {
    this.forgetUser(userId);
    this.announce([userId]);
  }

  /** The author's row changed (a commit every instance hears by itself): forgotten here only. */
  forgetUser(userId: string): void {
    this.generation += 1;
    for (const [token, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(token);
  }

  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** PostgreSQL: keeps sessions while the channel listens, and hears the other instances' ends. */
  shareThrough(channel: InstanceChannel, warn: (message: string) => void): void {
    this.instanceId = crypto.randomUUID();
    this.warn = warn;
    channel.onMessage((payload) => {
      let message: ForgetAnnouncement;
      try {
        message = JSON.parse(payload) as ForgetAnnouncement;
      } catch {
        return;
      }
      if (message.t !== 's' || message.o === this.instanceId || !Array.isArray(message.u)) return;
      for (const userId of message.u) if (typeof userId === 'string') this.forgetUser(userId);
    });
    channel.onReconnect(() => this.forgetAll());
    this.forgetAll();
    this.channel = channel;
  }

  private announce(userIds: string[]): void {
    const channel = this.channel;
    if (!channel) return;
    for (let i = 0; i < userIds.length; i += USERS_PER_ANNOUNCEMENT) {
      const message: ForgetAnnouncement = { o: this.instanceId, t: 's', u: userIds.slice(i, i + USERS_PER_ANNOUNCEMENT) };
      // An announcement that cannot be sent: the others see the end within SESSION_CACHE_TTL_MS.
      channel.send(JSON.stringify(message)).catch(() => this.warn('a session end could not be announced to the other instances (database unavailable)'));
    }
  }
}
