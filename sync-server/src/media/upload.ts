/**
 * A picture upload, decided as early as it can be (docs/decisions/0022-pictures-on-the-server.md,
 * docs/decisions/0015-isolation.md "bodies refused before they are read"):
 *
 * 1. from the headers, before a byte of the body is read (`checkBeforeBody`, the route's onRequest):
 *    the series and the caller's role (404 as for any id the caller has no part in, 403 for a
 *    viewer), the `multimedia` gate on the owner's plan (403), the plan's per-picture size against
 *    Content-Length (413) and the owner's allowance against it (403 PLAN_LIMIT) — the gate and the
 *    allowance only for a picture the series does not have yet (a retry stores nothing new);
 * 2. while the body arrives (`readPictureBody`, the route's parser): at most the plan's per-picture
 *    size, counted as it comes, so a chunked body without a length is cut at the same bound;
 * 3. from the bytes (`checkPicture`): the type sniffed from them, never from the declared one (415),
 *    a file that is also something else (415), a damaged one or one too many pixels to decode safely
 *    (422), the SHA-256 it is named by (400), metadata the browser should have stripped (422);
 * 4. in its write (plugin.ts): the allowance again, exactly, serialised with every other write.
 *
 * Metadata is refused rather than stripped here: stripping changes the bytes and so the hash the
 * device already wrote into the entity's field. The browser strips before hashing (its encoder
 * writes none); anything else sending metadata is told so.
 */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { ERROR_CODES, type PlanName, gateState } from '@chronicler/schema';
import { type ImageInspection, MEDIA_MESSAGES, fitsAllowance, inspectImage, isSha256Hex, pictureAllowanceBytes, pictureMaxBytes } from '@chronicler/schema/media';
import type { SeriesAccess } from '../entities/access.ts';
import { type Db, assertAccessible, ownerPlan } from '../entities/queries.ts';
import { requireUser } from '../http/caller.ts';
import { HttpError } from '../http/errors.ts';
import { findSeriesPicture, ownerHasPicture, usedBytes } from './store.ts';

/** What the checks before the body found, for the parser and the handler. */
export interface UploadStanding {
  access: SeriesAccess;
  plan: PlanName;
  maxBytes: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    pictureUpload?: UploadStanding;
  }
}

export interface MediaParams {
  seriesId: string;
  sha256: string;
}

/** The caller's standing in the series named by the path: 404 when they have none (or it is deleted), 403 below `level`. */
export function seriesStanding(db: Db, request: FastifyRequest, level: 'read' | 'edit'): Promise<SeriesAccess> {
  const { seriesId } = request.params as MediaParams;
  return assertAccessible(db, 'series', seriesId, requireUser(request).id, { level });
}

const tooLarge = (maxBytes: number) => new HttpError(413, ERROR_CODES.payloadTooLarge, MEDIA_MESSAGES.tooLarge(maxBytes));

/** Whether the owner's allowance takes this picture (nothing new when one of their series has it already). */
export async function assertAllowanceFits(db: Db, access: SeriesAccess, plan: PlanName, sha256: string, bytes: number): Promise<void> {
  if (await ownerHasPicture(db, access.ownerId, sha256)) return;
  const used = await usedBytes(db, access.ownerId);
  if (!fitsAllowance(plan, used, bytes)) throw new HttpError(403, ERROR_CODES.planLimit, MEDIA_MESSAGES.storageFull(pictureAllowanceBytes(plan), used));
}

/** A picture the series has already: storing it again adds nothing, so neither the gate nor the allowance asks. */
async function seriesHas(db: Db, seriesId: string, sha256: string): Promise<boolean> {
  return isSha256Hex(sha256) && (await findSeriesPicture(db, seriesId, sha256)) !== null;
}

function assertMultimedia(plan: PlanName): void {
  const gate = gateState({ plan, feature: 'multimedia' });
  if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
}

/**
 * In the write that stores it: a new use of the picture needs `multimedia` on the owner's plan and
 * room in the allowance; one the series has already needs neither (a retried upload, after a
 * downgrade too).
 */
export async function assertMayAdd(db: Db, access: SeriesAccess, plan: PlanName, sha256: string, bytes: number): Promise<void> {
  if (await seriesHas(db, access.seriesId, sha256)) return;
  assertMultimedia(plan);
  await assertAllowanceFits(db, access, plan, sha256, bytes);
}

export async function checkBeforeBody(db: Db, request: FastifyRequest): Promise<void> {
  const access = await seriesStanding(db, request, 'edit');
  const plan = await ownerPlan(db, access.seriesId);
  const { sha256 } = request.params as MediaParams;
  const adds = !(await seriesHas(db, access.seriesId, sha256));
  if (adds) assertMultimedia(plan);
  const maxBytes = pictureMaxBytes(plan);
  const declared = request.headers['content-length'];
  const length = declared === undefined ? null : Number(declared);
  if (length !== null && length > maxBytes) throw tooLarge(maxBytes);
  if (adds && length !== null && isSha256Hex(sha256)) await assertAllowanceFits(db, access, plan, sha256, length);
  request.pictureUpload = { access, plan, maxBytes };
}

/** The route's body parser: the raw bytes, at most the plan's per-picture size (counted as they arrive). */
export function readPictureBody(request: FastifyRequest, payload: Readable, done: (error: Error | null, body?: Buffer) => void): void {
  const limit = request.pictureUpload?.maxBytes ?? 0;
  const chunks: Buffer[] = [];
  let total = 0;
  let finished = false;
  const finish = (error: Error | null, body?: Buffer) => {
    if (finished) return;
    finished = true;
    payload.removeListener('data', onData);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    total += chunk.length;
    if (total > limit) {
      // As Fastify's own parsers: stop listening (what still arrives is dropped) and answer; the
      // answer closes the connection (http/unread-bodies.ts). Pausing instead would leave unread
      // bytes in the socket, and its close would reset the connection before the answer is read.
      finish(tooLarge(limit));
      return;
    }
    chunks.push(chunk);
  };
  payload.on('data', onData);
  payload.once('end', () => finish(null, Buffer.concat(chunks, total)));
  payload.once('error', (error) => finish(error));
}

export type CheckedPicture = Extract<ImageInspection, { ok: true }>;

/** The picture the body holds, or why it is refused. */
export function checkPicture(body: unknown, sha256: string): CheckedPicture {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(415, ERROR_CODES.unsupportedMediaType, MEDIA_MESSAGES.notAnImage);
  const inspection = inspectImage(body);
  if (!inspection.ok) {
    switch (inspection.problem) {
      case 'not-an-image':
        throw new HttpError(415, ERROR_CODES.unsupportedMediaType, MEDIA_MESSAGES.notAnImage);
      case 'polyglot':
        throw new HttpError(415, ERROR_CODES.unsupportedMediaType, MEDIA_MESSAGES.polyglot);
      case 'damaged':
        throw new HttpError(422, ERROR_CODES.validation, MEDIA_MESSAGES.damaged);
      case 'too-many-pixels':
        throw new HttpError(422, ERROR_CODES.validation, MEDIA_MESSAGES.tooManyPixels);
    }
  }
  if (crypto.createHash('sha256').update(body).digest('hex') !== sha256) throw new HttpError(400, ERROR_CODES.badRequest, MEDIA_MESSAGES.hashMismatch);
  if (inspection.metadata.length > 0) throw new HttpError(422, ERROR_CODES.validation, MEDIA_MESSAGES.containsMetadata);
  return inspection;
}
