/**
 * Support for test/story/dangling-*.test.ts: writes that name rows another device deleted first.
 *
 * "Converges" is checked by running the same requests, with the same client-made ids, in two fresh
 * apps — once with the delete first, once with it after — and comparing what is stored.
 */
import { newId } from '@chronicler/schema';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type TestApp, createTestApp, json, signUp } from './helpers.ts';
import { type StoryClient, storyClient } from './story-client.ts';

export interface Author {
  t: TestApp;
  me: StoryClient;
  /** Another author, with a series of their own. */
  other: StoryClient;
}

/** A fresh app with two legendary authors (no plan gate answers before the rule under test). */
export async function twoAuthors(): Promise<Author> {
  const t = await createTestApp();
  const me = storyClient(t.app, await signUp(t.app, { plan: 'legendary' }));
  const other = storyClient(t.app, await signUp(t.app, { plan: 'legendary' }));
  return { t, me, other };
}

/** Client-made ids by name, the same in every app a scenario runs in. */
export function idBook(): (name: string) => string {
  const ids = new Map<string, string>();
  return (name) => {
    if (!ids.has(name)) ids.set(name, newId());
    return ids.get(name)!;
  };
}

/** A request that must succeed (2xx); answers the body. */
export function ok2xx<T = any>(res: LightMyRequestResponse): T {
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return json<T>(res);
}

const STORY_TABLES = ['books', 'chapters', 'characters', 'characterRelationships', 'locations', 'timelineEvents', 'chapterConflicts'] as const;
/** Columns that record when and by whom, not what: they differ between two runs by nature. */
const STAMPS = new Set(['rev', 'createdAt', 'updatedAt', 'deletedAt', 'ownerId', 'authorId']);

/**
 * Everything stored in a series as the devices will see it: live rows in full (but their stamps),
 * tombstones as "this id is deleted" — a tombstone's other fields are never read (lists and the
 * client keep live rows only), and a create under a deleted parent cannot know, e.g., the position
 * the parent's delete would have found it at.
 */
export async function storedState(t: TestApp, seriesId: string): Promise<Record<string, unknown[]>> {
  const { db } = t.app.deps.database;
  const out: Record<string, unknown[]> = {};
  const series = await db.selectFrom('series').selectAll().where('id', '=', seriesId).execute();
  const tables: Record<string, Record<string, unknown>[]> = { series };
  for (const table of STORY_TABLES) tables[table] = await db.selectFrom(table).selectAll().where('seriesId', '=', seriesId).orderBy('id').execute();
  for (const [table, rows] of Object.entries(tables)) {
    out[table] = rows.map((row) =>
      row.deletedAt !== null
        ? { id: row.id, deleted: true }
        : Object.fromEntries(Object.entries(row).filter(([column]) => !STAMPS.has(column))),
    );
  }
  return out;
}

export interface Scenario {
  /** Builds what both devices started from (as `me`, with ids from `id`). */
  setup(me: StoryClient, id: (name: string) => string): Promise<void>;
  /** What the other device did: deletes. */
  remove(me: StoryClient, id: (name: string) => string): Promise<void>;
  /** The offline device's write, replayed from its outbox. Must succeed in both orders. */
  write(me: StoryClient, id: (name: string) => string): Promise<LightMyRequestResponse>;
  seriesName?: string;
}

/**
 * Runs `scenario` twice in fresh apps — delete first, then delete after — and answers both stored
 * states, the offline write's answers, and the ids the scenario used.
 */
export async function bothOrders(scenario: Scenario) {
  const id = idBook();
  const run = async (deleteFirst: boolean) => {
    const { t, me } = await twoAuthors();
    try {
      await scenario.setup(me, id);
      if (deleteFirst) await scenario.remove(me, id);
      const answer = await scenario.write(me, id);
      expect(answer.statusCode, `${deleteFirst ? 'deleted first' : 'deleted after'}: ${answer.body}`).toBeLessThan(300);
      if (!deleteFirst) await scenario.remove(me, id);
      return { answer: json(answer), state: await storedState(t, id(scenario.seriesName ?? 'series')) };
    } finally {
      await t.close();
    }
  };
  const deletedFirst = await run(true);
  const deletedAfter = await run(false);
  return { deletedFirst, deletedAfter, id };
}

/** DELETE that must succeed. */
export async function remove(me: StoryClient, path: string): Promise<void> {
  ok2xx(await me.del(path));
}
