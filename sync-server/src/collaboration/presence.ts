/**
 * Who is in a chapter right now (docs/server.md#collaboration). An editor announces itself on
 * entering and says goodbye on leaving; its author's last sync stream closing (the tab or the app
 * closed, the network lost) takes them out of every chapter; a heartbeat every
 * PRESENCE_HEARTBEAT_MS only keeps an entry alive, and one not renewed for PRESENCE_TTL_MS is
 * swept. Each change is told to the series' owner and members over the sync stream
 * (`event: presence`, hub.tell).
 *
 * In memory: presence is not data, it is lost on restart and refilled by the next heartbeat.
 * Several instances on PostgreSQL each keep the whole board (presence-across-instances.ts).
 */
import { PRESENCE_TTL_MS, type PresentAuthor } from '@chronicler/schema';

interface Seen {
  displayName: string;
  until: number;
}

interface Room {
  seriesId: string;
  authors: Map<string, Seen>;
}

/** A chapter whose company changed: whom to tell is the series' audience. */
export interface PresenceChange {
  chapterId: string;
  seriesId: string;
}

export class PresenceBoard {
  private readonly chapters = new Map<string, Room>();

  /** Records `userId` in `chapterId` until the TTL; answers the change when they were not there. */
  enter(chapterId: string, seriesId: string, userId: string, displayName: string, now: number): PresenceChange | null {
    let room = this.chapters.get(chapterId);
    if (!room) this.chapters.set(chapterId, (room = { seriesId, authors: new Map() }));
    const known = room.authors.has(userId);
    room.authors.set(userId, { displayName, until: now + PRESENCE_TTL_MS });
    return known ? null : { chapterId, seriesId: room.seriesId };
  }

  leave(chapterId: string, userId: string): PresenceChange | null {
    const room = this.chapters.get(chapterId);
    if (!room?.authors.delete(userId)) return null;
    if (room.authors.size === 0) this.chapters.delete(chapterId);
    return { chapterId, seriesId: room.seriesId };
  }

  /** Takes `userId` out of every chapter (their last stream closed). */
  leaveAll(userId: string): PresenceChange[] {
    return [...this.chapters.keys()].flatMap((chapterId) => this.leave(chapterId, userId) ?? []);
  }

  /** Forgets entries not renewed within the TTL. */
  sweep(now: number): PresenceChange[] {
    const changes: PresenceChange[] = [];
    for (const [chapterId, room] of this.chapters) {
      let changed = false;
      for (const [userId, seen] of room.authors) {
        if (seen.until <= now) changed = room.authors.delete(userId);
      }
      if (room.authors.size === 0) this.chapters.delete(chapterId);
      if (changed) changes.push({ chapterId, seriesId: room.seriesId });
    }
    return changes;
  }

  /** Everyone in `chapterId` now, by name. */
  present(chapterId: string): PresentAuthor[] {
    const room = this.chapters.get(chapterId);
    if (!room) return [];
    return [...room.authors]
      .map(([userId, seen]) => ({ userId, displayName: seen.displayName }))
      .sort((a, b) => a.displayName.localeCompare(b.displayName));
  }

  get isEmpty(): boolean {
    return this.chapters.size === 0;
  }
}
