/**
 * Chapters (spec 001 §7 "Chapters"), their revision history and their conflict copies
 * (DESIGN.md §3 "Chapter text never loses words"). The series comes from the stored book; the
 * word count is always the server's count of the stored text.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ChapterRevisionSummary,
  createChapterBodySchema,
  reorderChaptersBodySchema,
  updateChapterBodySchema,
} from '@chronicler/schema';
import { requireUser } from '../auth/session.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { countLive, listLive, loadAccessible } from '../entities/registry.ts';
import { applyUpdate, baseRevOf } from '../entities/update.ts';
import { notFound } from '../http/errors.ts';
import { createIn, idParams, noBody, ok, reorderRows, write } from './common.ts';

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
      const { bookId, position, wordCount: _advisory, ...fields } = request.body;
      const book = await loadAccessible(ctx.trx, 'books', bookId, ctx.userId, { level: 'edit' });
      const at = position ?? (await countLive(ctx.trx, 'chapters', 'bookId', book.id)) + 1;
      return createIn(ctx, 'chapters', book.seriesId, { ...fields, bookId: book.id, seriesId: book.seriesId, position: at, wordCount: 0 });
    }),
  );

  app.post('/api/chapters/reorder', { schema: { body: reorderChaptersBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) =>
      ok({ chapters: await reorderRows(ctx, 'chapters', request.body.chapters, 'bookId', 'All chapters of a reorder must belong to the same book') }),
    ),
  );

  app.get('/api/chapters/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'chapters', request.params.id, requireUser(request).id),
  );

  app.put('/api/chapters/:id', { schema: { params: idParams, body: updateChapterBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    const { wordCount: _advisory, ...fields } = request.body;
    return write(request, reply, async (ctx) => ok(await applyUpdate(ctx, 'chapters', request.params.id, fields, baseRev)));
  });

  app.delete('/api/chapters/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'chapters', request.params.id))),
  );

  app.get('/api/chapters/:id/revisions', { schema: { params: idParams, querystring: revisionsQuery } }, async (request) => {
    const chapter = await loadAccessible(db, 'chapters', request.params.id, requireUser(request).id);
    let query = db
      .selectFrom('revisions')
      .select(['rev', 'createdAt', 'userId', 'snapshot'])
      .where('entity', '=', 'chapters')
      .where('entityId', '=', chapter.id)
      .orderBy('rev', 'desc')
      .limit(request.query.limit);
    if (request.query.before !== undefined) query = query.where('rev', '<', request.query.before);
    const rows = await query.execute();
    return rows.map((row): ChapterRevisionSummary => {
      const snapshot = JSON.parse(row.snapshot) as { title: string; wordCount: number };
      return { rev: row.rev, createdAt: row.createdAt, title: snapshot.title, wordCount: snapshot.wordCount, authorId: row.userId };
    });
  });

  /** The chapter exactly as saved at `rev` (to compare or restore with a normal PUT). */
  app.get('/api/chapters/:id/revisions/:rev', { schema: { params: revisionParams } }, async (request) => {
    const chapter = await loadAccessible(db, 'chapters', request.params.id, requireUser(request).id);
    const row = await db
      .selectFrom('revisions')
      .select('snapshot')
      .where('entity', '=', 'chapters')
      .where('entityId', '=', chapter.id)
      .where('rev', '=', request.params.rev)
      .executeTakeFirst();
    if (!row) throw notFound();
    return JSON.parse(row.snapshot) as unknown;
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
