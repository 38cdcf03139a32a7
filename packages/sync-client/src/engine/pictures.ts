/**
 * Picture uploads (docs/decisions/0023-pictures-on-the-device.md): the `pictures` rows not yet
 * uploaded are a queue the sync loop sends before the outbox, each as
 * `PUT /api/series/:seriesId/media/:sha256` with the bytes as the body. The name is the content's
 * hash, so a PUT sent twice (a retry after a lost answer, two tabs) stores one picture. Answers
 * follow the shared status contract: applied → uploaded; auth → paused; transient → this picture
 * waits out a backoff (the rest of the loop goes on); permanent (413, 403, 415…) → refused, kept on
 * the device and reported once, never retried on its own.
 */
import { classifyStatus, retryDelayMs } from '@chronicler/schema';
import { picturePath } from '../media/picture-format.ts';
import type { PictureRow } from '../media/store.ts';
import { type EngineContext, OFFLINE_PUSH_MESSAGE } from './context.ts';
import { readJson } from './transport.ts';

export interface PictureUploadResult {
  uploaded: number;
  refused: number;
  /** Stopped on a transient failure, or a picture waits for its retry time: try again then. */
  retryAt: number | null;
}

/** The message of a refusal (the server's JSON {message}), or one naming the status. */
export function refusalMessage(body: unknown, status: number): string {
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && message.trim() !== '') return message;
  if (status === 413) return 'This picture is larger than your plan allows.';
  if (status === 415) return 'This picture is not a type Chronicler accepts (JPEG, PNG, WebP or GIF).';
  if (status === 403) return 'You cannot add pictures to this series.';
  return `The server refused this picture (HTTP ${status}).`;
}

export interface PictureUploader {
  cycle(): Promise<PictureUploadResult>;
}

export function createPictureUploader(ctx: EngineContext): PictureUploader {
  const { db, now, random, flags } = ctx;

  /** The next picture due, or the earliest time one will be. */
  async function next(): Promise<{ row: PictureRow | null; waitUntil: number | null }> {
    const queued = await db.pictures.where('uploaded').equals(0).filter((r) => r.refused === undefined).toArray();
    queued.sort((a, b) => a.createdAt - b.createdAt);
    const due = queued.find((r) => r.nextAttemptAt <= now());
    if (due) return { row: due, waitUntil: null };
    const waits = queued.map((r) => r.nextAttemptAt);
    return { row: null, waitUntil: waits.length > 0 ? Math.min(...waits) : null };
  }

  async function later(row: PictureRow, delayMs: number): Promise<number> {
    const at = now() + delayMs;
    await db.pictures.update(row.sha256, { attempts: row.attempts + 1, nextAttemptAt: at });
    return at;
  }

  async function cycle(): Promise<PictureUploadResult> {
    const result: PictureUploadResult = { uploaded: 0, refused: 0, retryAt: null };
    while (!flags.stopped && !flags.paused) {
      const { row, waitUntil } = await next();
      if (!row) {
        result.retryAt = waitUntil;
        break;
      }
      const seriesId = row.uploadTo[0] ?? row.seriesId;
      let response: Response;
      try {
        response = await ctx.transport.request('PUT', picturePath(seriesId, row.sha256), { 'Content-Type': row.type }, row.blob);
      } catch {
        if (flags.stopped) break;
        ctx.noteNetworkTrouble(OFFLINE_PUSH_MESSAGE);
        result.retryAt = await later(row, retryDelayMs(row.attempts + 1, random, null, now()));
        break;
      }
      if (flags.stopped) break;
      const body = await readJson(response).catch(() => null);
      switch (classifyStatus(response.status)) {
        case 'applied': {
          // Read again: the same bytes may have been chosen in another series meanwhile.
          await db.transaction('rw', db.pictures, async () => {
            const current = await db.pictures.get(row.sha256);
            if (!current) return;
            const uploadTo = current.uploadTo.filter((s) => s !== seriesId);
            await db.pictures.update(row.sha256, { uploadTo, uploaded: uploadTo.length === 0 ? 1 : 0, attempts: 0, nextAttemptAt: 0 });
          });
          result.uploaded += 1;
          ctx.clearTransientError();
          ctx.emit({ type: 'picture-uploaded', sha256: row.sha256, seriesId });
          break;
        }
        case 'auth':
          ctx.pauseForAuth();
          return result;
        case 'transient':
          result.retryAt = await later(row, retryDelayMs(row.attempts + 1, random, response.headers.get('Retry-After'), now()));
          return result;
        case 'permanent': {
          const refusal = { status: response.status, message: refusalMessage(body, response.status) };
          await db.pictures.update(row.sha256, { refused: refusal });
          result.refused += 1;
          ctx.emit({ type: 'picture-refused', sha256: row.sha256, seriesId, ...refusal });
          break;
        }
      }
    }
    return result;
  }

  return { cycle };
}
