/**
 * The writing companion's API (spec 000 §7; docs/server.md#ai-companion):
 *
 * - GET  /api/ai/suggestions?seriesId&bookId — the stored suggestions, newest last (read access)
 * - POST /api/ai/suggestion {type, seriesId, bookId} — one new suggestion, stored (a synced row) and
 *   counted against the daily allowance (edit access); 201 with the row (+ `notice` on a fallback)
 * - POST /api/ai/analyze {chapterId | content, useModel} — the built-in analysis, free; with
 *   `useModel` and a configured model, the model's reading too, counted against the allowance
 * - GET  /api/ai/allowance — today's allowance (the dashboard's "remaining daily limit")
 *
 * Access comes from the stored series (404 for foreign ids, as the story routes do).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES, MESSAGES, MINIMUMS, aiSuggestionsQuerySchema, analyzeBodySchema, createAiSuggestionBodySchema, newId } from '@chronicler/schema';
import { analyzeProse } from '@chronicler/companion';
import { type Clock, systemClock } from '../auth/clock.ts';
import { requireUser } from '../http/caller.ts';
import { type Db, assertAccessible, findRow, listLive } from '../entities/queries.ts';
import { insertRow } from '../entities/writes.ts';
import { HttpError } from '../http/errors.ts';
import { ok, write } from '../routes/kit.ts';
import { assertAllowanceLeft, readAllowance, spendAllowance } from './allowance.ts';
import { CompanionCache, type CompanionSeries, loadSeriesMaterial } from './material.ts';
import { type Companion, type GeneratedSuggestion, NO_MODEL_NOTICE, createCompanion } from './provider.ts';

/** The longest text analysed on the server in one request (~20,000 words, well under 100 ms); the browser runs the same code on longer chapters. */
export const MAX_SERVER_ANALYSIS_CHARS = 150_000;
/** Per attempt of a model call. */
export const DEFAULT_MODEL_TIMEOUT_MS = 20_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The companion's clock (tests move it to the next local day) and engines. */
    companion: { clock: Clock; engines: Companion };
  }
}

function invalid(message: string, field: string): HttpError {
  return new HttpError(422, ERROR_CODES.validation, message, { [field]: message });
}

async function aiPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const model = app.deps.config.ai;
  app.decorate('companion', {
    clock: systemClock(),
    engines: createCompanion(model ? { ...model, timeoutMs: DEFAULT_MODEL_TIMEOUT_MS } : null),
  });

  const cache = new CompanionCache();

  const bookNotInSeries = () => invalid('The book must belong to the chosen series', 'bookId');

  /** The book, when given, must be a live book of the series. */
  async function bookOf(seriesId: string, bookId: string | null | undefined): Promise<string | null> {
    if (!bookId) return null;
    const book = await findRow(db, 'books', bookId);
    if (!book || book.seriesId !== seriesId || book.deletedAt !== null) throw bookNotInSeries();
    return book.id;
  }

  app.get('/api/ai/suggestions', { schema: { querystring: aiSuggestionsQuerySchema } }, async (request) => {
    const { seriesId } = await assertAccessible(db, 'series', request.query.seriesId, requireUser(request).id);
    const bookId = await bookOf(seriesId, request.query.bookId);
    const rows = await listLive(db, 'aiSuggestions', 'seriesId', seriesId);
    return bookId ? rows.filter((row) => row.bookId === bookId) : rows;
  });

  app.get('/api/ai/allowance', async (request) =>
    readAllowance(db, requireUser(request).id, app.companion.clock.now(), app.companion.engines.modelConfigured),
  );

  app.post('/api/ai/suggestion', { schema: { body: createAiSuggestionBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    const { engines, clock } = app.companion;
    const bookId = request.body.bookId ?? null;
    /** The series the author may write to, as the companion keeps it, with the chosen book in it. */
    const seriesFor = async (reader: Db) => {
      const { seriesId } = await assertAccessible(reader, 'series', request.body.seriesId, user.id, { level: 'edit' });
      const series = await cache.get(reader, seriesId);
      // The kept material holds the series' live books: no look-up of the book row.
      if (bookId && !series.material.books.some((b) => b.id === bookId)) throw bookNotInSeries();
      return { seriesId, series };
    };
    const suggest = (series: CompanionSeries) =>
      engines.suggestion({ material: series.material, findings: series.findings(bookId), type: request.body.type, bookId, previous: series.previous });
    // A model takes seconds: it is asked before the write, outside any transaction, and only when
    // some allowance is left. The built-in engine only computes, so it runs inside the write with
    // every read that decides it: concurrent suggestions then commit together
    // (db/group-commit.ts) instead of each waiting for the connection between two groups.
    let asked: GeneratedSuggestion | null = null;
    if (engines.modelConfigured) {
      const { series } = await seriesFor(db);
      await assertAllowanceLeft(db, user.id, clock.now());
      asked = await suggest(series);
    }
    return write(request, reply, async (ctx) => {
      const { seriesId, series } = await seriesFor(ctx.trx);
      await spendAllowance(ctx.trx, user.id, clock.now());
      const generated = asked ?? (await suggest(series));
      const row = await insertRow(ctx, 'aiSuggestions', {
        id: newId(),
        seriesId,
        bookId,
        type: generated.type,
        content: generated.content,
        engine: generated.engine,
        entityIds: generated.entityIds,
        authorId: user.id,
      });
      series.remember(generated.content, ctx.seq);
      return { status: 201, body: generated.notice ? { ...row, notice: generated.notice } : row };
    });
  });

  app.post('/api/ai/analyze', { schema: { body: analyzeBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    let text = request.body.content ?? '';
    let seriesId: string | null = null;
    let bookId: string | null = null;
    if (request.body.chapterId) {
      const access = await assertAccessible(db, 'chapters', request.body.chapterId, user.id);
      const chapter = (await findRow(db, 'chapters', request.body.chapterId))!;
      text = chapter.content;
      seriesId = access.seriesId;
      bookId = chapter.bookId;
    }
    if (text.trim().length < MINIMUMS.analysisText) throw invalid(MESSAGES.ai.textTooShort, 'content');
    if (text.length > MAX_SERVER_ANALYSIS_CHARS) {
      throw invalid(`Texts of more than ${MAX_SERVER_ANALYSIS_CHARS.toLocaleString('en-US')} characters are analysed in the editor, on your device`, 'content');
    }
    const result = analyzeProse(text);
    const engines = app.companion.engines;
    if (!request.body.useModel || !engines.modelConfigured) {
      return { ...result, engine: 'builtin', ...(request.body.useModel ? { notice: NO_MODEL_NOTICE } : {}) };
    }
    await assertAllowanceLeft(db, user.id, app.companion.clock.now());
    const material = seriesId ? await loadSeriesMaterial(db, seriesId) : null;
    const reading = await engines.modelAnalysis(text, material, bookId);
    if ('notice' in reading) return { ...result, engine: 'builtin', notice: reading.notice };
    // Only an analysis the model wrote counts against the allowance.
    return write(request, reply, async (ctx) => {
      await spendAllowance(ctx.trx, user.id, app.companion.clock.now());
      return ok({ ...result, analysis: `${reading.text}\n\n${result.analysis}`, modelAnalysis: reading.text, engine: 'model' });
    });
  });
}

// Wrapped with fastify-plugin so `app.companion` (its clock) is reachable from the app, as the auth clock is.
export default fp(aiPlugin, { name: 'chronicler-ai' });
