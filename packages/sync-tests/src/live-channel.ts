/**
 * A device's live channel in the convergence tests: the pokes the hub made for its author, handed
 * over in order, shuffled with duplicates, or with some lost — and what must hold after any of
 * them (sync-client engine/live.ts).
 */
import { expect } from 'vitest';
import type { ChroniclerDb } from '@chronicler/sync-client';
import type { App } from '@chronicler/sync-server';

type ServerDb = App['deps']['database']['db'];

/** The data of one SSE frame (`data: …\n\n`), as an EventSource hands it to the engine. */
export function dataOfFrame(frame: Uint8Array): string {
  const text = Buffer.from(frame).toString('utf8');
  if (!text.startsWith('data: ') || !text.endsWith('\n\n')) throw new Error(`not one SSE data frame: ${text.slice(0, 40)}`);
  return text.slice('data: '.length, -2);
}

export type DeliveryOrder = 'in order' | 'shuffled' | 'lossy';

/** The pokes an author's device hears now: in order, shuffled (duplicates too), or with some lost. */
export function delivery(pokes: string[], order: DeliveryOrder, pick: number): string[] {
  if (order === 'in order') return pokes;
  if (order === 'lossy') return pokes.filter((_, i) => (i + pick) % 3 !== 0);
  const shuffled = [...pokes, ...pokes.slice(0, pick % 3)];
  let seed = pick + 1;
  for (let i = shuffled.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled;
}

/** After pokes were handed over: nothing got older, and every settled chapter is a state the server had. */
export async function expectNoInventedRows(sdb: ServerDb, name: string, device: ChroniclerDb, before: Map<string, number>): Promise<void> {
  for (const chapter of await device.chapters.toArray()) {
    const was = before.get(chapter.id);
    if (was !== undefined) expect(chapter.rev, `${name}'s chapter ${chapter.id} went back`).toBeGreaterThanOrEqual(was);
    if (await device.shadows.get(['chapters', chapter.id])) continue; // server state + this author's unsent work
    const revision = await sdb
      .selectFrom('revisions')
      .select('snapshot')
      .where('entity', '=', 'chapters')
      .where('entityId', '=', chapter.id)
      .where('rev', '=', chapter.rev)
      .executeTakeFirst();
    expect(revision, `${name}'s chapter ${chapter.id} at rev ${chapter.rev} is no state the server had`).toBeDefined();
    expect((JSON.parse(revision!.snapshot) as { content: string }).content, `${name}'s chapter ${chapter.id} at rev ${chapter.rev}`).toBe(chapter.content);
  }
}
