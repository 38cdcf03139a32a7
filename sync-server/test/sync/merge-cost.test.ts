/**
 * The outage of the old merge (docs/decisions/0007-three-way-paragraph-merge.md): node-diff3 on
 * paragraph tokens, separators as tokens of their own, took cubic time when tokens repeat — 16.6 s
 * for a chapter of 1,000 short paragraphs, 272 s for 2,000 identical one-word lines — holding the
 * event loop and the database meanwhile. Through real HTTP on a real SQLite file: the same saves
 * now merge correctly, and each one answers in well under a second.
 *
 * Why 1 s: the merge's work is bounded by a count (TEXT_MERGE_BUDGET), whose worst case costs
 * tens of milliseconds even on this shared, loaded machine (bench/text-merge.ts); the rest of a
 * save (validation, one SQLite transaction with a revision snapshot) is a few milliseconds. 1 s
 * leaves a wide margin for load and is still 16× under the old 16.6 s (the old code fails here).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, json, signUp } from '../support/helpers.ts';
import { type StoryClient, storyClient } from '../support/story-client.ts';

const SAVE_LIMIT_MS = 1_000;

let dir: string;
let t: TestApp;
let me: StoryClient;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronicler-merge-cost-'));
  t = await createTestApp({ dataDir: dir, databaseFile: path.join(dir, 'chronicler.db') });
  me = storyClient(t.app, await signUp(t.app, { plan: 'wordsmith' }));
});
afterEach(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A chapter holding `content`, at the revision the two later saves both start from. */
async function chapterWith(content: string) {
  const { chapter } = await me.seriesWithChapter();
  const res = await me.put(`/api/chapters/${chapter.id}`, { content }, { 'x-base-rev': String(chapter.rev) });
  expect(res.statusCode, res.body).toBe(200);
  return json(res);
}

/** PUT from `baseRev`; answers the body and how long the request took. */
async function timedSave(id: string, baseRev: number, content: string) {
  const started = performance.now();
  const res = await me.put(`/api/chapters/${id}`, { content }, { 'x-base-rev': String(baseRev) });
  const ms = performance.now() - started;
  expect(res.statusCode, res.body).toBe(200);
  return { body: json(res), ms };
}

/** An edit at the top saved, then a save from the older base with the last line changed. */
async function editBothEnds(lines: string[], separator: string) {
  const chapter = await chapterWith(lines.join(separator));
  const top = ['Edited at the top.', ...lines.slice(1)].join(separator);
  const bottom = [...lines.slice(0, -1), 'Edited at the end.'].join(separator);
  const first = await timedSave(chapter.id, chapter.rev, top);
  expect(first.body.mergeStatus).toBe('fast-forward');
  const second = await timedSave(chapter.id, chapter.rev, bottom);
  return { first, second, expected: ['Edited at the top.', ...lines.slice(1, -1), 'Edited at the end.'].join(separator) };
}

describe('merging big chapters through the API, where the old merge took cubic time', () => {
  it('merges a chapter of 1,000 short paragraphs edited at both ends, each save well under a second', async () => {
    const paragraphs = Array.from({ length: 1_000 }, (_, i) => `Paragraph ${i + 1}.`);
    const { first, second, expected } = await editBothEnds(paragraphs, '\n\n');
    expect(second.body).toMatchObject({ mergeStatus: 'merged', content: expected });
    expect(second.body.conflictId).toBeUndefined();
    expect(first.ms).toBeLessThan(SAVE_LIMIT_MS);
    expect(second.ms).toBeLessThan(SAVE_LIMIT_MS);
  });

  it('merges 2,000 identical one-word lines edited at both ends, well under a second', async () => {
    const same = Array.from({ length: 2_000 }, () => 'word');
    const { second, expected } = await editBothEnds(same, '\n');
    expect(second.body).toMatchObject({ mergeStatus: 'merged', content: expected });
    expect(second.ms).toBeLessThan(SAVE_LIMIT_MS);
  });

  it('past the work bound keeps the current text and the whole incoming text as a conflict copy, quickly', async () => {
    // 2,000 identical lines, one side changing every 2nd line and the other every 3rd: no line
    // anchors the diff and Myers would need ~1,000 edits — far past the budget.
    const same = Array.from({ length: 2_000 }, () => 'word');
    const chapter = await chapterWith(same.join('\n'));
    const current = same.map((w, i) => (i % 2 === 0 ? 'mine' : w)).join('\n');
    const incoming = same.map((w, i) => (i % 3 === 0 ? 'theirs' : w)).join('\n');
    await timedSave(chapter.id, chapter.rev, current);
    const { body, ms } = await timedSave(chapter.id, chapter.rev, incoming);
    expect(body).toMatchObject({ mergeStatus: 'conflict', content: current, conflictId: expect.any(String) });
    expect(ms).toBeLessThan(SAVE_LIMIT_MS);
    const copies = await me.read(`/api/chapters/${chapter.id}/conflicts`);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ id: body.conflictId, content: incoming, reason: 'conflict', baseRev: chapter.rev });
  });
});
