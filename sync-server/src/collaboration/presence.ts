/**
 * Who is in a chapter right now (issue 13): each open editor reports itself every
 * PRESENCE_HEARTBEAT_MS and is forgotten PRESENCE_TTL_MS after its last report (a closed tab, a lost
 * network). In memory: presence is not data, it is lost on restart and refilled by the next
 * heartbeat. (Several server processes would share it through the same pub/sub as the SSE pokes.)
 */
import { PRESENCE_TTL_MS, type PresentAuthor } from '@chronicler/schema';

interface Seen {
  displayName: string;
  until: number;
}

export class PresenceBoard {
  private readonly chapters = new Map<string, Map<string, Seen>>();

  /** Records `userId` in `chapterId` and answers the others there now. */
  touch(chapterId: string, userId: string, displayName: string, now: number): PresentAuthor[] {
    let here = this.chapters.get(chapterId);
    if (!here) this.chapters.set(chapterId, (here = new Map()));
    here.set(userId, { displayName, until: now + PRESENCE_TTL_MS });
    return this.others(chapterId, userId, now);
  }

  leave(chapterId: string, userId: string): void {
    const here = this.chapters.get(chapterId);
    here?.delete(userId);
    if (here && here.size === 0) this.chapters.delete(chapterId);
  }

  others(chapterId: string, userId: string, now: number): PresentAuthor[] {
    const here = this.chapters.get(chapterId);
    if (!here) return [];
    const out: PresentAuthor[] = [];
    for (const [id, seen] of here) {
      if (seen.until <= now) here.delete(id);
      else if (id !== userId) out.push({ userId: id, displayName: seen.displayName });
    }
    if (here.size === 0) this.chapters.delete(chapterId);
    return out.sort((a, b) => a.displayName.localeCompare(b.displayName));
  }
}
