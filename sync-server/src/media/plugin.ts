/**
 * Pictures kept per series (docs/decisions/0022-pictures-on-the-server.md), named by the SHA-256 of
 * their bytes; entity fields name them as `media:<sha256>[#thumb=<sha256>]` (@chronicler/schema/media).
 *
 * - PUT    /api/series/:seriesId/media/:sha256  the picture's raw bytes (image/jpeg|png|webp|gif), an
 *          editor or above; 201 {sha256, type, bytes, width, height}, 200 the same when the series has
 *          it already (a retried upload is never kept twice). Refusals: upload.ts.
 * - GET    /api/series/:seriesId/media/:sha256  any member; the bytes with their sniffed type, cached
 *          for a year (the name is the content), an ETag (304 on If-None-Match), and headers that keep
 *          them a picture: nosniff, a CSP of nothing and a sandbox, inline.
 * - DELETE /api/series/:seriesId/media/:sha256  an editor or above: the series stops using it; the
 *          bytes go when no series does.
 * - GET    /api/media/usage                      the caller's pictures against their plan.
 *
 * A series the caller has no part in, a deleted one, and a picture the series does not use all
 * answer the same 404. Uploads need `multimedia` on the owner's plan; reading and removing never do.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES } from '@chronicler/schema';
import {
  ACCEPTED_IMAGE_TYPES,
  LARGEST_PICTURE_BYTES,
  MEDIA_MESSAGES,
  type MediaUsage,
  type StoredPicture,
  isSha256Hex,
  pictureAllowanceBytes,
  pictureMaxBytes,
} from '@chronicler/schema/media';
import { ownerPlan, userPlan } from '../entities/queries.ts';
import { requireUser } from '../http/caller.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { noBody } from '../routes/kit.ts';
import { PICTURE_CACHE_BYTES, PictureBytesCache } from './bytes-cache.ts';
import { findSeriesPicture, keepSeriesPicture, readPictureBytes, removeSeriesPicture, usedBytes } from './store.ts';
import { SWEEP_INTERVAL_MS, sweepUnusedPictures } from './sweep.ts';
import { assertMayAdd, checkBeforeBody, checkPicture, readPictureBody, seriesStanding } from './upload.ts';

const mediaParams = z.strictObject({ seriesId: z.string().min(1).max(100), sha256: z.string().min(1).max(100) });

/** The answer headers of a picture: cached for good (its name is its content), and never anything but a picture. */
const PICTURE_HEADERS = {
  'cache-control': 'private, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'content-disposition': 'inline',
};

/** Whether If-None-Match names `etag` (a list, weak or not, or `*`). */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = [header].flat().flatMap((value) => value.split(','));
  return tags.some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

function isAcceptedType(header: string | undefined): boolean {
  const essence = header?.split(';', 1)[0]!.trim().toLowerCase();
  return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(essence ?? '');
}

export default async function mediaPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  const { db } = database;
  const cache = new PictureBytesCache(PICTURE_CACHE_BYTES);

  // This plugin's routes only (encapsulated): the raw bytes, bounded by the owner's plan (upload.ts).
  app.addContentTypeParser([...ACCEPTED_IMAGE_TYPES], readPictureBody);

  app.put(
    '/api/series/:seriesId/media/:sha256',
    {
      schema: { params: mediaParams },
      bodyLimit: LARGEST_PICTURE_BYTES,
      config: { bodyTypes: ACCEPTED_IMAGE_TYPES },
      // Before a byte of the body is read: who, where, which plan, how large (upload.ts).
      onRequest: async (request) => {
        await checkBeforeBody(db, request);
        if (!isAcceptedType(request.headers['content-type'])) throw new HttpError(415, ERROR_CODES.unsupportedMediaType, MEDIA_MESSAGES.notAnImage);
      },
    },
    async (request, reply) => {
      const { seriesId, sha256 } = request.params;
      const picture = checkPicture(request.body, sha256);
      const body = request.body as Buffer;
      const stored: StoredPicture = { sha256, type: picture.type, bytes: body.length, width: picture.width, height: picture.height };
      const userId = requireUser(request).id;
      // The standing and the allowance again, in the write: a role or a plan may have changed while
      // the body arrived, and concurrent uploads must not overspend (docs/decisions/0010-postgresql-storage.md).
      const { existed } = await database.groupCommit.run(async (trx) => {
        const access = await seriesStanding(trx, request, 'edit');
        await assertMayAdd(trx, access, await ownerPlan(trx, access.seriesId), sha256, body.length);
        return keepSeriesPicture(trx, seriesId, { ...stored, data: body }, userId, new Date().toISOString());
      });
      return reply.status(existed ? 200 : 201).send(stored);
    },
  );

  app.get('/api/series/:seriesId/media/:sha256', { schema: { params: mediaParams } }, async (request, reply) => {
    const { seriesId, sha256 } = request.params;
    await seriesStanding(db, request, 'read');
    const meta = isSha256Hex(sha256) ? await findSeriesPicture(db, seriesId, sha256) : null;
    if (!meta) throw notFound();
    const etag = `"${sha256}"`;
    void reply.headers(PICTURE_HEADERS).header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    let bytes = cache.get(sha256);
    if (!bytes) {
      const read = await readPictureBytes(db, sha256);
      if (!read) throw notFound();
      bytes = read;
      cache.set(sha256, bytes);
    }
    return reply.type(meta.type).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  app.delete('/api/series/:seriesId/media/:sha256', { schema: { params: mediaParams, body: noBody } }, async (request) => {
    const { seriesId, sha256 } = request.params;
    const removed = await database.groupCommit.run(async (trx) => {
      await seriesStanding(trx, request, 'edit');
      return isSha256Hex(sha256) && (await removeSeriesPicture(trx, seriesId, sha256));
    });
    if (!removed) throw notFound();
    return { sha256 };
  });

  app.get('/api/media/usage', async (request): Promise<MediaUsage> => {
    const userId = requireUser(request).id;
    const plan = await userPlan(db, userId);
    return { usedBytes: await usedBytes(db, userId), allowanceBytes: pictureAllowanceBytes(plan), perPictureBytes: pictureMaxBytes(plan) };
  });

  const sweep = () => void sweepUnusedPictures(database, Date.now()).catch((error: unknown) => app.log.error({ err: error }, 'picture sweep failed'));
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onReady', async () => sweep());
  app.addHook('onClose', async () => clearInterval(timer));
}
