/**
 * In-process fan-out of commits to SSE listeners: after each committed write, listeners whose
 * scope includes a touched series get a poke with the new seq (DESIGN.md §3 "Live").
 * Several server instances would put a pub/sub (e.g. PostgreSQL LISTEN/NOTIFY) behind this.
 */
export interface CommitNotice {
  seq: number;
  seriesIds: ReadonlySet<string>;
}
type Listener = (notice: CommitNotice) => void;

export class ChangeHub {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(notice: CommitNotice): void {
    for (const listener of this.listeners) {
      try {
        listener(notice);
      } catch {
        // a broken listener (closed socket) must not stop the others
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
