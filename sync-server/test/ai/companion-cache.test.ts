/**
 * The companion's series cache (src/ai/material.ts) is read inside write transactions. What it
 * learned there must not outlive a transaction that rolled back: the revs such a transaction took
 * go to the next write, which may store something else under the very same rev.
 */
import { afterEach, expect, it } from 'vitest';
import { newId } from '@chronicler/schema';
import { CompanionCache } from '../../src/ai/material.ts';
import { type TestApp, createTestApp, signUp } from '../support/helpers.ts';
import { storyClient } from '../support/story-client.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('forgets a suggestion it was told of in a transaction that then rolled back', async () => {
  t = await createTestApp();
  const who = await signUp(t.app, { plan: 'wordsmith' });
  const client = storyClient(t.app, who);
  const series = await client.create('/api/series', { title: 'Tides of Salt' });
  const { db } = t.app.deps.database;
  const suggestionRow = (content: string, rev: number) => {
    const now = new Date().toISOString();
    return { id: newId(), seriesId: series.id, bookId: null, type: 'plotIdea', content, engine: 'builtin', entityIds: '[]', authorId: who.user.id, rev, createdAt: now, updatedAt: now, deletedAt: null };
  };
  const cache = new CompanionCache();
  const REV = 1_000_000;

  const trx = await db.startTransaction().setAccessMode('read write').execute();
  const view = await cache.get(trx, series.id);
  await trx.insertInto('aiSuggestions').values(suggestionRow('A storm that never came', REV)).execute();
  view.remember('A storm that never came', REV);
  await trx.rollback().execute();

  // The next write is given the same rev and stores another suggestion under it.
  await db.insertInto('aiSuggestions').values(suggestionRow('The lighthouse keeper lies', REV)).execute();
  const now = await cache.get(db, series.id);
  expect([...now.previous]).toEqual(['The lighthouse keeper lies']);
});
