/** A place's parent on the device (places.ts, docs/decisions/0021-places-inside-places.md): checked before the write, moved up on delete. */
import { afterEach, describe, expect, it } from 'vitest';
import { PLACE_MESSAGES } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';
import { NotFoundLocallyError, ValidationError, createMutators } from './mutators.ts';
import { freshDb, manualClock, serverSeries } from './testing/fixtures.ts';

let db: ChroniclerDb;
afterEach(() => db?.close());

async function seed() {
  db = freshDb();
  await db.open();
  const series = serverSeries({ title: 'Earthsea' });
  const elsewhere = serverSeries({ title: 'Middle-earth' });
  await db.series.bulkPut([series, elsewhere]);
  const m = createMutators(db, { now: manualClock().now });
  const earthsea = await m.locations.create({ seriesId: series.id, name: 'Earthsea' });
  const archipelago = await m.locations.create({ seriesId: series.id, name: 'Archipelago', parentId: earthsea.id });
  const roke = await m.locations.create({ seriesId: series.id, name: 'Roke', parentId: archipelago.id });
  return { m, series, elsewhere, earthsea, archipelago, roke };
}

const parents = async () => Object.fromEntries((await db.locations.toArray()).filter((l) => l.deletedAt === null).map((l) => [l.name, l.parentId]));

describe('places inside places on the device', () => {
  it('nests offline at once: the rows and the requests carry the parent', async () => {
    const { earthsea, archipelago, roke } = await seed();
    expect(await parents()).toEqual({ Earthsea: null, Archipelago: earthsea.id, Roke: archipelago.id });
    const bodies = (await db.outbox.toArray()).map((e) => (e.body as { parentId: string | null }).parentId);
    expect(bodies).toEqual([null, earthsea.id, archipelago.id]);
    expect(roke.parentId).toBe(archipelago.id);
  });

  it('a move keeps the places inside it; the top level is a move too', async () => {
    const { m, series, roke, archipelago } = await seed();
    const school = await m.locations.create({ seriesId: series.id, name: 'School', parentId: roke.id });
    await m.locations.update(roke.id, { parentId: null });
    expect(await parents()).toMatchObject({ Roke: null, School: roke.id });
    await m.locations.update(roke.id, { parentId: archipelago.id });
    expect((await db.locations.get(school.id))!.parentId).toBe(roke.id);
  });

  it('refuses a cycle before anything is written, with the message', async () => {
    const { m, earthsea, roke } = await seed();
    const before = await db.outbox.count();
    await expect(m.locations.update(roke.id, { parentId: roke.id })).rejects.toBeInstanceOf(ValidationError);
    await expect(m.locations.update(earthsea.id, { parentId: roke.id })).rejects.toThrow(PLACE_MESSAGES.cycle);
    expect(await db.outbox.count()).toBe(before);
    expect((await db.locations.get(earthsea.id))!.parentId).toBeNull();
  });

  it('refuses a parent of another series, and one no longer here', async () => {
    const { m, series, elsewhere, roke } = await seed();
    const shire = await m.locations.create({ seriesId: elsewhere.id, name: 'The Shire' });
    await expect(m.locations.create({ seriesId: series.id, name: 'Hobbiton', parentId: shire.id })).rejects.toThrow(PLACE_MESSAGES.otherSeries);
    await expect(m.locations.update(roke.id, { parentId: shire.id })).rejects.toThrow(PLACE_MESSAGES.otherSeries);
    await m.locations.delete(shire.id);
    await expect(m.locations.update(roke.id, { parentId: shire.id })).rejects.toThrow(NotFoundLocallyError);
  });

  it('a move into a place created after it is sent after that place: never folded into the moved place’s earlier create', async () => {
    const { m, series, earthsea, archipelago } = await seed();
    const kargad = await m.locations.create({ seriesId: series.id, name: 'Kargad Lands' });
    await m.locations.update(archipelago.id, { parentId: kargad.id });
    const requests = () => db.outbox.orderBy('seq').toArray().then((entries) => entries.map((e) => `${e.method} ${(e.body as { name?: string } | undefined)?.name ?? e.path} ${(e.body as { parentId?: string | null }).parentId}`));
    expect(await requests()).toEqual([
      `POST Earthsea null`,
      `POST Archipelago ${earthsea.id}`,
      `POST Roke ${archipelago.id}`,
      `POST Kargad Lands null`,
      `PUT /api/locations/${archipelago.id} ${kargad.id}`,
    ]);
    // A further move into a place queued earlier rides on that update.
    await m.locations.update(archipelago.id, { parentId: earthsea.id });
    expect((await requests()).at(-1)).toBe(`PUT /api/locations/${archipelago.id} ${earthsea.id}`);
    expect(await db.outbox.count()).toBe(5);
    // A move into a place queued before it still folds into its create.
    await m.locations.update(kargad.id, { parentId: earthsea.id });
    expect(await db.outbox.count()).toBe(5);
    expect((await requests())[3]).toBe(`POST Kargad Lands ${earthsea.id}`);
  });

  it('a delete moves the places inside it up to its parent, in the same local write', async () => {
    const { m, earthsea, archipelago } = await seed();
    await m.locations.delete(archipelago.id);
    expect(await parents()).toEqual({ Earthsea: null, Roke: earthsea.id });
    await m.locations.delete(earthsea.id);
    expect(await parents()).toEqual({ Roke: null });
    const last = (await db.outbox.toArray()).at(-1)!;
    expect(last).toMatchObject({ method: 'DELETE', path: `/api/locations/${earthsea.id}` });
  });
});
