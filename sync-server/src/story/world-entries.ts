/**
 * World entries (docs/decisions/0020-world-entries.md): the World page's cultures, magic systems,
 * species, technologies and factions. Writes need `advancedWorldBuilding` on the series owner's
 * plan (the registry's writeFeature, checked first so a locked plan hears that before anything
 * else); reads never do, so an author whose plan lapsed still reads and exports their world.
 *
 * Every id a body links (characters, places, other entries, a faction's leader, allies and
 * enemies) must be a row of the entry's own series (422 otherwise), looked up in the database. A
 * linked row another device deleted first is dropped from the links — what its delete cascade does
 * to entries already linking it (story/dangling.ts) — so both orders store the same entry.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  WORLD_LINK_FIELDS,
  WORLD_LINK_LIST_FIELDS,
  createWorldEntryBodySchema,
  updateWorldEntryBodySchema,
  worldUpdateProblem,
} from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { deleteWithDependants } from '../entities/delete.ts';
import { assertWriteFeature } from '../entities/gates.ts';
import { assertAccessible, type Db, findRow, findStandingsInSeries, listLiveJson, loadAccessible } from '../entities/queries.ts';
import { JSON_CONTENT_TYPE } from '../http/json.ts';
import { applyUpdate, baseRevOf } from '../sync/update.ts';
import { idParams, noBody, ok, write } from '../routes/kit.ts';
import { assertBookAppearancesInSeries } from './book-appearances.ts';
import { invalid } from './common.ts';
import { createUnder, isDeleted, loadEvenIfDeleted } from './dangling.ts';

type LinkFields = { -readonly [F in keyof typeof WORLD_LINK_FIELDS]?: string[] | undefined } & { leaderId?: string | null | undefined };

const LINK_NOUNS: Record<(typeof WORLD_LINK_FIELDS)[keyof typeof WORLD_LINK_FIELDS], string> = {
  characters: 'character',
  locations: 'place',
  worldEntries: 'linked entry',
};

/**
 * The links a body sets, checked against the series and with deleted rows dropped; fields the body
 * does not set stay unset.
 */
async function resolveLinks<T extends LinkFields>(db: Db, seriesId: string, body: T): Promise<T> {
  const resolved: T = { ...body };
  for (const field of WORLD_LINK_LIST_FIELDS) {
    const ids = body[field];
    if (!ids || ids.length === 0) continue;
    const kind = WORLD_LINK_FIELDS[field];
    const found = await findStandingsInSeries(db, kind, ids, seriesId);
    if (found.length !== new Set(ids).size) throw invalid(`Every ${LINK_NOUNS[kind]} must belong to the same series as the entry`, field);
    const live = new Set(found.filter((row) => !isDeleted(row)).map((row) => row.id));
    resolved[field] = ids.filter((id) => live.has(id));
  }
  if (body.leaderId) {
    const leader = await findRow(db, 'characters', body.leaderId);
    if (!leader || leader.seriesId !== seriesId) throw invalid('The leader must be a character of the same series as the entry', 'leaderId');
    if (isDeleted(leader)) resolved.leaderId = null;
  }
  return resolved;
}

export default async function worldEntryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  app.get('/api/series/:id/world-entries', { schema: { params: idParams } }, async (request, reply) => {
    const { seriesId } = await assertAccessible(db, 'series', request.params.id, requireUser(request).id);
    return reply.type(JSON_CONTENT_TYPE).send(await listLiveJson(db, 'worldEntries', 'seriesId', seriesId, ['createdAt', 'id']));
  });

  app.post('/api/world-entries', { schema: { body: createWorldEntryBodySchema } }, async (request, reply) =>
    write(request, reply, async (ctx) => {
      // A series deleted on another device first: stored as its delete would have left it (story/dangling.ts).
      const series = await loadEvenIfDeleted(ctx, 'series', request.body.seriesId);
      await assertWriteFeature(ctx.trx, 'worldEntries', series.id);
      await assertBookAppearancesInSeries(ctx.trx, series.id, request.body.bookAppearances);
      const body = await resolveLinks(ctx.trx, series.id, request.body);
      return createUnder(ctx, 'worldEntries', series.id, { ...body, seriesId: series.id }, isDeleted(series));
    }),
  );

  app.get('/api/world-entries/:id', { schema: { params: idParams } }, async (request) =>
    loadAccessible(db, 'worldEntries', request.params.id, requireUser(request).id),
  );

  app.put('/api/world-entries/:id', { schema: { params: idParams, body: updateWorldEntryBodySchema } }, async (request, reply) => {
    const baseRev = baseRevOf(request);
    return write(request, reply, async (ctx) => {
      const current = await loadEvenIfDeleted(ctx, 'worldEntries', request.params.id);
      // A deleted entry is answered by applyUpdate as it stands (mergeStatus 'deleted').
      let body = request.body;
      if (!isDeleted(current)) {
        await assertWriteFeature(ctx.trx, 'worldEntries', current.seriesId);
        const problem = worldUpdateProblem(current, body);
        if (problem) throw invalid(problem.message, problem.field);
        await assertBookAppearancesInSeries(ctx.trx, current.seriesId, body.bookAppearances);
        body = await resolveLinks(ctx.trx, current.seriesId, body);
      }
      return ok(await applyUpdate(ctx, 'worldEntries', request.params.id, body, baseRev, { current }));
    });
  });

  app.delete('/api/world-entries/:id', { schema: { params: idParams, body: noBody } }, async (request, reply) =>
    write(request, reply, async (ctx) => ok(await deleteWithDependants(ctx, 'worldEntries', request.params.id))),
  );
}

