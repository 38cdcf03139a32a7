/**
 * In-process fan-out of commits to SSE listeners: after each committed write, the streams of the
 * authors who can see a touched series get a poke with the new seq
 * (docs/sync-protocol.md#live-channel), and with the rows it wrote when they can be applied without
 * the feed (live-rows.ts): read once per commit, the same bytes for every member. Several server
 * instances on PostgreSQL hear one another's commits and named events through LISTEN/NOTIFY
 * (instance-bridge.ts), which publishes them here as `remote` notices.
 *
 * Fan-out is by audience, not by stream: one query per commit names the authors who can see the
 * touched series (`setAudience`), and only their streams are touched. A write of one author
 * costs the others' streams nothing (200 streams of one author used to make every write re-read
 * 200 scopes). Notices are handled one at a time, in commit order.
 *
 * The hub is also where a commit's effects in this process are registered: `subscribe` listeners
 * hear every notice at once, before any stream is poked — the foreign-commit watch
 * (foreign-commits.ts), and auth, which forgets the cached sessions of authors whose record a
 * commit changed (auth/plugin.ts), so the sync protocol never imports auth/.
 */
import type { CommitRows } from './live-rows.ts';

export interface CommitNotice {
  seq: number;
  seriesIds: ReadonlySet<string>;
  /** Authors whose own rows (user-scoped kinds) the commit wrote: they hear it, and nobody else for them. */
  userIds?: ReadonlySet<string>;
  /** The author whose request made the commit (null: the server's own write): their app pulls after the answer anyway. */
  writerId?: string | null;
  /** Authors whose own record (plan, name, settings) the commit changed, a subset of `userIds` (WriteContext.touchUser 'record'). */
  records?: ReadonlySet<string>;
  /** Published by another instance (instance-bridge.ts): announced there already, not again. */
  remote?: boolean;
}
type Listener = (notice: CommitNotice) => void;
/** What a stream hears of a commit: the notice, and the commit's rows when this author may take them from the poke. */
type StreamListener = (notice: CommitNotice, rows: CommitRows | null) => void;
/** A named event for an author's open streams that is not a commit (presence, invites: packages/schema LIVE_EVENTS). */
export interface LiveMessage {
  event: string;
  data: unknown;
}
type MessageListener = (message: LiveMessage) => void;
interface AuthorStream {
  commit: StreamListener;
  message: MessageListener | null;
}
/** The authors who should hear of a commit (owners and members of its series, owners of its user-scoped rows). */
export type Audience = (notice: CommitNotice) => Promise<Iterable<string>>;
/** The rows a commit wrote that its poke may carry, or null (live-rows.ts). */
export type RowsOfCommit = (notice: CommitNotice) => Promise<CommitRows | null>;

export class ChangeHub {
  /** Hear every commit, at once (a commit's effects in this process, tests, metrics). */
  private readonly listeners = new Set<Listener>();
  /** Hear the commits of series the author can see (SSE streams). */
  private readonly byAuthor = new Map<string, Set<AuthorStream>>();
  /** Told when an author's last stream closes (their presence ends with it). */
  private readonly goneListeners = new Set<(userId: string) => void>();
  /** Hear every named event told in this process (instance-bridge.ts sends them on). */
  private readonly tellListeners = new Set<(userIds: readonly string[], message: LiveMessage) => void>();
  private audience: Audience | null = null;
  private rowsOf: RowsOfCommit | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readerCount = 0;

  /**
   * `listener` hears every commit published, synchronously inside `publish` (before any stream is
   * poked): register a commit's effects here. Answers the unsubscribe.
   */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `listener` hears the commits `userId` can see (once an audience is set); `onMessage`, what is told to `userId`. */
  subscribeAuthor(userId: string, listener: StreamListener, onMessage: MessageListener | null = null): () => void {
    let set = this.byAuthor.get(userId);
    if (!set) this.byAuthor.set(userId, (set = new Set()));
    const stream: AuthorStream = { commit: listener, message: onMessage };
    set.add(stream);
    this.readerCount += 1;
    return () => {
      if (!set.delete(stream)) return;
      this.readerCount -= 1;
      if (set.size === 0 && this.byAuthor.get(userId) === set) {
        this.byAuthor.delete(userId);
        for (const gone of this.goneListeners) call(gone, userId);
      }
    };
  }

  /** `listener` hears of every author whose last stream just closed. */
  onAuthorGone(listener: (userId: string) => void): () => void {
    this.goneListeners.add(listener);
    return () => this.goneListeners.delete(listener);
  }

  /** Sends `message` to the open streams of `userIds` at once (not queued behind commits: it carries no seq). */
  tell(userIds: Iterable<string>, message: LiveMessage): void {
    const ids = [...userIds];
    this.deliver(ids, message);
    for (const listener of this.tellListeners) call(listener, ids, message);
  }

  /** `listener` hears every named event told in this process (not those delivered from another instance). */
  onTell(listener: (userIds: readonly string[], message: LiveMessage) => void): () => void {
    this.tellListeners.add(listener);
    return () => this.tellListeners.delete(listener);
  }

  /** Sends `message` to this process's open streams of `userIds` only (a named event told by another instance). */
  deliver(userIds: Iterable<string>, message: LiveMessage): void {
    for (const userId of userIds) {
      for (const stream of this.byAuthor.get(userId) ?? []) if (stream.message) call(stream.message, message);
    }
  }

  /** The authors who can see `seriesIds` now (owners and live members), by the audience query. */
  async audienceOf(seriesIds: Iterable<string>): Promise<Iterable<string>> {
    // seq -1: no membership row was revoked "by this commit", so only live members are named.
    return this.audience ? this.audience({ seq: -1, seriesIds: new Set(seriesIds) }) : [];
  }

  /** Streams (and listeners) of one author. */
  countOf(userId: string): number {
    return this.byAuthor.get(userId)?.size ?? 0;
  }

  setAudience(audience: Audience): void {
    this.audience = audience;
  }

  setRowsOfCommit(rowsOf: RowsOfCommit): void {
    this.rowsOf = rowsOf;
  }

  publish(notice: CommitNotice): void {
    for (const listener of this.listeners) call(listener, notice);
    if (this.readerCount === 0 || !this.audience) return;
    const audience = this.audience;
    const rowsOf = this.rowsOf;
    this.queue = this.queue
      .then(async () => {
        if (this.readerCount === 0) return;
        const listening = [...(await audience(notice))].filter((userId) => this.byAuthor.has(userId));
        if (listening.length === 0) return;
        // A plain poke (a pull) for the author whose own rows the commit wrote (the feed sends each
        // author their own), and for the writer, whose app pulls after the answer anyway.
        const pulls = (userId: string) => userId === notice.writerId || notice.userIds?.has(userId) === true;
        const rows = rowsOf && listening.some((userId) => !pulls(userId)) ? await rowsOf(notice).catch(() => null) : null;
        for (const userId of listening) {
          const theirs = pulls(userId) ? null : rows;
          for (const stream of this.byAuthor.get(userId) ?? []) call(stream.commit, notice, theirs);
        }
      })
      .catch(() => undefined); // a failed audience read loses pokes, never the queue
  }

  /**
   * Pokes every open stream with `seq` (a plain poke: pull). For announcements that may have been
   * missed (the cross-instance listener reconnected): each app pulls whatever it has not seen.
   */
  pokeEveryone(seq: number): void {
    const notice: CommitNotice = { seq, seriesIds: new Set(), remote: true };
    this.queue = this.queue.then(() => {
      for (const streams of this.byAuthor.values()) for (const stream of streams) call(stream.commit, notice, null);
    });
  }

  /** Resolves once every commit published so far has been told to its streams (tests). */
  idle(): Promise<void> {
    return this.queue;
  }

  get size(): number {
    return this.listeners.size + this.readerCount;
  }
}

function call<A extends unknown[]>(listener: (...args: A) => void, ...args: A): void {
  try {
    listener(...args);
  } catch {
    // a broken listener (closed socket) must not stop the others
  }
}
