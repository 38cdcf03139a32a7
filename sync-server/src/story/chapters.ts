/**
 * Chapters (spec 001 §7 "Chapters"), their revision history and their conflict copies
 * (docs/sync-protocol.md#chapter-text-merge). The series comes from the stored book; the
 * word count is always the server's count of the stored text.
 *
 * A book's live chapters keep positions 1..n: a reorder renumbers them all and a delete closes the
 * gap, so a reorder sent before or after a concurrent delete leaves the same positions
 * (story/dangling.ts has the rule for rows deleted by another device).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ChapterRevisionSummary,
  createChapterBodySchema,
  nextPosition,
  reorderChaptersBodySchema,
  requestedOrder,
  updateChapterBodySchema,
} from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { countLive, findRevision, listLive, listRevisions, loadAccessible } from '../entities/queries.ts';
import type { WireRow } from '../entities/wire.ts';
import { notFound } from '../http/errors.ts';
import type { MutationContext } from '../sync/mutation.ts';
import { tellChapterTextSaved } from '../sync/story-writes.ts';
import { baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { chaptersOf, renumber } from './chapter-order.ts';
import { createUnder, isDeleted, liveInOneGroup, loadEvenIfDeleted, rowsNamedByReorder } from './dangling.ts';
import { updateChapter } from './trash.ts';

type Chapter = WireRow<'chapters'>;

/**
 * POST /api/chapters/reorder. The book is the one of the named chapters (all live ones must share
 * it: 422); ids deleted since are ignored, so an offline reorder still orders what is left. Any id
 * the caller cannot see fails the whole request (404), exactly like an unknown one. Answers every
 * live chapter of the book in its new order.
 */
async function reorderChapters(ctx: MutationContext, items: readonly { id: string; position: number }[]): Promise<Chapter[]> {
  const named = await rowsNamedByReorder(ctx, 'chapters', items);
  const live = liveInOneGroup(named, 'bookId', 'All chapters of a reorder must belong to the same book');
  // Chapters never change book, so a deleted one still names the book the author was ordering.
  const anchor = live[0] ?? named[0]!;
  await assertWriteFeature(ctx.trx, 'chapters', anchor.seriesId);
  return renumber(ctx, requestedOrder(await chaptersOf(ctx, anchor.bookId), items));
}

const revisionParams = z.strictObject({ id: idParams.shape.id, rev: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
const revisionsQuery = z.strictObject({
  /** Newest first; `before` pages back through older revisions. */
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

export default async function chapterRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.post('/api/chapters', { schema: { body: createChapterBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      // wordCount from the client is advisory; the registry counts the stored text.
      const { bookId, position, wordCount: _advisory, writing, ...fields } = request.body;
      // A book deleted on another device first: the chapter is stored as the book's delete would
      // have left it (a tombstone, its text kept in the row and its revision).
      const book = await loadEvenIfDeleted(ctx, 'books', bookId);
      const at = position ?? nextPosition(await countLive(ctx.trx, 'chapters', 'bookId', book.id));
      const values = { ...fields, bookId: book.id, seriesId: book.seriesId, position: at, wordCount: 0 };
      const created = await createUnder(ctx, 'chapters', book.seriesId, values, isDeleted(book));
      // Text typed into the chapter made offline, before its create was sent (its writing mark):
      // heard as saved over the empty chapter.
      if (writing) await tellChapterTextSaved(ctx, { before: { ...created.body, content: '' }, after: created.body, mark: writing, baseRev: null });
      return created;
    }),
  );

  app.post('/api/chapters/reorder', { schema: { body: reorderChaptersBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok({ chapters: await reorderChapters(ctx, request.body.chapters) })),
  );

  app.get('/api/chapters/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'chapters', request.params.id, requireUser(request).id),
  );

  app.put('/api/chapters/:id', { schema: { params: idParams, body: updateChapterBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    const { wordCount: _advisory, ...fields } = request.body;
    return write(request, reply, async (ctx) => ok(await updateChapter(ctx, request.params.id, fields, baseRev)));
  });

  /** Later chapters move up to close the gap, in the same write. */
  app.delete('/api/chapters/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      const deleted = await deleteWithDependants(ctx, 'chapters', request.params.id);
      await renumber(ctx, await chaptersOf(ctx, deleted.bookId));
      return ok(deleted);
    }),
  );

  app.get('/api/chapters/:id/revisions', { schema: { params: idParams, querystring: revisionsQuery } }, async (request) => {
    const chapter = await loadAccessible(db, 'chapters', request.params.id, requireUser(request).id);
    const rows = await listRevisions(db, 'chapters', chapter.id, request.query);
    return rows.map((row): ChapterRevisionSummary => {
      const snapshot = JSON.parse(row.snapshot) as { title: string; wordCount: number };
      return { rev: row.rev, createdAt: row.createdAt, title: snapshot.title, wordCount: snapshot.wordCount, authorId: row.userId };
    });
  });

  /** The chapter exactly as saved at `rev` (to compare or restore with a normal PUT). */
  app.get('/api/chapters/:id/revisions/:rev', { schema: { params: revisionParams } }, async (request) => {
    const chapter = await loadAccessible(db, 'chapters', request.params.id, requireUser(request).id);
    const snapshot = await findRevision(db, 'chapters', chapter.id, request.params.rev);
    if (snapshot === null) throw notFound();
    return JSON.parse(snapshot) as unknown;
  });

  /** Unresolved conflict copies of a live chapter, oldest first. */
  app.get('/api/chapters/:id/conflicts', { schema: { params: idParams } }, async (request) => {
    const chapter = await loadAccessible(db, 'chapters', request.params.id, requireUser(request).id);
    return listLive(db, 'chapterConflicts', 'chapterId', chapter.id);
  });

  /** Resolving a conflict copy dismisses it; the chosen text is applied with a normal chapter PUT. */
  app.delete('/api/chapter-conflicts/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'chapterConflicts', request.params.id))),
  );
}
