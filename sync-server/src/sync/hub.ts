/**
 * In-process fan-out of commits to SSE listeners: after each committed write, the streams of the
 * authors who can see a touched series get a poke with the new seq (DESIGN.md §3 "Live").
 * Several server instances would put a pub/sub (e.g. PostgreSQL LISTEN/NOTIFY) behind this.
 *
 * Fan-out is by audience, not by stream: one query per commit names the authors who can see the
 * touched series (`setAudience`), and only their streams are touched. A write of one author
 * costs the others' streams nothing (issue 16, item 5: 200 streams of one author used to make
 * every write re-read 200 scopes). Notices are handled one at a time, in commit order.
 */
export interface CommitNotice {
  seq: number;
  seriesIds: ReadonlySet<string>;
  /** Authors whose own rows (user-scoped kinds) the commit wrote: they hear it, and nobody else for them. */
  userIds?: ReadonlySet<string>;
}
type Listener = (notice: CommitNotice) => void;
/** The authors who should hear of a commit (owners and members of its series, owners of its user-scoped rows). */
export type Audience = (notice: CommitNotice) => Promise<Iterable<string>>;

export class ChangeHub {
  /** Hear every commit (tests, metrics). */
  private readonly listeners = new Set<Listener>();
  /** Hear the commits of series the author can see (SSE streams). */
  private readonly byAuthor = new Map<string, Set<Listener>>();
  private audience: Audience | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readerCount = 0;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `listener` hears the commits `userId` can see (once an audience is set). */
  subscribeAuthor(userId: string, listener: Listener): () => void {
    let set = this.byAuthor.get(userId);
    if (!set) this.byAuthor.set(userId, (set = new Set()));
    set.add(listener);
    this.readerCount += 1;
    return () => {
      if (!set.delete(listener)) return;
      this.readerCount -= 1;
      if (set.size === 0 && this.byAuthor.get(userId) === set) this.byAuthor.delete(userId);
    };
  }

  /** Streams (and listeners) of one author. */
  countOf(userId: string): number {
    return this.byAuthor.get(userId)?.size ?? 0;
  }

  setAudience(audience: Audience): void {
    this.audience = audience;
  }

  publish(notice: CommitNotice): void {
    for (const listener of this.listeners) call(listener, notice);
    if (this.readerCount === 0 || !this.audience) return;
    const audience = this.audience;
    this.queue = this.queue
      .then(async () => {
        if (this.readerCount === 0) return;
        for (const userId of await audience(notice)) {
          for (const listener of this.byAuthor.get(userId) ?? []) call(listener, notice);
        }
      })
      .catch(() => undefined); // a failed audience read loses pokes, never the queue
  }

  get size(): number {
    return this.listeners.size + this.readerCount;
  }
}

function call(listener: Listener, notice: CommitNotice): void {
  try {
    listener(notice);
  } catch {
    // a broken listener (closed socket) must not stop the others
  }
}
