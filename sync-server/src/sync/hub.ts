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
 * 200 scopes). Notices are handled one at a time, in commit order, and never make the writer
 * wait: `publish` only queues. Each poke is serialised once per commit — the rows' frame and the
 * plain poke's — and the same bytes are written to every stream; commits that arrive while the
 * fan-out is busy are told together as one plain poke per author (coalesced). A stream that cannot
 * keep up is dropped by its route (events.ts), never buffered without bound.
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
/**
 * What a stream hears of a commit: the notice; the commit's rows when this author may take them
 * from the poke; and the plain poke's frame (`data: {"seq":N}`). Both frames are made once per
 * commit (or per coalesced run of commits) and the same bytes written to every stream.
 */
type StreamListener = (notice: CommitNotice, rows: CommitRows | null, plainFrame: Buffer) => void;
/** A named event for an author's open streams that is not a commit (presence, invites: packages/schema LIVE_EVENTS). */
export interface LiveMessage {
  event: string;
  data: unknown;
}
/** A named event and its SSE frame, made once for every stream told. */
type MessageListener = (message: LiveMessage, frame: Buffer) => void;
interface AuthorStream {
  commit: StreamListener;
  message: MessageListener | null;
}
/** The authors who should hear of a commit (owners and members of its series, owners of its user-scoped rows). */
export type Audience = (notice: CommitNotice) => Promise<Iterable<string>>;
/** The rows a commit wrote that its poke may carry, or null (live-rows.ts). */
export type RowsOfCommit = (notice: CommitNotice) => Promise<CommitRows | null>;

/** The plain poke: the client pulls the feed past its cursor. */
export function plainPokeFrame(seq: number): Buffer {
  return Buffer.from(`data: {"seq":${seq}}\n\n`);
}

export function messageFrame(message: LiveMessage): Buffer {
  return Buffer.from(`event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);
}

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
  /** Commits published and not yet told to the streams: taken together when the fan-out falls behind. */
  private pending: CommitNotice[] = [];
  /** A poke for every stream waiting (pokeEveryone), with the highest seq asked; 0 for none. */
  private everyoneSeq = 0;
  private draining: Promise<void> | null = null;
  private readerCount = 0;
  /** SSE frames made (rows, plain pokes, named events): one per commit or message, never per stream (tests, metrics). */
  framesMade = 0;

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
    let frame: Buffer | null = null;
    for (const userId of userIds) {
      for (const stream of this.byAuthor.get(userId) ?? []) {
        if (!stream.message) continue;
        if (frame === null) {
          frame = messageFrame(message);
          this.framesMade += 1;
        }
        call(stream.message, message, frame);
      }
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

  /**
   * Tells the streams that may see the commit, after its effects' listeners. Never waits: the
   * writer goes on while the fan-out runs its turn, one commit after another in commit order; the
   * commits published while it was busy are then told together (coalesced, below).
   */
  publish(notice: CommitNotice): void {
    for (const listener of this.listeners) call(listener, notice);
    if (this.readerCount === 0 || !this.audience) return;
    this.pending.push(notice);
    this.drainSoon();
  }

  /**
   * Pokes every open stream with `seq` (a plain poke: pull). For announcements that may have been
   * missed (the cross-instance listener reconnected): each app pulls whatever it has not seen.
   */
  pokeEveryone(seq: number): void {
    this.everyoneSeq = Math.max(this.everyoneSeq, seq);
    this.drainSoon();
  }

  /** Resolves once every commit published so far has been told to its streams (tests). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private drainSoon(): void {
    if (this.draining) return;
    this.draining = this.drain()
      .catch(() => undefined) // a failed audience read loses pokes, never the fan-out
      .finally(() => {
        this.draining = null;
        if (this.pending.length > 0 || this.everyoneSeq > 0) this.drainSoon();
      });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 || this.everyoneSeq > 0) {
      if (this.everyoneSeq > 0) {
        const seq = this.everyoneSeq;
        this.everyoneSeq = 0;
        const notice: CommitNotice = { seq, seriesIds: new Set(), remote: true };
        const frame = this.plainFrame(seq);
        for (const streams of this.byAuthor.values()) for (const stream of streams) call(stream.commit, notice, null, frame);
        continue;
      }
      const run = this.pending;
      this.pending = [];
      try {
        if (run.length === 1) await this.fanOut(run[0]!);
        else await this.fanOutCoalesced(run);
      } catch {
        // a failed audience read loses these pokes (apps pull on their next write or reconnect), never the next ones
      }
    }
  }

  private plainFrame(seq: number): Buffer {
    this.framesMade += 1;
    return plainPokeFrame(seq);
  }

  /** One commit: its audience's streams get its rows (one frame for all) or a plain poke (one frame for all). */
  private async fanOut(notice: CommitNotice): Promise<void> {
    if (this.readerCount === 0) return;
    const listening = [...(await this.audience!(notice))].filter((userId) => this.byAuthor.has(userId));
    if (listening.length === 0) return;
    // A plain poke (a pull) for the author whose own rows the commit wrote (the feed sends each
    // author their own), and for the writer, whose app pulls after the answer anyway.
    const pulls = (userId: string) => userId === notice.writerId || notice.userIds?.has(userId) === true;
    const rows = this.rowsOf && listening.some((userId) => !pulls(userId)) ? await this.rowsOf(notice).catch(() => null) : null;
    if (rows) this.framesMade += 1;
    const plain = this.plainFrame(notice.seq);
    for (const userId of listening) {
      const theirs = pulls(userId) ? null : rows;
      for (const stream of this.byAuthor.get(userId) ?? []) call(stream.commit, notice, theirs, plain);
    }
  }

  /**
   * Commits published while the fan-out was busy (saves faster than it tells them): each author who
   * may see any of them gets ONE plain poke, at the highest seq among those they may see, and pulls
   * them all at once. The audiences are still read per commit (a membership revoked by one of
   * them names its member only at that commit's seq); no rows are read.
   */
  private async fanOutCoalesced(run: readonly CommitNotice[]): Promise<void> {
    const highest = new Map<string, CommitNotice>();
    for (const notice of run) {
      if (this.readerCount === 0) return;
      for (const userId of await this.audience!(notice)) {
        if (!this.byAuthor.has(userId)) continue;
        const known = highest.get(userId);
        if (!known || known.seq < notice.seq) highest.set(userId, notice);
      }
    }
    const frames = new Map<number, Buffer>();
    for (const [userId, notice] of highest) {
      let frame = frames.get(notice.seq);
      if (!frame) frames.set(notice.seq, (frame = this.plainFrame(notice.seq)));
      for (const stream of this.byAuthor.get(userId) ?? []) call(stream.commit, notice, null, frame);
    }
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
